import { AdminInsurancePage, type AdminPerpPageQuery } from '@bourse/shared/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { PERP_QUERY_KEY } from './query-keys.ts';

/** Every movement of the markets' insurance funds, one page at a time. */
export function listInsurance(query: AdminPerpPageQuery) {
  return api('GET', '/perp/insurance', { ...query }, AdminInsurancePage);
}

export function insuranceQueryOptions(query: AdminPerpPageQuery) {
  return queryOptions({
    queryKey: [...PERP_QUERY_KEY, 'insurance', query],
    queryFn: () => listInsurance(query),
    // why: the table keeps the page it shows while the next one loads, instead of blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useInsurance(query: AdminPerpPageQuery) {
  return useQuery(insuranceQueryOptions(query));
}
