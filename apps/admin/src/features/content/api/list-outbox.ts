import { OutboxList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The latest mails, of one recipient or all. */
export function listOutbox(recipient: string | undefined) {
  return api('GET', '/mail/outbox', { recipient }, OutboxList);
}
