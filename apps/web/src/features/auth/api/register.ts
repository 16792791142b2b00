import type { RegisterBody } from '@bourse/shared/api';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/**
 * `POST /Login/upregister` (mode 1: a username) or `/Login/upregister_phone` (mode 2: a mobile
 * number; same fields). `vcode` and `key` are the graphic code and its key ('' when the deployment
 * asks for none); `terms_version` the terms the person ticked the box for, absent while none is in
 * force. Resolves with the envelope.
 */
export function register(mode: 1 | 2, input: WireInput<RegisterBody>) {
  const path = mode === 2 ? '/Login/upregister_phone' : '/Login/upregister';
  return post(path, { ...input }, 'NoData');
}
