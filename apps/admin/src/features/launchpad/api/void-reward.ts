import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Voids a pending reward with a reason; its money goes back to the issuer. */
export function voidReward(id: string, reason: string) {
  return api('POST', `/launchpad/rewards/${id}/void`, { reason }, z.unknown());
}
