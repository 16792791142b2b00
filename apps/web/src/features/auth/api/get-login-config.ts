import type { ClientConfig } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** Login and registration settings of this deployment (`GET /Login/config`). */

export const loginConfigQueryKey = ['auth', 'config'] as const;

export async function getLoginConfig(signal?: AbortSignal): Promise<ClientConfig> {
  return (await get('/Login/config', {}, 'ClientConfig', { signal, silent: true })).data;
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
