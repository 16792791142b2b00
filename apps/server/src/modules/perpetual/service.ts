import { randomUUID } from 'node:crypto';
import type { PlaceInput } from '@bourse/perp';
import { AppError, fromAtoms } from '@bourse/shared';
import type {
  PerpAccount,
  PerpDepth,
  PerpFundingPage,
  PerpFundingRatePage,
  PerpLiquidationPage,
  PerpMarket,
  PerpOrder,
  PerpOrderDetail,
  PerpOrderPage,
  PerpOrderStatus,
  PerpPublicTrade,
  PerpTicker,
  PerpTriggerRef,
} from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Bus, Subscription } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import { MarketOwnership } from '../../platform/market-ownership.ts';
import { addPrunes, type PruneResult, pruneInSlices, type SliceOptions } from '../../platform/prune.ts';
import type { Scheduler } from '../../platform/scheduler.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import type { LedgerService } from '../ledger/service.ts';
import { PerpBackOffice } from './back-office.ts';
import { closeFingerprint, type PerpCommand, type PerpPlaceRequest, placeFingerprint } from './commands.ts';
import { seedPerpDemo } from './demo.ts';
import { PERP_MAKER_USERNAME, PerpMaker } from './maker.ts';
import { PerpMarkets } from './owned-markets.ts';
import { PERP_TICKER_SUBJECT, PerpPricing } from './pricing.ts';
import { specOf } from './records.ts';
import * as repo from './repository.ts';
import type { PerpSequencerDeps } from './sequencer.ts';
import {
  fillView,
  fundingPaymentView,
  liquidationView,
  marketView,
  orderView,
  positionView,
} from './views.ts';

export interface PerpDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  index: {
    latestIndex(symbol: string): { price: bigint; at: number; source: string } | undefined;
    isIndexStale(symbol: string, now: number): boolean;
  };
  users: {
    tradingStatuses(db: Db, userIds: readonly bigint[]): Promise<Map<bigint, 'ok' | 'frozen' | 'banned'>>;
  };
  bus?: Bus;
  gateway?: WsGateway;
  identityGate: { requireForTrading(userId: bigint): Promise<void> };
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  platformHalt: { requireRunning(): Promise<void> };
  node: {
    id: string;
    leaseMs: number;
    cluster: boolean;
    log?: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
  };
  onError?: (error: unknown, what: string) => void;
  audit: PerpSequencerDeps['audit'];
  /** The demo's maker: its account is created and the bot runs from these. */
  demo: { users: ConstructorParameters<typeof PerpMaker>[0]['users']; scheduler: Scheduler };
}

const STATES_OF: Record<PerpOrderStatus, repo.OrderRow['state'][]> = {
  entrusted: ['untriggered', 'new', 'partial'],
  completed: ['filled'],
  revoked: ['cancelled', 'expired', 'rejected'],
};

/**
 * Perpetual contracts (perpetual.md): markets owned per node like spot's, each run by a
 * sequencer over the pure clearing of `@bourse/perp`; the owner's pricing loop brings the mark,
 * the premium samples and the funding events; everything else here reads the store.
 */
export class PerpService {
  readonly #deps: PerpDeps;
  readonly #markets: PerpMarkets;
  readonly #ownership: MarketOwnership;
  readonly #pricing: PerpPricing;
  readonly #tickers = new Map<string, PerpTicker>();
  readonly #subscriptions: Subscription[] = [];
  readonly #maker: PerpMaker;
  #backOffice: PerpBackOffice | undefined;

