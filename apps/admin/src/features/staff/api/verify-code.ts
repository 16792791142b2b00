import { StaffSignedIn, type TotpBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Step 2 of signing in: the authenticator code (and, at enrolment, a new password); answers the token. */
export function verifyCode(step: 'enrol' | 'totp', values: TotpBody) {
  return api('POST', step === 'enrol' ? '/totp/enrol' : '/totp/verify', { ...values }, StaffSignedIn);
}
