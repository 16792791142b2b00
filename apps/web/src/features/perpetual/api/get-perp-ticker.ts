import type { PerpTicker } from '@bourse/shared/api';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { useChannel, useRealtimeStatus } from '../../../api/ws.ts';
import { perpQueryKey } from './perp-query-key.ts';

/** While `/ws` is down the ticker is asked again this often (it is pushed at 1 Hz otherwise). */
const TICKER_POLL_MS = 2000;

/** `GET /Perp/ticker`: mark, index, last, the funding rate and when it is next paid. */
export function perpTickerQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: [...perpQueryKey, 'ticker', symbol],
    queryFn: async ({ signal }) =>
      (await get('/Perp/ticker', { symbol }, 'PerpTicker', { signal, silent: true })).data,
    staleTime: 0,
  });
}

/** One market's ticker: loaded once, then each push of `perp:<symbol>`; polled only while offline. */
export function usePerpTicker(symbol: string) {
  const client = useQueryClient();
  const isLive = useRealtimeStatus() === 'open';
  const options = perpTickerQueryOptions(symbol);
  useChannel(
    `perp:${symbol}`,
    (data) => {
      const ticker = data as PerpTicker | null;
      if (ticker && ticker.symbol === symbol) client.setQueryData(options.queryKey, ticker);
    },
    symbol !== '',
  );
  return useQuery({ ...options, enabled: symbol !== '', refetchInterval: isLive ? false : TICKER_POLL_MS });
}
