import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';

export interface LoginInput {
  username: string;
  password: string;
  /** The graphic code and its key, when the deployment asks for one. */
  captcha?: { code: string; key: string };
  /** The two-factor code (or a backup code), once the server asked for it. */
  totpCode?: string;
}

export interface LoginResult {
  token: string;
  uid: number;
}

/** `POST /Login/loginsubmit`: the spec names the username field `email`. Resolves with the envelope. */
export function login(input: LoginInput) {
  return post<LoginResult>('/Login/loginsubmit', {
    email: input.username,
    lpwd: input.password,
    vcode: input.captcha?.code ?? '',
    key: input.captcha?.key ?? '',
    ...(input.totpCode ? { gacode: input.totpCode } : {}),
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
