import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Credits a deposit with the amount that arrived. */
export function confirmDeposit(id: string, amount: string) {
  return api('POST', `/deposits/${id}/confirm`, { amount }, z.unknown());
}
