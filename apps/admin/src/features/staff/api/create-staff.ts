import { CreatedStaff, type CreateStaffBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A new staff account (their first sign-in enrols the authenticator). */
export function createStaff(values: Omit<CreateStaffBody, 'token'>) {
  return api('POST', '/staff', values, CreatedStaff);
}
