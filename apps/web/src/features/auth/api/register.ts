import { post } from '../../../api/http.ts';

export interface RegisterInput {
  /** 1: username; 2: mobile number (`/Login/upregister_phone`). */
  mode: 1 | 2;
  account: string;
  password: string;
  inviteCode: string;
  captcha?: { code: string; key: string };
  /** The terms-of-service version the person ticked the box for; absent while none is in force. */
  termsVersion?: number;
}

/** `POST /Login/upregister` (mode 1) or `/Login/upregister_phone` (mode 2). Resolves with the envelope. */
export function register(input: RegisterInput) {
  const path = input.mode === 2 ? '/Login/upregister_phone' : '/Login/upregister';
  return post<null>(path, {
    account: input.account,
    lpwd: input.password,
    invit: input.inviteCode,
    vcode: input.captcha?.code ?? '',
    key: input.captcha?.key ?? '',
    terms_version: input.termsVersion,
  });
}
