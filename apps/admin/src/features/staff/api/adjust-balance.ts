import { type AdjustBody, AdjustResult } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A manual adjustment of a user's balance; `key` makes a retry post it once. */
export function adjustBalance(userId: string, values: Omit<AdjustBody, 'token'>) {
  return api('POST', `/users/${userId}/adjust`, { ...values }, AdjustResult);
}
