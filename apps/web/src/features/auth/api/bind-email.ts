import type { BindEmailBody } from '@bourse/shared/api';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/** `POST /user/bindemail`: binds (or changes) the account's e-mail with the code mailed to it. */
export function bindEmail(input: WireInput<BindEmailBody>) {
  return post('/user/bindemail', { ...input }, 'NoData');
}
