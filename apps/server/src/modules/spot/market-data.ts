import { fromAtoms, toAtoms } from '@bourse/shared';
import {
  DEPTH_MAX_LEVELS,
  type DepthDelta,
  type DepthSnapshot,
  type PublicTrade,
  type SpotTicker,
  TRADE_KLINE_INTERVALS,
  type TradeKlineInterval,
} from '@bourse/shared/api';
import type { Bus, Subscription } from '../../platform/bus.ts';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import { INTERVAL_MS } from './candles.ts';
import { quoteOf } from './market.ts';
import { BATCH_SUBJECT_PREFIX, type SpotBatchEvent } from './sequencer.ts';
import type { SpotService } from './service.ts';

export const depthChannel = (symbol: string) => `depth:${symbol}`;
export const tradesChannel = (symbol: string) => `trades:${symbol}`;
export const spotKlineChannel = (symbol: string, interval: string) => `spot-kline:${symbol}:${interval}`;
export const SPOT_TICKER_CHANNEL = 'spot-ticker';
export const ORDERS_CHANNEL = 'orders';
export const BALANCES_CHANNEL = 'balances';

/** Trades a `trades:<symbol>` subscriber gets first. */
const RECENT_TRADES = 50;
/**
 * Tickers are recomputed from the store at most this often, for the markets that traded, and
 * pushed as often for the markets whose index moved.
 */
const TICKER_EVERY_MS = 1000;

interface Book {
  seq: bigint;
  /** The owner's epoch the book follows; -1 while it could not be loaded yet. */
  epoch: bigint;
  bids: Map<bigint, bigint>;
  asks: Map<bigint, bigint>;
}

interface Candle {
  t: number;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
  v: bigint;
  q: bigint;
}

interface MarketState {
  coins: string[];
  book: Book;
  trades: PublicTrade[];
  candles: Map<TradeKlineInterval, Candle | undefined>;
}

export interface SpotMarketData {
  stop(): Promise<void>;
}

/**
 * The spot channels of `/ws`, fed by `spot.batch.<symbol>` on the bus, so every node pushes what
 * the sequencer's node committed: `depth:<symbol>` (snapshot, then one delta per batch chained
 * by `prev_seq`), `trades:<symbol>`, `spot-kline:<symbol>:<interval>`, `spot-ticker` (with the
 * index this node sees), and the private `orders` and `balances`. Each node keeps the book, the
 * latest trades and the current candles in memory from the events, so a snapshot is always at
 * the sequence the next delta follows from. Markets are those present at start.
 */
