import { BroadcastList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The broadcast notices sent, newest first. */
export function listBroadcasts() {
  return api('GET', '/notices/broadcasts', undefined, BroadcastList);
}
