import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Freezes or unfreezes an account (a frozen account cannot sign in). */
export function setFrozen(id: string, frozen: boolean, reason?: string) {
  return api('POST', `/users/${id}/freeze`, { frozen, reason }, z.unknown());
}
