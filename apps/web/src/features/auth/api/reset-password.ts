import type { ResetPasswordBody } from '@bourse/shared/api';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/** `POST /Login/resetpwd`: a new login password with the code mailed to the address. */
export function resetPassword(input: WireInput<ResetPasswordBody>) {
  return post('/Login/resetpwd', { ...input }, 'NoData');
}
