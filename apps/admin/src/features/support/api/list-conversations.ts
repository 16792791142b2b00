import { SupportConversationList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The support conversations, latest first, with their unread counts. */
export function listConversations() {
  return api('GET', '/support/conversations', undefined, SupportConversationList);
}
