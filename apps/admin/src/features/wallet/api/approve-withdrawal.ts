import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Approves a withdrawal under review: it goes out. */
export function approveWithdrawal(id: string) {
  return api('POST', `/withdrawals/${id}/approve`, {}, z.unknown());
}
