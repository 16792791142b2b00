import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Rejects a withdrawal under review (its funds are released), with the reason the user sees. */
export function rejectWithdrawal(id: string, reason: string) {
  return api('POST', `/withdrawals/${id}/reject`, { reason }, z.unknown());
}
