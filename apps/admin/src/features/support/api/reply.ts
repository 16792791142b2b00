import { ChatMessageWire } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A staff reply in a support conversation. */
export function reply(conversationId: number, body: string) {
  return api('POST', `/support/conversations/${conversationId}/reply`, { body }, ChatMessageWire);
}
