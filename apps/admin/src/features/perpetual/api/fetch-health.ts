import { AdminPerpHealth } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { PERP_QUERY_KEY } from './query-keys.ts';

/** The five invariants of every perpetual market, checked by the server when asked. */
export function fetchHealth() {
  return api('GET', '/perp/health', undefined, AdminPerpHealth);
}

export function healthQueryOptions() {
  return queryOptions({ queryKey: [...PERP_QUERY_KEY, 'health'], queryFn: fetchHealth });
}

export function useHealth() {
  return useQuery(healthQueryOptions());
}
