import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from './http.ts';

/** Real-name status: not verified, under review, verified, rejected. */
export type RealNameStatus = 0 | 1 | 2 | 3;

/** The signed-in user, as `GET /User/getUserInfo` answers in `data.userInfo`. */
export interface UserInfo {
  id: number;
  username: string;
  /** 1 when a withdrawal password is set. */
  paypassword: 0 | 1;
  /** 1 when at least one withdrawal address is saved. */
  is_address: 0 | 1;
  email: string;
  phone: string;
  level: number;
  credit: number;
  /** Unix seconds, or null before the first login. */
  last_login_time: number | null;
  last_login_ip: string;
  invite_code: string;
  reg_ip: string;
  referrer: string;
  realname_status: RealNameStatus;
}

/** Query key of the user info; mutations that change the user invalidate it. */
export const userInfoQueryKey = ['user', 'info'] as const;

/** `token`: a session not stored yet (the login loads the user info before it enters the app). */
export async function getUserInfo(signal?: AbortSignal, token?: string): Promise<UserInfo> {
  const body = await get<{ userInfo: UserInfo }>('/User/getUserInfo', { token }, { signal, silent: true });
  return body.data.userInfo;
}

export function userInfoQueryOptions(token?: string) {
  return queryOptions({
    queryKey: userInfoQueryKey,
    queryFn: ({ signal }) => getUserInfo(signal, token),
    staleTime: 30_000,
  });
}

export function useUserInfo(options: { enabled?: boolean } = {}) {
  return useQuery({ ...userInfoQueryOptions(), enabled: options.enabled ?? true });
}
