import { type StaffLoginBody, StaffLoginStep } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Step 1 of signing in: the password; answers the code step (enrol or verify) and its ticket. */
export function signIn(values: StaffLoginBody) {
  return api('POST', '/login', values, StaffLoginStep);
}
