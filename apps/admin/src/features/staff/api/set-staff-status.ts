import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Disables or re-enables a staff account. */
export function setStaffStatus(id: number, disabled: boolean) {
  return api('POST', `/staff/${id}/status`, { disabled }, z.unknown());
}
