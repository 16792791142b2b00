import { AdminAdlPage, type AdminPerpPageQuery } from '@bourse/shared/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { PERP_QUERY_KEY } from './query-keys.ts';

/** Auto-deleveraging fills against customers' positions, one page at a time. */
export function listAdl(query: AdminPerpPageQuery) {
  return api('GET', '/perp/adl', { ...query }, AdminAdlPage);
}

export function adlQueryOptions(query: AdminPerpPageQuery) {
  return queryOptions({
    queryKey: [...PERP_QUERY_KEY, 'adl', query],
    queryFn: () => listAdl(query),
    // why: the table keeps the page it shows while the next one loads, instead of blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useAdl(query: AdminPerpPageQuery) {
  return useQuery(adlQueryOptions(query));
}
