import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type {
  CoinBalance,
  DepthSnapshot,
  PublicTrade,
  SpotMarket,
  SpotOrder,
  SpotOrderDetail,
  SpotTicker,
  TradeCandle,
  TradeKlineInterval,
} from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Db } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import { MarketOwnership } from '../../platform/market-ownership.ts';
import { addPrunes, type PruneResult, pruneInSlices, type SliceOptions } from '../../platform/prune.ts';
import type { SpotOrderStatusValue } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { INTERVAL_MS, SpotCandles } from './candles.ts';
import type { SpotDeps } from './deps.ts';
import { hasExactUnits, percentOf, toSpotMarket, toSpotOrder } from './market.ts';
import { type PlaceInput, prepareOrder } from './order-entry.ts';
import { type OwnerOp, SpotMarkets } from './owned-markets.ts';
import * as repo from './repository.ts';
import type { BookDepth, ConfigureRequest, EngineOrder, MarketSequencer, NewOrder } from './sequencer.ts';

/** Name of the module's source of open reservations in the ledger's invariant check. */
export const RESERVATIONS = 'spot.orders';

/** How long a market row read for another node's market is used before it is read again. */
const MARKET_ROW_TTL_MS = 1000;
const OPEN_ORDERS_LIMIT = 500;
const DAY_MS = 24 * 60 * 60_000;
/** The job that keeps the markets' candles (one node, a database lease). */
export const CANDLES_JOB = 'spot.candles';
const CANDLES_EVERY_MS = 1000;
/** At most this many slices of each market a run (a store upgraded with a year of trades catches up over several runs). */
const CANDLE_SLICES_PER_RUN = 50;

/** A spot market as staff configure it (atoms and basis points). */
export interface SpotMarketSettings {
  symbol: string;
  base: string;
  quote: string;
  tickSize: bigint;
  lotSize: bigint;
  minNotional: bigint;
  makerFeeBps: bigint;
  takerFeeBps: bigint;
  bandBps: bigint;
  priceDecimals: number;
  qtyDecimals: number;
  status: 'open' | 'halted';
}

export type { SpotDeps } from './deps.ts';
export type { PlaceInput } from './order-entry.ts';

