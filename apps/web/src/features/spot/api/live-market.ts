import type { DepthSnapshot, PublicTrade, TradeCandle, TradeKlineInterval } from '@bourse/shared/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { LIVE_POLL_MS } from '../../../api/spot-tickers.ts';
import { spotQueryKey } from './spot-query-key.ts';

/**
 * The live data of a spot market: book, trades and candles (the tickers are in api/spot-tickers.ts). They are polled for now;
 * when the `depth:<symbol>`, `trades:<symbol>`, `spot-ticker` and `spot-kline` channels of
 * `/ws` arrive, these hooks subscribe to them instead and the components stay as they are.
 */
/** Candles change slower than the book; the last one is asked for less often. */
const CANDLE_POLL_MS = 5000;
const BOOK_LEVELS = 20;
const TRADES = 30;
const CANDLES = 300;

const liveKey = [...spotQueryKey, 'live'] as const;

/** `GET /Market/depth`: the book, best prices first. */
export function useDepth(symbol: string) {
  return useQuery({
    queryKey: [...liveKey, 'depth', symbol],
    queryFn: async ({ signal }) =>
      (await get<DepthSnapshot>('/Market/depth', { symbol, levels: BOOK_LEVELS }, { signal, silent: true }))
        .data,
    enabled: symbol !== '',
    refetchInterval: LIVE_POLL_MS,
    staleTime: 0,
  });
}

/** `GET /Market/trades`: the market's latest trades, newest first. */
export function useRecentTrades(symbol: string) {
  return useQuery({
    queryKey: [...liveKey, 'trades', symbol],
    queryFn: async ({ signal }) =>
      (await get<PublicTrade[]>('/Market/trades', { symbol, limit: TRADES }, { signal, silent: true })).data,
    enabled: symbol !== '',
    refetchInterval: LIVE_POLL_MS,
    staleTime: 0,
  });
}

/** `GET /Market/candles`: candles of the market's trades, oldest first. */
export function useCandles(symbol: string, interval: TradeKlineInterval) {
  return useQuery({
    queryKey: [...liveKey, 'candles', symbol, interval],
    queryFn: async ({ signal }) =>
      (
        await get<TradeCandle[]>(
          '/Market/candles',
          { symbol, interval, limit: CANDLES },
          { signal, silent: true },
        )
      ).data,
    enabled: symbol !== '',
    refetchInterval: CANDLE_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}
