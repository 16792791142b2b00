import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Rejects (or, for its maker, withdraws) a pending adjustment, with a reason. */
export function rejectAdjustment(id: string, reason: string | undefined) {
  return api('POST', `/adjustments/${id}/reject`, { reason }, z.unknown());
}