  constructor(deps: PerpDeps) {
    this.#deps = deps;
    const onError = deps.onError ?? (() => {});
    this.#pricing = new PerpPricing({
      db: deps.db,
      clock: deps.clock,
      bus: deps.bus,
      index: deps.index,
      onError,
      onTicker: (ticker) => this.#takeTicker(ticker),
    });
    this.#markets = new PerpMarkets({
      db: deps.db,
      bus: deps.bus,
      cluster: deps.node.cluster,
      routeDeadlineMs: deps.node.leaseMs + 2000,
      onError,
      sequencer: {
        db: deps.db,
        clock: deps.clock,
        ledger: deps.ledger,
        audit: deps.audit,
        bus: deps.bus,
        users: deps.users,
        onError,
      },
      onOwned: (symbol, sequencer) => {
        this.#pricing
          .own(symbol, sequencer)
          .catch((error) => onError(error, `perpetual pricing of ${symbol}`));
      },
    });
    this.#ownership = new MarketOwnership({
      db: deps.db,
      clock: deps.clock,
      nodeId: deps.node.id,
      leaseMs: deps.node.leaseMs,
      cluster: deps.node.cluster,
      product: this.#markets,
      log: deps.node.log ?? (() => {}),
    });
    this.#markets.attach(this.#ownership);
    this.#maker = new PerpMaker({
      db: deps.db,
      ledger: deps.ledger,
      users: deps.demo.users,
      perp: this,
      index: deps.index,
      clock: deps.clock,
      scheduler: deps.demo.scheduler,
      onError,
    });
    // why: the ledger checks that users' held and margin balances equal what the orders and
    // positions here say they are.
    deps.ledger.addReservationSource('perp_orders', async (db, users) => {
      const rows = await db
        .selectFrom('perp_orders')
        .innerJoin('perp_markets', 'perp_markets.symbol', 'perp_orders.symbol')
        .select(['perp_orders.user_id', 'perp_markets.quote', 'perp_orders.hold'])
        .where('perp_orders.state', 'in', repo.OPEN_STATES)
        .where('perp_orders.hold', '>', 0n)
        .where('perp_orders.user_id', '>', users.after)
        .where('perp_orders.user_id', '<=', users.through)
        .execute();
      return rows.map((r) => ({ userId: r.user_id, asset: r.quote, amount: r.hold }));
    });
    deps.ledger.addReservationSource(
      'perp_positions',
      async (db, users) => {
        const rows = await db
          .selectFrom('perp_positions')
          .innerJoin('perp_markets', 'perp_markets.symbol', 'perp_positions.symbol')
          .select(['perp_positions.user_id', 'perp_markets.quote', 'perp_positions.margin'])
          .where('perp_positions.margin', '>', 0n)
          .where('perp_positions.user_id', '>', users.after)
          .where('perp_positions.user_id', '<=', users.through)
          .execute();
        return rows.map((r) => ({ userId: r.user_id, asset: r.quote, amount: r.margin }));
      },
      'margin',
    );
  }

  /** Takes the markets (rebuilding each clearing), starts pricing them and the feeds. */
  async start(options: { pricing?: boolean } = {}): Promise<void> {
    await this.#ownership.start();
    const { bus, gateway } = this.#deps;
    for (const market of await repo.listMarkets(this.#deps.db)) {
      gateway?.addChannel(`perp:${market.symbol}`, {
        snapshot: () => this.#tickers.get(market.symbol) ?? null,
      });
      if (bus && this.#deps.node.cluster) {
        this.#subscriptions.push(
          await bus.subscribe<PerpTicker>(`${PERP_TICKER_SUBJECT}.${market.symbol}`, (event) =>
            this.#takeTicker(event.data, false),
          ),
        );
      }
    }
    if (options.pricing !== false) this.#pricing.start();
  }

  async stop(): Promise<void> {
    this.#pricing.stop();
    for (const s of this.#subscriptions.splice(0)) await s.unsubscribe();
    await this.#ownership.stop();
    for (const sequencer of this.#markets.sequencers()) await sequencer.idle();
  }

  /** Demo mode: the BTC and ETH markets with funded insurance funds and the maker's account, where missing. */
  seedDemo(): Promise<void> {
    return seedPerpDemo({
      db: this.#deps.db,
      clock: this.#deps.clock,
      ledger: this.#deps.ledger,
      maker: this.#maker,
    });
  }

  /**
   * Demo mode: the maker quotes every market each `intervalMs` (a scheduled job with a lease),
   * and withdraws its quotes while `idle` says nobody is there.
   */
  startMaker(intervalMs: number, idle?: { isIdle(): Promise<boolean> }): void {
    this.#maker.start(intervalMs, idle);
  }

  /**
   * Retention (a scheduled job): deletes, in bounded slices, the demo maker's orders that ended
   * without a fill before `makerOrdersBefore` (it replaces its ladder every few seconds), and the
   * minute premium samples before `premiumsBefore` (funding reads only its own interval's).
   * Customers' orders, trades, fundings and every other record are kept.
   */
  async prune(
    options: { makerOrdersBefore: number; premiumsBefore: number } & SliceOptions,
  ): Promise<PruneResult> {
    const { db } = this.#deps;
    const results: PruneResult[] = [];
    const maker = await this.#deps.demo.users.findLoginCandidate(PERP_MAKER_USERNAME);
    if (maker) {
      const before = toMillis(options.makerOrdersBefore);
      results.push(
        await pruneInSlices((limit) => repo.deleteUnfilledEndedOrders(db, maker.id, before, limit), options),
      );
    }
    const beforeMinute = BigInt(Math.floor(options.premiumsBefore / 60_000));
    for (const market of await repo.listMarkets(db)) {
      results.push(
        await pruneInSlices(
          (limit) => repo.deletePremiumsBefore(db, market.symbol, beforeMinute, limit),
          options,
        ),
      );
    }
    return addPrunes(...results);
  }

  /** The back office's side of the markets (created once). */
  get backOffice(): PerpBackOffice {
    this.#backOffice ??= new PerpBackOffice({
      db: this.#deps.db,
      clock: this.#deps.clock,
      ledger: this.#deps.ledger,
      perp: this,
    });
    return this.#backOffice;
  }

  /** The demo maker (tests run its rounds by hand). */
  get maker(): PerpMaker {
    return this.#maker;
  }

  /** The pricing loop (tests drive it tick by tick). */
  get pricing(): PerpPricing {
    return this.#pricing;
  }

  /** The sequencer of a market this node owns (tests, the back office's health). */
  local(symbol: string) {
    return this.#markets.local(symbol);
  }

  /** Sends a command to the market's owner. */
  send(symbol: string, command: PerpCommand) {
    return this.#markets.send(symbol, command);
  }

  owners(): ReturnType<MarketOwnership['leases']> {
    return this.#ownership.leases();
  }

  #takeTicker(ticker: PerpTicker, local = true): void {
    this.#tickers.set(ticker.symbol, ticker);
    // why: on several nodes every node pushes the ticker it hears on the bus, the owner's included.
    if (!local || !this.#deps.node.cluster || !this.#deps.bus)
      this.#deps.gateway?.broadcast(`perp:${ticker.symbol}`, ticker);
  }

  // --- market data ------------------------------------------------------------------------------

  async markets(): Promise<PerpMarket[]> {
    const rows = await repo.listMarkets(this.#deps.db);
    return rows.map((m) =>
      marketView(m, this.#deps.index.latestIndex(m.index_symbol)?.source === 'simulated'),
    );
  }

  /** The highest leverage an open market offers (0 when none is open): what a leverage claim needs. */
  async leverageOffered(): Promise<number> {
    const rows = await repo.listMarkets(this.#deps.db);
    return rows
      .filter((m) => m.status === 'open')
      .reduce((max, m) => Math.max(max, Number(m.max_leverage)), 0);
  }

  async ticker(symbol: string): Promise<PerpTicker> {
    const market = await this.#market(symbol);
    const cached = this.#tickers.get(symbol);
    if (cached) return cached;
    const index = this.#deps.index.latestIndex(market.index_symbol);
    const interval = Number(market.funding_interval_ms);
    const now = this.#deps.clock.now();
    return {
      symbol,
      mark: market.mark > 0n ? fromAtoms(market.mark) : null,
      index: index ? fromAtoms(index.price) : null,
      last: market.last > 0n ? fromAtoms(market.last) : null,
      frozen: market.frozen === 1n,
      funding_rate: fromAtoms(market.interest_rate),
      next_funding_at: (Math.floor(now / interval) + 1) * interval,
      change_24h: '0.00',
      volume_24h: '0.00000000',
      ts: now,
    };
  }

  async depth(symbol: string, levels: number): Promise<PerpDepth> {
    const market = await this.#market(symbol);
    const outcome = await this.#markets.send(symbol, { kind: 'depth', levels });
    const depth = outcome.depth ?? { seq: 0n, bids: [], asks: [] };
    const level = ([p, q]: [bigint, bigint]): [string, string] => [
      fromAtoms(p * market.tick_size),
      fromAtoms(q),
    ];
    return { symbol, seq: Number(depth.seq), bids: depth.bids.map(level), asks: depth.asks.map(level) };
  }

  async trades(symbol: string): Promise<PerpPublicTrade[]> {
    await this.#market(symbol);
    const rows = await repo.recentTrades(this.#deps.db, symbol, 50);
    return rows
      .filter((t) => t.kind !== 'adl')
      .map((t) => ({
        id: String(t.id),
        price: fromAtoms(t.price),
        qty: fromAtoms(t.qty),
        side: t.taker_side,
        at: fromMillis(t.created_at),
      }));
  }

  async rates(symbol: string, page: HistoryPage): Promise<PerpFundingRatePage> {
    await this.#market(symbol);
    const rows = await repo.pageFundings(this.#deps.db, symbol, historyWindow(page));
    return historyAnswer(rows, page, (f) => ({
      id: String(f.id),
      symbol: f.symbol,
      rate: fromAtoms(f.rate),
      mark: fromAtoms(f.mark),
      at: fromMillis(f.funding_at),
    }));
  }

  // --- the customer's account -----------------------------------------------------------------

  async account(userId: bigint, symbol: string): Promise<PerpAccount> {
    const { db, ledger } = this.#deps;
    const market = await this.#market(symbol);
    const spec = specOf(market);
    const [position, orders, available] = await Promise.all([
      repo.findPosition(db, symbol, userId),
      repo.listUserOpenOrders(db, userId, symbol),
      ledger.balance(db, { userId }, market.quote, 'available'),
    ]);
    const open = position !== undefined && position.qty !== 0n;
    const stops = { stopLoss: null as bigint | null, takeProfit: null as bigint | null };
    for (const o of orders) {
      if (o.close_position !== 1n || o.state !== 'untriggered' || o.trigger_price === null) continue;
      if (o.trigger_kind === 'stop') stops.stopLoss = o.trigger_price;
      else stops.takeProfit = o.trigger_price;
    }
    return {
      symbol,
      leverage: Number(position?.leverage ?? market.max_leverage),
      leverage_locked: open || orders.length > 0,
      available: fromAtoms(available),
      position:
        open && market.mark > 0n ? positionView(spec, position, market.mark / market.tick_size, stops) : null,
      orders: orders.map(orderView),
    };
  }

  async setLeverage(auth: AuthContext, symbol: string, leverage: number): Promise<PerpAccount> {
    await this.#market(symbol);
    await this.#markets.send(symbol, { kind: 'leverage', userId: auth.userId, leverage });
    return this.account(auth.userId, symbol);
  }

  async place(auth: AuthContext, request: PerpPlaceRequest): Promise<PerpOrder[]> {
    return this.#place(auth, request, placeFingerprint(request));
  }

  /** `fingerprint`: the request the key stands for (perpetual.md §4b.7). */
  async #place(auth: AuthContext, request: PerpPlaceRequest, fingerprint: string): Promise<PerpOrder[]> {
    await this.#gate(auth);
    const market = await this.#market(request.symbol);
    const input = toPlaceInput(market, auth.userId, request);
    const ioc = request.type === 'market';
    const outcome = await this.#markets.send(request.symbol, {
      kind: 'place',
      userId: auth.userId,
      input,
      key: request.idempotencyKey,
      ioc,
      fingerprint,
    });
    return (await repo.listOrdersByIds(this.#deps.db, outcome.orderIds)).map(orderView);
  }

  /** Closes the whole position at market (reduce-only, band-capped). */
  async close(auth: AuthContext, symbol: string, key?: string): Promise<PerpOrder[]> {
    const fingerprint = closeFingerprint(symbol);
    const position = await repo.findPosition(this.#deps.db, symbol, auth.userId);
    if (!position || position.qty === 0n) {
      // why: a retry of a close that went through finds the position gone; it answers that close,
      // unless the key stands for another request.
      const used = key ? await repo.findUsedKeys(this.#deps.db, [{ userId: auth.userId, key }]) : undefined;
      const previous = used?.get(`${auth.userId}|${key}`);
      if (previous) {
        if (previous.fingerprint !== null && previous.fingerprint !== fingerprint)
          throw new AppError('IDEMPOTENCY_KEY_REUSED');
        return (await repo.listOrdersByIds(this.#deps.db, previous.ids)).map(orderView);
      }
      throw new AppError('POSITION_NOT_FOUND');
    }
    return this.#place(
      auth,
      {
        symbol,
        side: position.qty > 0n ? 'sell' : 'buy',
        type: 'market',
        qty: position.qty > 0n ? position.qty : -position.qty,
        triggerRef: 'last',
        priceProtect: false,
        reduceOnly: true,
        closePosition: false,
        postOnly: false,
        // why: a retried close with its key answers the first close; without one it is a new order.
        idempotencyKey: key ?? `close-${randomUUID()}`,
      },
      fingerprint,
    );
  }

  async cancel(userId: bigint, id: bigint): Promise<PerpOrder> {
    const row = await repo.findOrder(this.#deps.db, id);
    if (!row || row.user_id !== userId) throw new AppError('ORDER_NOT_FOUND');
    if (!repo.OPEN_STATES.includes(row.state as (typeof repo.OPEN_STATES)[number])) {
      throw new AppError(row.state === 'filled' ? 'CANCEL_FAILED' : 'ORDER_ALREADY_REVOKED');
    }
    await this.#markets.send(row.symbol, { kind: 'cancel', userId, orderNo: row.order_no });
    const after = await repo.findOrder(this.#deps.db, id);
    return orderView(after ?? row);
  }

  async attachStops(
    auth: AuthContext,
    symbol: string,
    stops: { stopLoss?: bigint; takeProfit?: bigint; ref: PerpTriggerRef },
  ): Promise<PerpOrder[]> {
    await this.#gate(auth);
    const market = await this.#market(symbol);
    const ticks = (price: bigint | undefined) => {
      if (price === undefined) return undefined;
      if (price % market.tick_size !== 0n) throw new AppError('TRIGGER_PRICE_INVALID');
      return price / market.tick_size;
    };
    if (stops.stopLoss === undefined && stops.takeProfit === undefined)
      throw new AppError('TRIGGER_PRICE_INVALID');
    const outcome = await this.#markets.send(symbol, {
      kind: 'stops',
      userId: auth.userId,
      stopLoss: ticks(stops.stopLoss),
      takeProfit: ticks(stops.takeProfit),
      ref: stops.ref,
    });
    return (await repo.listOrdersByIds(this.#deps.db, outcome.orderIds)).map(orderView);
  }

  async margin(
    auth: AuthContext,
    symbol: string,
    direction: 'add' | 'remove',
    amount: bigint,
    key?: string,
  ): Promise<PerpAccount> {
    await this.#deps.platformHalt.requireRunning();
    await this.#market(symbol);
    await this.#markets.send(symbol, { kind: 'margin', userId: auth.userId, amount, direction, key });
    return this.account(auth.userId, symbol);
  }

  // --- the customer's records -------------------------------------------------------------------

  async orders(
    userId: bigint,
    filter: { symbol?: string; status?: PerpOrderStatus },
    page: HistoryPage,
  ): Promise<PerpOrderPage> {
    const rows = await repo.pageUserOrders(
      this.#deps.db,
      userId,
      { symbol: filter.symbol, states: filter.status ? STATES_OF[filter.status] : undefined },
      historyWindow(page),
    );
    return historyAnswer(rows, page, orderView);
  }

  async order(userId: bigint, id: bigint): Promise<PerpOrderDetail> {
    const row = await repo.findOrder(this.#deps.db, id);
    if (!row || row.user_id !== userId) throw new AppError('ORDER_NOT_FOUND');
    const fills = await repo.listOrderFills(this.#deps.db, row.symbol, row.order_no);
    return { ...orderView(row), fills: fills.map((t) => fillView(t, row.order_no)) };
  }

  async funding(userId: bigint, symbol: string | undefined, page: HistoryPage): Promise<PerpFundingPage> {
    const rows = await repo.pageFundingPayments(this.#deps.db, userId, symbol, historyWindow(page));
    return historyAnswer(rows, page, fundingPaymentView);
  }

  async liquidations(
    userId: bigint,
    symbol: string | undefined,
    page: HistoryPage,
  ): Promise<PerpLiquidationPage> {
    const rows = await repo.pageLiquidations(this.#deps.db, { userId, symbol }, historyWindow(page));
    return historyAnswer(rows, page, liquidationView);
  }

  // ---------------------------------------------------------------------------------------------

  async #gate(auth: AuthContext): Promise<void> {
    await this.#deps.platformHalt.requireRunning();
    await this.#deps.identityGate.requireForTrading(auth.userId);
    if (auth.sessionId !== 0n) await this.#deps.termsGate.requireAccepted(auth.userId);
  }

  async #market(symbol: string): Promise<repo.PerpMarketRow> {
    const market = await repo.findMarket(this.#deps.db, symbol);
    if (!market) throw new AppError('MARKET_NOT_OPEN');
    return market;
  }

  /** A user's available balance in the market's quote coin (the demo maker reads it). */
  async available(userId: bigint, symbol: string): Promise<bigint> {
    const market = await this.#market(symbol);
    return this.#deps.ledger.balance(this.#deps.db, { userId }, market.quote, 'available');
  }
}

/** The API's order as the clearing takes it: ticks and lots checked, the type split into kind and trigger. */
function toPlaceInput(market: repo.PerpMarketRow, userId: bigint, r: PerpPlaceRequest): PlaceInput {
  const tick = market.tick_size;
  const onTick = (price: bigint | undefined, error: 'PRICE_INVALID' | 'TRIGGER_PRICE_INVALID') => {
    if (price === undefined || price <= 0n || price % tick !== 0n) throw new AppError(error);
    return price / tick;
  };
  const trigger = r.type.startsWith('stop_') || r.type.startsWith('take_profit_');
  const kind = r.type.endsWith('limit') ? 'limit' : 'market';
  if (r.closePosition && !trigger) throw new AppError('PARAM_ERROR');
  let qty = 0n;
  if (!r.closePosition) {
    if (r.qty === undefined || r.qty <= 0n || r.qty % market.lot_size !== 0n)
      throw new AppError('QTY_INVALID');
    qty = r.qty;
  }
  return {
    userId,
    side: r.side,
    type: kind,
    price: kind === 'limit' ? onTick(r.price, 'PRICE_INVALID') : undefined,
    qty,
    reduceOnly: r.reduceOnly,
    postOnly: r.postOnly,
    trigger: trigger
      ? {
          kind: r.type.startsWith('stop_') ? 'stop' : 'take_profit',
          price: onTick(r.triggerPrice, 'TRIGGER_PRICE_INVALID'),
          ref: r.triggerRef,
          priceProtect: r.priceProtect,
          closePosition: r.closePosition,
        }
      : undefined,
  };
}
