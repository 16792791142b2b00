import { AdminFundingPage, type AdminPerpPageQuery } from '@bourse/shared/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { PERP_QUERY_KEY } from './query-keys.ts';

/** Funding events (the rate paid and what moved), one page at a time. */
export function listFunding(query: AdminPerpPageQuery) {
  return api('GET', '/perp/funding', { ...query }, AdminFundingPage);
}

export function fundingQueryOptions(query: AdminPerpPageQuery) {
  return queryOptions({
    queryKey: [...PERP_QUERY_KEY, 'funding', query],
    queryFn: () => listFunding(query),
    // why: the table keeps the page it shows while the next one loads, instead of blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useFunding(query: AdminPerpPageQuery) {
  return useQuery(fundingQueryOptions(query));
}
