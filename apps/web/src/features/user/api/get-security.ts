import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** The security overview's query key; the security pages refresh it after a change. */
export const securityQueryKey = ['account', 'security'] as const;

/** `GET /user/security`: bound e-mail and mobile, two-factor codes, anti-phishing code. */
export function securityQueryOptions() {
  return queryOptions({
    queryKey: securityQueryKey,
    queryFn: async ({ signal }) =>
      (await get('/user/security', undefined, 'SecurityOverview', { signal })).data,
  });
}

export function useSecurityOverview() {
  return useQuery(securityQueryOptions());
}
