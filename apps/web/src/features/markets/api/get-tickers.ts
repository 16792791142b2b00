import type { Ticker } from '@bourse/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** Query key of the tickers; the WebSocket stream writes into the same cache entry. */
export const tickersQueryKey = ['markets', 'tickers'] as const;

/** `GET /Market/tickers`: the 24h ticker of every market. */
export async function getTickers(signal?: AbortSignal): Promise<Ticker[]> {
  return (await get('/Market/tickers', {}, 'TickerList', { signal, silent: true })).data;
}

export function tickersQueryOptions() {
  return queryOptions({
    queryKey: tickersQueryKey,
    queryFn: ({ signal }) => getTickers(signal),
    staleTime: 5_000,
  });
}

export function useTickers() {
  return useQuery(tickersQueryOptions());
}
