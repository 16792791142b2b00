import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Rejects a deposit, with the reason the user sees. */
export function rejectDeposit(id: string, reason: string) {
  return api('POST', `/deposits/${id}/reject`, { reason }, z.unknown());
}
