import type { IndexCandle, KlineInterval } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** Candles the chart starts with. */
const CANDLES = 200;

/** `GET /Market/kline`: the latest candles of a market's index, oldest first. */
export async function getKline(
  symbol: string,
  interval: KlineInterval,
  signal?: AbortSignal,
): Promise<IndexCandle[]> {
  return (
    await get('/Market/kline', { symbol, interval, limit: CANDLES }, 'KlineList', { signal, silent: true })
  ).data;
}

export function klineQueryOptions(symbol: string, interval: KlineInterval) {
  return queryOptions({
    queryKey: ['index', 'kline', symbol, interval],
    queryFn: ({ signal }) => getKline(symbol, interval, signal),
    // why: the channel keeps the chart current; a fresh history is fetched on every visit.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useKline(symbol: string, interval: KlineInterval, isEnabled: boolean) {
  return useQuery({ ...klineQueryOptions(symbol, interval), enabled: isEnabled && symbol !== '' });
}
