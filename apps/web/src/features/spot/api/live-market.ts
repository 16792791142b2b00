import type {
  DepthDelta,
  DepthSnapshot,
  PublicTrade,
  TradeCandle,
  TradeKlineInterval,
} from '@bourse/shared/api';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { LIVE_POLL_MS } from '../../../api/spot-tickers.ts';
import { useChannel, useRealtimeStatus } from '../../../api/ws.ts';
import { spotQueryKey } from './spot-query-key.ts';

/**
 * The live data of a spot market: book, trades and candles (the tickers are in
 * api/spot-tickers.ts). Each is loaded once over HTTP and then kept current by its `/ws` channel
 * (`depth:<symbol>`, `trades:<symbol>`, `spot-kline:<symbol>:<interval>`); only while the socket
 * is down do the hooks fall back to polling.
 */
const CANDLE_POLL_MS = 5000;
const BOOK_LEVELS = 20;
const TRADES = 30;
const CANDLES = 300;

const liveKey = [...spotQueryKey, 'live'] as const;

/** Polls only while `/ws` is not open. */
function usePollWhileOffline(ms: number): number | false {
  return useRealtimeStatus() === 'open' ? false : ms;
}

type Level = [string, string];

function applyLevels(
  levels: readonly Level[],
  changes: readonly Level[],
  bestFirst: (a: number, b: number) => number,
) {
  const book = new Map(levels.map(([price, qty]) => [price, qty]));
  for (const [price, qty] of changes) {
    if (/^0(\.0*)?$/.test(qty)) book.delete(price);
    else book.set(price, qty);
  }
  return [...book.entries()].sort((a, b) => bestFirst(Number(a[0]), Number(b[0])));
}

/**
 * The book, best prices first: the snapshot of `depth:<symbol>`, then its deltas applied in
 * sequence; a delta that does not follow the last sequence asks for a new snapshot.
 */
export function useDepth(symbol: string) {
  const client = useQueryClient();
  const key = [...liveKey, 'depth', symbol];
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await get('/Market/depth', { symbol, levels: BOOK_LEVELS }, 'DepthSnapshot', { signal, silent: true }))
        .data,
    enabled: symbol !== '',
    refetchInterval: usePollWhileOffline(LIVE_POLL_MS),
    staleTime: 0,
    // why: the channel's snapshot and deltas carry deeper levels than the page shows.
    select: (book) => ({
      ...book,
      bids: book.bids.slice(0, BOOK_LEVELS),
      asks: book.asks.slice(0, BOOK_LEVELS),
    }),
  });
  const channel = useChannel(
    `depth:${symbol}`,
    (data) => {
      const message = data as DepthSnapshot | DepthDelta;
      if (!('prev_seq' in message)) {
        client.setQueryData<DepthSnapshot>(key, message);
        return;
      }
      const current = client.getQueryData<DepthSnapshot>(key);
      if (!current || current.seq !== message.prev_seq) {
        // why: a missed delta would leave the book wrong; a new snapshot puts it right.
        if (!current || message.prev_seq > current.seq) channel.resubscribe();
        return;
      }
      client.setQueryData<DepthSnapshot>(key, {
        symbol,
        seq: message.seq,
        bids: applyLevels(current.bids as Level[], message.bids as Level[], (a, b) => b - a),
        asks: applyLevels(current.asks as Level[], message.asks as Level[], (a, b) => a - b),
      });
    },
    symbol !== '',
  );
  return query;
}

/** The market's latest trades, newest first: loaded once, then the pushes of `trades:<symbol>`. */
export function useRecentTrades(symbol: string) {
  const client = useQueryClient();
  const key = [...liveKey, 'trades', symbol];
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await get('/Market/trades', { symbol, limit: TRADES }, 'PublicTradeList', { signal, silent: true }))
        .data,
    enabled: symbol !== '',
    refetchInterval: usePollWhileOffline(LIVE_POLL_MS),
    staleTime: 0,
  });
  useChannel(
    `trades:${symbol}`,
    (data) => {
      const { trades } = data as { trades: PublicTrade[] };
      client.setQueryData<PublicTrade[]>(key, (old = []) => {
        const byId = new Map([...old, ...trades].map((trade) => [trade.id, trade]));
        return [...byId.values()].sort((a, b) => Number(BigInt(b.id) - BigInt(a.id))).slice(0, TRADES);
      });
    },
    symbol !== '',
  );
  return query;
}

/** Candles of the market's trades, oldest first; the current one follows `spot-kline:<symbol>:<interval>`. */
export function useCandles(symbol: string, interval: TradeKlineInterval) {
  const client = useQueryClient();
  const key = [...liveKey, 'candles', symbol, interval];
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (
        await get('/Market/candles', { symbol, interval, limit: CANDLES }, 'TradeCandleList', {
          signal,
          silent: true,
        })
      ).data,
    enabled: symbol !== '',
    refetchInterval: usePollWhileOffline(CANDLE_POLL_MS),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  useChannel(
    `spot-kline:${symbol}:${interval}`,
    (data) => {
      const candle = (data as { candle?: TradeCandle } | null)?.candle;
      if (!candle) return;
      client.setQueryData<TradeCandle[]>(key, (old) => {
        if (!old) return old;
        const last = old[old.length - 1];
        if (last && last.t === candle.t) return [...old.slice(0, -1), candle];
        if (last && candle.t < last.t) return old;
        return [...old, candle].slice(-CANDLES);
      });
    },
    symbol !== '',
  );
  return query;
}
