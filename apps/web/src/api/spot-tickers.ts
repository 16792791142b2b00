import type { SpotTicker } from '@bourse/shared/api';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from './http.ts';
import { useChannel, useRealtimeStatus } from './ws.ts';

/** How often the spot markets' live data is asked for while `/ws` is down (it pushes otherwise). */
export const LIVE_POLL_MS = 1500;

/** `GET /Market/spottickers`: every spot market's 24h figures from its own trades, with its index. */
export async function getSpotTickers(signal?: AbortSignal): Promise<SpotTicker[]> {
  return (await get('/Market/spottickers', {}, 'SpotTickerList', { signal, silent: true })).data;
}

/**
 * The spot tickers (shared by the market list and the trade page): loaded once, then kept live
 * by `spot-ticker` (every market on subscribe, then the markets that traded); polled only while
 * the socket is down.
 */
export function spotTickersQueryOptions() {
  return queryOptions({
    queryKey: ['spot-tickers'],
    queryFn: ({ signal }) => getSpotTickers(signal),
    staleTime: 0,
  });
}

export function useSpotTickers() {
  const client = useQueryClient();
  const query = useQuery({
    ...spotTickersQueryOptions(),
    refetchInterval: useRealtimeStatus() === 'open' ? false : LIVE_POLL_MS * 2,
  });
  useChannel('spot-ticker', (data) => {
    const changed = new Map((data as SpotTicker[]).map((ticker) => [ticker.symbol, ticker]));
    client.setQueryData<SpotTicker[]>(['spot-tickers'], (old) =>
      old ? old.map((ticker) => changed.get(ticker.symbol) ?? ticker) : [...changed.values()],
    );
  });
  return query;
}