export async function startSpotMarketData(deps: {
  service: SpotService;
  bus: Bus;
  gateway: WsGateway;
  onError: (error: unknown, what: string) => void;
}): Promise<SpotMarketData> {
  const { service, bus, gateway, onError } = deps;
  const subscriptions: Subscription[] = [];
  let tickers: SpotTicker[] = await service.tickers();
  const tradedSince = new Set<string>();
  // why: private pushes read the store; one chain keeps them in batch order.
  let pushes: Promise<void> = Promise.resolve();

  const states: { symbol: string; state: MarketState }[] = [];
  for (const market of await service.markets()) {
    const { symbol } = market;
    const candles = new Map<TradeKlineInterval, Candle | undefined>();
    for (const interval of TRADE_KLINE_INTERVALS) {
      const [last] = await service.candles({ symbol, interval, limit: 1 });
      candles.set(interval, last && candleOf(last));
    }
    const state: MarketState = {
      coins: [market.base, market.quote],
      book: UNKNOWN_BOOK(),
      trades: await service.recentTrades(symbol, RECENT_TRADES),
      candles,
    };
    gateway.addChannel(depthChannel(symbol), { snapshot: () => depthSnapshot(symbol, state.book) });
    gateway.addChannel(tradesChannel(symbol), { snapshot: () => ({ symbol, trades: state.trades }) });
    for (const interval of TRADE_KLINE_INTERVALS) {
      gateway.addChannel(spotKlineChannel(symbol, interval), {
        snapshot: () => {
          const candle = state.candles.get(interval);
          return candle ? { symbol, interval, candle: candleWire(candle) } : null;
        },
      });
    }
    subscriptions.push(
      await bus.subscribe<SpotBatchEvent>(`${BATCH_SUBJECT_PREFIX}${symbol}`, async (event) => {
        await onBatch(state, event.data);
      }),
    );
    states.push({ symbol, state });
  }
  // why: the books come from their owners, which on several nodes may still be starting; a book
  // that could not be loaded now is loaded at its market's next batch, or by the timer below.
  await Promise.all(states.map(({ symbol, state }) => reload(symbol, state, FIRST_LOAD_MS)));
  const reloadTimer = setInterval(() => {
    for (const { symbol, state } of states) {
      if (state.book.epoch < 0n) void reload(symbol, state, FIRST_LOAD_MS);
    }
  }, RELOAD_EVERY_MS);
  reloadTimer.unref();

  /** Loads the book from its owner; keeps an unknown one when the owner does not answer in time. */
  async function reload(symbol: string, state: MarketState, deadlineMs?: number): Promise<void> {
    try {
      state.book = await loadBook(service, symbol, deadlineMs);
    } catch (error) {
      state.book = UNKNOWN_BOOK();
      if (deadlineMs === undefined) onError(error, `load ${symbol} book`);
    }
  }
  /** `ticker` with the index this node sees now (the same object when it has not moved). */
  const withCurrentIndex = (ticker: SpotTicker): SpotTicker => {
    const index = service.indexPrice(ticker.symbol);
    return index === ticker.index ? ticker : { ...ticker, index };
  };
  // why: a subscriber starts from the index the REST tickers show, not the one of the last push;
  // the cache keeps the pushed one, so the timer still pushes the move to earlier subscribers.
  gateway.addChannel(SPOT_TICKER_CHANNEL, { snapshot: () => tickers.map(withCurrentIndex) });
  gateway.addPrivateChannel(ORDERS_CHANNEL, { snapshot: (userId) => service.openOrders(userId) });
  gateway.addPrivateChannel(BALANCES_CHANNEL, { snapshot: (userId) => service.balances(userId) });

  const tickerTimer = setInterval(() => {
    const symbols = [...tradedSince];
    tradedSince.clear();
    refreshTickers(symbols).catch((error) => onError(error, SPOT_TICKER_CHANNEL));
  }, TICKER_EVERY_MS);
  tickerTimer.unref();

  /**
   * Sets each cached ticker's index to the one this node sees now and answers the symbols whose
   * index moved since the last push. In memory only: the index feed, not the store, moves it.
   */
  function takeIndexMoves(): Set<string> {
    const moved = new Set<string>();
    tickers = tickers.map((ticker) => {
      const current = withCurrentIndex(ticker);
      if (current !== ticker) moved.add(ticker.symbol);
      return current;
    });
    return moved;
  }

  /** Pushes the markets that traded (read again from the store) and those whose index moved. */
  async function refreshTickers(traded: string[]): Promise<void> {
    const fresh = await Promise.all(traded.map((symbol) => service.ticker(symbol)));
    const bySymbol = new Map(fresh.map((ticker) => [ticker.symbol, ticker]));
    tickers = tickers.map((ticker) => bySymbol.get(ticker.symbol) ?? ticker);
    const moved = takeIndexMoves();
    const changed = tickers.filter((ticker) => bySymbol.has(ticker.symbol) || moved.has(ticker.symbol));
    if (changed.length > 0) gateway.broadcast(SPOT_TICKER_CHANNEL, changed);
  }

  async function onBatch(state: MarketState, batch: SpotBatchEvent): Promise<void> {
    const { symbol } = batch;
    const prevSeq = BigInt(batch.prevSeq);
    const seq = BigInt(batch.seq);
    const { book } = state;
    const sameOwner = BigInt(batch.epoch) === book.epoch;
    if (sameOwner && seq <= book.seq) return;
    if (!sameOwner || prevSeq !== book.seq) {
      // why: an event went missing (a bus outage), or a new owner took the market: start over
      // from the owner's book, never from a stale one. Clients see the next delta's prev_seq
      // skip theirs and resubscribe.
      await reload(symbol, state);
    } else {
      gateway.broadcast(depthChannel(symbol), applyDelta(book, batch));
    }
    if (batch.trades.length > 0) {
      const trades = batch.trades
        .map((t) => ({
          id: t.id,
          price: fromAtoms(BigInt(t.price)),
          qty: fromAtoms(BigInt(t.qty)),
          side: t.side,
          at: t.at,
        }))
        .reverse();
      state.trades = [...trades, ...state.trades].slice(0, RECENT_TRADES);
      gateway.broadcast(tradesChannel(symbol), { symbol, trades });
      for (const interval of TRADE_KLINE_INTERVALS) {
        const candle = foldTrades(state.candles.get(interval), batch.trades, INTERVAL_MS[interval]);
        state.candles.set(interval, candle);
        gateway.broadcast(spotKlineChannel(symbol, interval), {
          symbol,
          interval,
          candle: candleWire(candle),
        });
      }
      tradedSince.add(symbol);
    }
    pushPrivate(state, batch);
  }

  /**
   * The batch's orders and the market's two coins, to their owners subscribed to `orders` and
   * `balances` on this node, read back after the commit.
   */
  function pushPrivate(state: MarketState, batch: SpotBatchEvent): void {
    const orderIds: bigint[] = [];
    const balanceUsers = new Set<bigint>();
    for (const order of batch.orders) {
      const userId = BigInt(order.userId);
      if (gateway.hasUserSubscriber(ORDERS_CHANNEL, userId)) orderIds.push(BigInt(order.id));
      if (gateway.hasUserSubscriber(BALANCES_CHANNEL, userId)) balanceUsers.add(userId);
    }
    if (orderIds.length === 0 && balanceUsers.size === 0) return;
    pushes = pushes
      .then(async () => {
        const byUser = new Map<bigint, unknown[]>();
        for (const { userId, ...order } of await service.ordersByIds(orderIds)) {
          const list = byUser.get(userId) ?? [];
          list.push(order);
          byUser.set(userId, list);
        }
        for (const [userId, orders] of byUser) gateway.sendToUser(ORDERS_CHANNEL, userId, orders);
        for (const userId of balanceUsers) {
          gateway.sendToUser(BALANCES_CHANNEL, userId, await service.balances(userId, state.coins));
        }
      })
      .catch((error) => onError(error, 'spot private pushes'));
  }

  return {
    async stop() {
      clearInterval(tickerTimer);
      clearInterval(reloadTimer);
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
      await pushes;
    },
  };
}

