import { type BroadcastBody, CreatedNumericId } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Sends a notice to every account: a title and body per locale (ja-JP required). */
export function sendBroadcast(values: BroadcastBody) {
  return api('POST', '/notices/broadcasts', { ...values }, CreatedNumericId);
}
