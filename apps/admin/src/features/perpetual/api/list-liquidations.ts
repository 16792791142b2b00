import { AdminLiquidationPage, type AdminPerpPageQuery } from '@bourse/shared/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { PERP_QUERY_KEY } from './query-keys.ts';

/** Positions taken over at their bankruptcy price, one page at a time. */
export function listLiquidations(query: AdminPerpPageQuery) {
  return api('GET', '/perp/liquidations', { ...query }, AdminLiquidationPage);
}

export function liquidationsQueryOptions(query: AdminPerpPageQuery) {
  return queryOptions({
    queryKey: [...PERP_QUERY_KEY, 'liquidations', query],
    queryFn: () => listLiquidations(query),
    // why: the table keeps the page it shows while the next one loads, instead of blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useLiquidations(query: AdminPerpPageQuery) {
  return useQuery(liquidationsQueryOptions(query));
}
