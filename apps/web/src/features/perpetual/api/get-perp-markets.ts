import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpQueryKey } from './perp-query-key.ts';

/** `GET /Perp/markets`: the perpetual markets with their tick and lot sizes, fees, band and tiers. */
export function perpMarketsQueryOptions() {
  return queryOptions({
    queryKey: [...perpQueryKey, 'markets'],
    queryFn: async ({ signal }) =>
      (await get('/Perp/markets', {}, 'PerpMarketList', { signal, silent: true })).data,
    staleTime: 60_000,
  });
}

export function usePerpMarkets() {
  return useQuery(perpMarketsQueryOptions());
}