/** What `place` can answer besides the codes every route can. */
export const PLACE_ERRORS = [
  'PLATFORM_HALTED',
  'PLEASE_LOGIN',
  'TRADING_BANNED',
  'REALNAME_REQUIRED',
  'TERMS_NOT_ACCEPTED',
  'MARKET_NOT_OPEN',
  'PRICE_INVALID',
  'QTY_INVALID',
  'AMOUNT_INVALID',
  'NOTIONAL_TOO_SMALL',
  'PRICE_OUT_OF_BAND',
  'BALANCE_INSUFFICIENT',
  'IDEMPOTENCY_KEY_REUSED',
  'TRIGGER_PRICE_INVALID',
  'TRIGGER_WOULD_FIRE',
  'ILLEGAL_OPERATION',
  'MARKET_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** What `cancel` can answer besides the codes every route can. */
export const CANCEL_ERRORS = [
  'ORDER_NOT_FOUND',
  'ORDER_ALREADY_REVOKED',
  'CANCEL_FAILED',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'MARKET_NOT_OPEN',
  'MARKET_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** What `cancelAll` can answer besides the codes every route can. */
export const CANCEL_ALL_ERRORS = [
  'MARKET_NOT_OPEN',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'MARKET_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** What `openOrders` can answer besides the codes every route can. */
export const OPEN_ORDERS_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/** What `orderHistory` can answer besides the codes every route can. */
export const ORDER_HISTORY_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/** What `orderDetail` can answer besides the codes every route can. */
export const ORDER_DETAIL_ERRORS = [
  'ORDER_NOT_FOUND',
  'MARKET_NOT_OPEN',
] as const satisfies readonly ResultKey[];

/** What `myTrades` can answer besides the codes every route can. */
export const MY_TRADES_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/** What `tickers` can answer besides the codes every route can. */
export const TICKERS_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/** What `depth` can answer besides the codes every route can. */
export const DEPTH_ERRORS = ['MARKET_NOT_OPEN', 'MARKET_UNAVAILABLE'] as const satisfies readonly ResultKey[];

/** What `recentTrades` can answer besides the codes every route can. */
export const RECENT_TRADES_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/** What `candles` can answer besides the codes every route can. */
export const CANDLES_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/**
 * Spot trading: markets, order entry through one sequencer per market, the customer's orders and
 * trades, and the public market data built from the book and the trades (owner of
 * `spot_markets`, `spot_orders`, `spot_trades`). Funds are held at acceptance and move only
 * through the ledger, in the transaction of the batch that explains them.
 */
export class SpotService {
  readonly #deps: SpotDeps;
  readonly #markets: SpotMarkets;
  readonly #ownership: MarketOwnership;
  readonly #candles: SpotCandles;
  /** Market rows of the markets another node owns, read at most once a second. */
  readonly #rows = new Map<string, { row: repo.SpotMarketRow; at: number }>();
  readonly #configurations = new Map<
    string,
    (symbol: string, args: never) => Omit<ConfigureRequest, 'kind'>
  >();

  constructor(deps: SpotDeps) {
    this.#deps = deps;
    this.#candles = new SpotCandles(deps);
    deps.ledger.addReservationSource(RESERVATIONS, async (db, users) =>
      (await repo.sumHeldByUser(db, users)).map((row) => ({
        userId: row.user_id,
        asset: row.asset,
        amount: BigInt(row.total),
      })),
    );
    const { node } = deps;
    const report = deps.onError ?? (() => {});
    this.#markets = new SpotMarkets({
      db: deps.db,
      sequencer: deps,
      bus: deps.bus,
      cluster: node.cluster,
      routeDeadlineMs: node.leaseMs + 2000,
      runHere: (sequencer, op) => this.#runHere(sequencer, op),
      onError: report,
    });
    this.#ownership = new MarketOwnership({
      db: deps.db,
      clock: deps.clock,
      nodeId: node.id,
      leaseMs: node.leaseMs,
      cluster: node.cluster,
      product: this.#markets,
      log: node.log ?? ((level, message, detail) => level === 'error' && report(detail?.err, message)),
    });
    this.#markets.attach(this.#ownership);
    this.defineConfiguration('status', (symbol, args: { status: 'open' | 'halted' }) => ({
      revokeAll: args.status === 'halted',
      write: async (trx) => {
        if (!(await repo.findMarket(trx, symbol))) throw new AppError('MARKET_NOT_OPEN');
        await repo.setMarketStatus(trx, symbol, args.status, toMillis(this.#deps.clock.now()));
        const after = await repo.findMarket(trx, symbol);
        if (!after) throw new Error(`spot market ${symbol} vanished`);
        return after;
      },
    }));
  }

  /**
   * Takes this node's markets (every market on one node; its share on several) and rebuilds their
   * books from the open orders (after the server listens; a request for one first takes it up).
   */
  async start(): Promise<void> {
    await this.#ownership.start();
  }

  /** Schedules the job that keeps the markets' candles (with the other periodic jobs). */
  startCandles(): void {
    this.#deps.scheduler.runEvery(CANDLES_JOB, CANDLES_EVERY_MS, () => this.foldCandles(), { lease: true });
  }

  /** Folds every market's new trades into its stored candles (the job; tests call it). */
  async foldCandles(): Promise<number> {
    let folded = 0;
    for (const market of await repo.listMarkets(this.#deps.db)) {
      folded += await this.#candles.foldAll(market.symbol, CANDLE_SLICES_PER_RUN);
    }
    return folded;
  }

  /**
   * Lets every market's queued commands commit, then hands the markets back, so another node
   * takes them at once instead of after the lease.
   */
  async stop(): Promise<void> {
    await this.#ownership.stop();
  }

  /** Who owns each market, by lease (the back office shows it). */
  owners(): ReturnType<MarketOwnership['leases']> {
    return this.#ownership.leases();
  }

  // --- orders -----------------------------------------------------------------------------------

  /**
   * Places an order. Refused (changing nothing) when the market is not open, trading is banned,
   * the price or quantity is off the market's grid or out of range, the order is below the
   * minimum notional, a limit price is outside the band around the index, or the funds are not
   * there. A trigger order is refused when its trigger price is off the grid or the last price
   * (the index before the market's first trade) has already reached it; it is held like the order
   * it becomes, waits, and is checked against the band when it fires. The same idempotency key
   * answers the first order again.
   */
  async place(auth: AuthContext, input: PlaceInput): Promise<SpotOrder> {
    await this.#deps.platformHalt.requireRunning();
    const userId = auth.userId;
    await this.#deps.identityGate.requireForTrading(userId);
    // why: the market maker's and demo traders' orders (no session) are the operator's own
    // accounts, under no customer's terms.
    if (auth.sessionId !== 0n) await this.#deps.termsGate.requireAccepted(userId);
    await this.#marketRow(input.symbol);
    return this.#markets.send<SpotOrder>(input.symbol, { op: 'place', userId, input });
  }

  /** Cancels one of the caller's open orders; someone else's answers ORDER_NOT_FOUND. */
  async cancel(userId: bigint, id: bigint): Promise<SpotOrder> {
    // why: an order open on a market this node owns is in its book: no read needed.
    for (const sequencer of this.#markets.sequencers()) {
      const live = sequencer.liveOrder(id);
      if (!live) continue;
      if (live.user_id !== userId) break;
      return this.#markets.send<SpotOrder>(sequencer.symbol, { op: 'cancel', userId, orderId: id });
    }
    const row = await this.#ownOrder(userId, id);
    if (row.status === 'revoked') throw new AppError('ORDER_ALREADY_REVOKED');
    if (row.status === 'completed') throw new AppError('CANCEL_FAILED');
    return this.#markets.send<SpotOrder>(row.symbol, { op: 'cancel', userId, orderId: id });
  }

  /** Runs a request on the sequencer of a market this node owns (asked here or by another node). */
  async #runHere(sequencer: MarketSequencer, op: OwnerOp): Promise<unknown> {
    if (op.op === 'place') return this.#placeHere(sequencer, op.userId, op.input);
    if (op.op === 'cancel') return this.#cancelHere(sequencer, op.userId, op.orderId);
    if (op.op === 'cancelMany') {
      const outcomes = await Promise.all(
        op.orderIds.map((orderId) => sequencer.submit({ kind: 'cancel', orderId, userId: op.userId })),
      );
      return outcomes.filter((result) => 'order' in result).length;
    }
    if (op.op === 'depth') return sequencer.depth(op.levels);
    if (op.op === 'configure') {
      const build = this.#configurations.get(op.name);
      if (!build) throw new Error(`no spot configuration ${op.name}`);
      const result = await sequencer.submit({
        kind: 'configure',
        ...build(sequencer.symbol, op.args as never),
      });
      if (!('market' in result)) throw new Error('a configuration without its market');
      return result;
    }
    throw new Error('unknown spot request');
  }

  async #placeHere(sequencer: MarketSequencer, userId: bigint, input: PlaceInput): Promise<SpotOrder> {
    const market = sequencer.market;
    let prepared: { order: NewOrder; engine: EngineOrder };
    try {
      prepared = prepareOrder(this.#deps.index, market, userId, input);
    } catch (error) {
      // why: a retry whose first attempt was accepted answers that order, even if the price has
      // since left the band; only a refusal pays for this read.
      const previous = await repo.findOrderByKey(this.#deps.db, userId, input.idempotencyKey);
      if (previous) return this.#sameOrder(previous, input);
      throw error;
    }
    // why: who may trade, the key and the funds are checked in the sequencer's batch, one read
    // for all of the batch's places, in the transaction that writes them.
    const result = await sequencer.submit({ kind: 'place', ...prepared });
    if ('order' in result) return toSpotOrder(result.order, market);
    const first = await repo.findOrderByKey(this.#deps.db, userId, input.idempotencyKey);
    if (!first) throw new Error('an idempotency key collided without its order');
    return this.#sameOrder(first, input);
  }

  async #cancelHere(sequencer: MarketSequencer, userId: bigint, id: bigint): Promise<SpotOrder> {
    const result = await sequencer.submit({ kind: 'cancel', orderId: id, userId });
    if ('order' in result) return toSpotOrder(result.order, sequencer.market);
    // why: not open: someone else's, or it ended before the cancel reached the book (filled, or
    // cancelled by another request).
    const now = await this.#ownOrder(userId, id);
    if (now.status === 'completed') throw new AppError('CANCEL_FAILED');
    if (now.status === 'revoked') throw new AppError('ORDER_ALREADY_REVOKED');
    // why: open in the store yet not in the owner's book: it ended nowhere, so say it was not
    // cancelled rather than claim it was.
    throw new AppError('CANCEL_FAILED');
  }

  /**
   * Deletes the given accounts' orders revoked without a fill before `before`, in bounded slices
   * that yield between them; answers how many and in how many slices. For the platform's own
   * bots, whose quotes are replaced many times a minute: customers keep their whole order history.
   */
  async pruneRevokedUnfilled(
    userIds: readonly bigint[],
    before: number,
    slices: SliceOptions,
  ): Promise<PruneResult> {
    const cutoff = toMillis(before);
    const results: PruneResult[] = [];
    // why: one account at a time, so each slice is a range of the partial index in its order.
    for (const userId of userIds) {
      results.push(
        await pruneInSlices(
          (limit) => repo.deleteRevokedUnfilled(this.#deps.db, userId, cutoff, limit),
          slices,
        ),
      );
    }
    return addPrunes(...results);
  }

  /** Cancels every open order of the caller (on one market or all); answers how many it cancelled. */
  async cancelAll(userId: bigint, symbol?: string): Promise<{ cancelled: number }> {
    const rows = await repo.listUserOrders(this.#deps.db, {
      userId,
      symbol,
      statuses: ['entrusted'],
      limit: 10_000,
      offset: 0,
    });
    const bySymbol = new Map<string, bigint[]>();
    for (const row of rows) bySymbol.set(row.symbol, [...(bySymbol.get(row.symbol) ?? []), row.id]);
    // why: each market's orders go to that market's owner, whichever node it is.
    const counts = await Promise.all(
      [...bySymbol].map(([market, orderIds]) =>
        this.#markets.send<number>(market, { op: 'cancelMany', userId, orderIds }),
      ),
    );
    return { cancelled: counts.reduce((a, b) => a + b, 0) };
  }

  async openOrders(userId: bigint, symbol?: string): Promise<SpotOrder[]> {
    const rows = await repo.listUserOrders(this.#deps.db, {
      userId,
      symbol,
      statuses: ['entrusted'],
      limit: OPEN_ORDERS_LIMIT,
      offset: 0,
    });
    return this.#toOrders(rows);
  }

  async orderHistory(
    userId: bigint,
    query: { symbol?: string; status?: SpotOrderStatusValue } & HistoryPage,
  ): Promise<{ list: SpotOrder[]; page: number; has_more: boolean }> {
    const rows = await repo.listUserOrders(this.#deps.db, {
      userId,
      symbol: query.symbol,
      statuses: query.status ? [query.status] : undefined,
      ...historyWindow(query),
    });
    const answer = historyAnswer(rows, query, (row) => row);
    return { ...answer, list: await this.#toOrders(answer.list) };
  }

  async orderDetail(userId: bigint, id: bigint): Promise<SpotOrderDetail> {
    const row = await this.#ownOrder(userId, id);
    const market = await this.#marketRow(row.symbol);
    const trades = await repo.listOrderTrades(this.#deps.db, id);
    return {
      ...toSpotOrder(row, market),
      fills: trades.map((trade) => {
        const maker = trade.maker_order_id === id;
        return {
          id: String(trade.id),
          price: fromAtoms(trade.price),
          qty: fromAtoms(trade.qty),
          turnover: fromAtoms(trade.quote),
          fee: fromAtoms(maker ? trade.maker_fee : trade.taker_fee),
          fee_coin: row.side === 'buy' ? market.base : market.quote,
          role: maker ? ('maker' as const) : ('taker' as const),
          at: fromMillis(trade.at),
        };
      }),
    };
  }

  async myTrades(userId: bigint, query: { symbol?: string } & HistoryPage) {
    const rows = await repo.listUserTrades(this.#deps.db, {
      userId,
      symbol: query.symbol,
      ...historyWindow(query),
    });
    const answer = historyAnswer(rows, query, (row) => row);
    const list = [];
    for (const trade of answer.list) {
      const market = await this.#marketRow(trade.symbol);
      // why: a user never trades with themself (self-trade prevention), so one role is theirs.
      const maker = trade.maker_user_id === userId;
      const side = maker ? (trade.taker_side === 'buy' ? 'sell' : 'buy') : trade.taker_side;
      list.push({
        id: String(trade.id),
        order_id: String(maker ? trade.maker_order_id : trade.taker_order_id),
        symbol: trade.symbol,
        side,
        price: fromAtoms(trade.price),
        qty: fromAtoms(trade.qty),
        turnover: fromAtoms(trade.quote),
        fee: fromAtoms(maker ? trade.maker_fee : trade.taker_fee),
        fee_coin: side === 'buy' ? market.base : market.quote,
        role: maker ? ('maker' as const) : ('taker' as const),
        at: fromMillis(trade.at),
      });
    }
    return { ...answer, list };
  }

  // --- market data ------------------------------------------------------------------------------

  /** Every market; `db` is the caller's transaction when it reads inside one. */
  async markets(db: Db = this.#deps.db): Promise<SpotMarket[]> {
    return (await repo.listMarkets(db)).map(toSpotMarket);
  }

  /** 24-hour statistics from each market's own trades, with the index beside them. */
  async tickers(): Promise<SpotTicker[]> {
    const tickers: SpotTicker[] = [];
    for (const market of await repo.listMarkets(this.#deps.db))
      tickers.push(await this.ticker(market.symbol));
    return tickers;
  }

  /** The index of `symbol` this node last saw, as on a ticker; null before the first tick. */
  indexPrice(symbol: string): string | null {
    const latest = this.#deps.index.latestIndex(symbol);
    return latest ? fromAtoms(latest.price) : null;
  }

  /** One market's 24-hour statistics (see `tickers`). */
  async ticker(symbol: string): Promise<SpotTicker> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    const market = await this.#marketRow(symbol);
    const day = await this.#candles.summarySince(market.symbol, toMillis(now - DAY_MS));
    const last = (await repo.findLastTrade(db, market.symbol))?.price ?? null;
    const { open, high, low, volume, turnover } = day;
    return {
      symbol: market.symbol,
      last: last === null ? null : fromAtoms(last),
      open_24h: open === null ? null : fromAtoms(open),
      high_24h: high === null ? null : fromAtoms(high),
      low_24h: low === null ? null : fromAtoms(low),
      change_24h: changePercent(open, last),
      volume_24h: fromAtoms(volume),
      turnover_24h: fromAtoms(turnover),
      index: this.indexPrice(market.symbol),
      ts: now,
    };
  }

  async depth(symbol: string, levels: number): Promise<DepthSnapshot> {
    await this.#marketRow(symbol);
    const depth = await this.#markets.send<BookDepth>(symbol, { op: 'depth', levels });
    const level = ([price, qty]: [bigint, bigint]): [string, string] => [fromAtoms(price), fromAtoms(qty)];
    return {
      symbol,
      seq: Number(depth.seq),
      bids: depth.bids.map(level),
      asks: depth.asks.map(level),
    };
  }

  /**
   * Every level of the book in atoms, best first, with the sequence and the owner's epoch it was
   * taken at (`/ws` depth), from the market's owner.
   */
  async bookLevels(symbol: string, deadlineMs?: number): Promise<BookDepth> {
    await this.#marketRow(symbol);
    return this.#markets.send<BookDepth>(
      symbol,
      { op: 'depth', levels: Number.MAX_SAFE_INTEGER },
      deadlineMs,
    );
  }

  /** The user's coins (`coins`, or every coin held), available and frozen (`/ws` balances). */
  async balances(userId: bigint, coins?: string[]): Promise<CoinBalance[]> {
    const rows = await this.#deps.ledger.userBalances(this.#deps.db, userId);
    const byCoin = new Map<string, { available: bigint; frozen: bigint }>();
    for (const coin of coins ?? []) byCoin.set(coin, { available: 0n, frozen: 0n });
    for (const row of rows) {
      if (row.kind !== 'available' && row.kind !== 'frozen') continue;
      if (coins && !coins.includes(row.asset)) continue;
      const balance = byCoin.get(row.asset) ?? { available: 0n, frozen: 0n };
      balance[row.kind] = row.balance;
      byCoin.set(row.asset, balance);
    }
    return [...byCoin].map(([coin, b]) => ({
      coin,
      available: fromAtoms(b.available),
      frozen: fromAtoms(b.frozen),
    }));
  }

  /** Orders by id as the customer sees them, in the order asked (`/ws` orders pushes). */
  async ordersByIds(ids: bigint[]): Promise<(SpotOrder & { userId: bigint })[]> {
    const rows = await repo.findOrders(this.#deps.db, ids);
    const list: (SpotOrder & { userId: bigint })[] = [];
    for (const row of rows)
      list.push({ ...toSpotOrder(row, await this.#marketRow(row.symbol)), userId: row.user_id });
    return list;
  }

  async recentTrades(symbol: string, limit: number): Promise<PublicTrade[]> {
    await this.#marketRow(symbol);
    const rows = await repo.listRecentTrades(this.#deps.db, symbol, limit);
    return rows.map((trade) => ({
      id: String(trade.id),
      price: fromAtoms(trade.price),
      qty: fromAtoms(trade.qty),
      side: trade.taker_side,
      at: fromMillis(trade.at),
    }));
  }

  /** Candles of the market's trades, oldest first, ending before `before` (default: now, included). */
  async candles(query: {
    symbol: string;
    interval: TradeKlineInterval;
    before?: number;
    limit: number;
  }): Promise<TradeCandle[]> {
    await this.#marketRow(query.symbol);
    const before = query.before ?? this.#deps.clock.now() + 1;
    const rows = await this.#candles.candles(
      query.symbol,
      BigInt(INTERVAL_MS[query.interval]),
      toMillis(before),
      query.limit,
    );
    return rows.reverse().map((c) => ({
      t: fromMillis(c.t),
      o: fromAtoms(c.o),
      h: fromAtoms(c.h),
      l: fromAtoms(c.l),
      c: fromAtoms(c.c),
      v: fromAtoms(c.v),
      q: fromAtoms(c.q),
    }));
  }

  // --- configuration ----------------------------------------------------------------------------

  /** Adds the markets that are missing (the demo seed); existing ones stay as they are. */
  async addMissingMarkets(trx: Db, markets: readonly SpotMarketSettings[]): Promise<void> {
    const now = toMillis(this.#deps.clock.now());
    for (const m of markets) {
      const row = {
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        tick_size: m.tickSize,
        lot_size: m.lotSize,
        min_notional: m.minNotional,
        maker_fee_bps: m.makerFeeBps,
        taker_fee_bps: m.takerFeeBps,
        band_bps: m.bandBps,
        price_decimals: BigInt(m.priceDecimals),
        qty_decimals: BigInt(m.qtyDecimals),
        status: m.status,
        updated_at: now,
      };
      if (!hasExactUnits(row)) throw new Error(`${m.symbol}: tick × lot must be a whole number of atoms`);
      await repo.insertMissingMarket(trx, row);
    }
  }

  /**
   * Opens or halts a market: a halted market refuses new orders, and halting revokes every open
   * order (reason `halt`), returning what they held. Answers the market as it now is and how
   * many orders were revoked. (Staff go through their own audited configuration.)
   */
  setMarketStatus(
    symbol: string,
    status: 'open' | 'halted',
  ): Promise<{ market: repo.SpotMarketRow; revoked: number }> {
    return this.configure(symbol, 'status', { status });
  }

  /**
   * Names a change of a market's settings that its owner can make from plain arguments: `build`
   * answers what to write (and whether to revoke every open order). Every node defines the same
   * names, so whichever node owns the market can run a change asked on any node.
   */
  defineConfiguration<A>(
    name: string,
    build: (symbol: string, args: A) => Omit<ConfigureRequest, 'kind'>,
  ): void {
    this.#configurations.set(name, build as (symbol: string, args: never) => Omit<ConfigureRequest, 'kind'>);
  }

  /**
   * Changes a market's settings through its sequencer, on its owner, after the commands queued
   * before it: the configuration's `write` stores them (with their audit record) in the
   * transaction of that batch, so no order is matched half under the old settings and half under
   * the new.
   */
  async configure<A>(
    symbol: string,
    name: string,
    args: A,
  ): Promise<{ market: repo.SpotMarketRow; revoked: number }> {
    if (!this.#configurations.has(name)) throw new Error(`no spot configuration ${name}`);
    await this.#marketRow(symbol);
    const result = await this.#markets.send<{ market: repo.SpotMarketRow; revoked: number }>(symbol, {
      op: 'configure',
      name,
      args,
    });
    this.#rows.delete(symbol);
    return result;
  }

  // --- helpers ----------------------------------------------------------------------------------

  /** A market's settings: the owner's own row, or the stored one (read at most once a second). */
  async #marketRow(symbol: string): Promise<repo.SpotMarketRow> {
    const owned = this.#markets.local(symbol);
    if (owned) return owned.market;
    const now = Date.now();
    const cached = this.#rows.get(symbol);
    if (cached && now - cached.at < MARKET_ROW_TTL_MS) return cached.row;
    const row = await repo.findMarket(this.#deps.db, symbol);
    if (!row) throw new AppError('MARKET_NOT_OPEN');
    this.#rows.set(symbol, { row, at: now });
    return row;
  }

  async #ownOrder(userId: bigint, id: bigint): Promise<repo.OrderRow> {
    const row = await repo.findOrder(this.#deps.db, id);
    if (!row || row.user_id !== userId) throw new AppError('ORDER_NOT_FOUND');
    return row;
  }

  async #toOrders(rows: repo.OrderRow[]): Promise<SpotOrder[]> {
    const list: SpotOrder[] = [];
    for (const row of rows) list.push(toSpotOrder(row, await this.#marketRow(row.symbol)));
    return list;
  }

  #sameOrder(row: repo.OrderRow, input: PlaceInput): Promise<SpotOrder> | SpotOrder {
    const isLimit = input.type === 'limit' || input.type === 'stop_limit';
    const byAmount = !isLimit && input.side === 'buy';
    const same =
      row.symbol === input.symbol &&
      row.side === input.side &&
      row.type === input.type &&
      (!isLimit || row.tif === input.tif) &&
      (row.price ?? undefined) === (isLimit ? input.price : undefined) &&
      (row.qty ?? undefined) === (byAmount ? undefined : input.qty) &&
      (row.quote_amount ?? undefined) === (byAmount ? input.quoteAmount : undefined) &&
      (row.trigger_price ?? undefined) === (row.trigger_condition === null ? undefined : input.triggerPrice);
    if (!same) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return this.#marketRow(row.symbol).then((market) => toSpotOrder(row, market));
  }
}

/** The 24-hour change in percent with two decimals, truncated toward zero. */
function changePercent(open: bigint | null, last: bigint | null): string {
  if (open === null || last === null || open === 0n) return '0.00';
  const diff = last - open;
  const text = percentOf(diff < 0n ? -diff : diff, open);
  return diff < 0n && text !== '0.00' ? `-${text}` : text;
}