/** How long the first load of a book waits for its owner, and a retry of one that failed. */
const FIRST_LOAD_MS = 1500;
/** How often books that could not be loaded are tried again. */
const RELOAD_EVERY_MS = 2000;

const UNKNOWN_BOOK = (): Book => ({ seq: 0n, epoch: -1n, bids: new Map(), asks: new Map() });

async function loadBook(service: SpotService, symbol: string, deadlineMs?: number): Promise<Book> {
  const levels = await service.bookLevels(symbol, deadlineMs);
  return { seq: levels.seq, epoch: levels.epoch, bids: new Map(levels.bids), asks: new Map(levels.asks) };
}

/** Applies a batch's level changes to the book and answers them as one delta (last total per price). */
function applyDelta(book: Book, batch: SpotBatchEvent): DepthDelta {
  const side = (levels: Map<bigint, bigint>, changes: [string, string][]): [string, string][] => {
    const last = new Map<bigint, bigint>();
    for (const [price, qty] of changes) last.set(BigInt(price), BigInt(qty));
    const wire: [string, string][] = [];
    for (const [price, qty] of last) {
      if (qty === 0n) levels.delete(price);
      else levels.set(price, qty);
      wire.push([fromAtoms(price), fromAtoms(qty)]);
    }
    return wire;
  };
  const delta: DepthDelta = {
    symbol: batch.symbol,
    prev_seq: Number(book.seq),
    seq: Number(batch.seq),
    bids: side(book.bids, batch.bids),
    asks: side(book.asks, batch.asks),
    ts: batch.at,
  };
  book.seq = BigInt(batch.seq);
  return delta;
}

function depthSnapshot(symbol: string, book: Book): DepthSnapshot {
  const top = (levels: Map<bigint, bigint>, bestFirst: (a: bigint, b: bigint) => number) =>
    [...levels.keys()]
      .sort(bestFirst)
      .slice(0, DEPTH_MAX_LEVELS)
      .map((price): [string, string] => [fromAtoms(price), fromAtoms(levels.get(price)!)]);
  return {
    symbol,
    seq: Number(book.seq),
    bids: top(book.bids, (a, b) => (a > b ? -1 : a < b ? 1 : 0)),
    asks: top(book.asks, (a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

/** The current candle after a batch's trades: the same buckets as GET /Market/candles. */
function foldTrades(
  candle: Candle | undefined,
  trades: SpotBatchEvent['trades'],
  intervalMs: number,
): Candle {
  let current = candle;
  for (const trade of trades) {
    const price = BigInt(trade.price);
    const qty = BigInt(trade.qty);
    const t = trade.at - (trade.at % intervalMs);
    if (!current || t > current.t) {
      current = { t, o: price, h: price, l: price, c: price, v: 0n, q: 0n };
    }
    if (price > current.h) current.h = price;
    if (price < current.l) current.l = price;
    current.c = price;
    current.v += qty;
    current.q += quoteOf(price, qty);
  }
  return current!;
}

function candleOf(wire: {
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
  q: string;
}): Candle {
  return {
    t: wire.t,
    o: toAtoms(wire.o),
    h: toAtoms(wire.h),
    l: toAtoms(wire.l),
    c: toAtoms(wire.c),
    v: toAtoms(wire.v),
    q: toAtoms(wire.q),
  };
}

function candleWire(candle: Candle) {
  return {
    t: candle.t,
    o: fromAtoms(candle.o),
    h: fromAtoms(candle.h),
    l: fromAtoms(candle.l),
    c: fromAtoms(candle.c),
    v: fromAtoms(candle.v),
    q: fromAtoms(candle.q),
  };
}
