import type { LoginBody } from '@bourse/shared/api';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/**
 * `POST /Login/loginsubmit`: the spec names the username field `email`; `vcode` and `key` are the
 * graphic code and its key when the deployment asks for one, `gacode` the two-factor code (or a
 * backup code) once the server asked for it (TOTP_REQUIRED). Resolves with the envelope.
 */
export function login(input: WireInput<LoginBody>) {
  return post('/Login/loginsubmit', { ...input }, 'LoginResult');
}
