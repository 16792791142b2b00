import type { SpotMarket } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { spotQueryKey } from './spot-query-key.ts';

/** `GET /Market/spot`: the spot markets with their tick and lot sizes, fees and status. */
export async function getSpotMarkets(signal?: AbortSignal): Promise<SpotMarket[]> {
  return (await get('/Market/spot', {}, 'SpotMarketList', { signal, silent: true })).data;
}

export function spotMarketsQueryOptions() {
  return queryOptions({
    queryKey: [...spotQueryKey, 'markets'],
    queryFn: ({ signal }) => getSpotMarkets(signal),
    staleTime: 60_000,
  });
}

export function useSpotMarkets() {
  return useQuery(spotMarketsQueryOptions());
}
