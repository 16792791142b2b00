import { PublishResult } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Publishes a snapshot: its proof files become public. */
export function publishSnapshot(id: number) {
  return api('POST', `/reserves/snapshots/${id}/publish`, {}, PublishResult);
}
