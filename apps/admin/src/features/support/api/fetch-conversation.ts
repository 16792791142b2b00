import { SupportThread } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One support conversation's messages (reading it marks them read). */
export function fetchConversation(id: number) {
  return api('GET', `/support/conversations/${id}`, undefined, SupportThread);
}
