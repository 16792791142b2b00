import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Bans or allows trading for an account. */
export function setTradeBan(id: string, banned: boolean, reason?: string) {
  return api('POST', `/users/${id}/trade-ban`, { banned, reason }, z.unknown());
}
