import type { SendEmailCodeBody } from '@bourse/shared/api';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/**
 * Mails a code: `POST /user/sendemailcode` (binding an e-mail, signed in) or
 * `/Login/sendresetcode` (a forgotten password). Resolves with the envelope (its message is shown).
 */
export function sendEmailCode(
  path: '/Login/sendresetcode' | '/user/sendemailcode',
  input: WireInput<SendEmailCodeBody>,
) {
  return post(path, { ...input }, 'CodeSent');
}
