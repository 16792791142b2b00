import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** Login and registration settings of this deployment (`GET /Login/config`). */
export interface LoginConfig {
  /** 1: username and password; 2: mobile number and password. */
  register_mode: 1 | 2;
  /** Whether login and register ask for the graphic code. */
  captcha: boolean;
  price_source: string;
}

export const loginConfigQueryKey = ['auth', 'config'] as const;

export async function getLoginConfig(signal?: AbortSignal): Promise<LoginConfig> {
  return (await get<LoginConfig>('/Login/config', {}, { signal, silent: true })).data;
}

export function loginConfigQueryOptions() {
  return queryOptions({
    queryKey: loginConfigQueryKey,
    queryFn: ({ signal }) => getLoginConfig(signal),
    staleTime: 5 * 60_000,
  });
}

export function useLoginConfig() {
  return useQuery(loginConfigQueryOptions());
}
