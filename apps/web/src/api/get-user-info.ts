import type { UserInfo } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from './http.ts';

/** Query key of the user info; mutations that change the user invalidate it. */
export const userInfoQueryKey = ['user', 'info'] as const;

/** `token`: a session not stored yet (the login loads the user info before it enters the app). */
export async function getUserInfo(signal?: AbortSignal, token?: string): Promise<UserInfo> {
  const body = await get('/User/getUserInfo', { token }, 'UserInfoAnswer', { signal, silent: true });
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
