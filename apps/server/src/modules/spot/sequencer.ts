import { type Command, createOrderBook, getResultStage, type OrderBook, ResultCode } from '@bourse/engine';
import { AppError } from '@bourse/shared';
import { sql } from 'kysely';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isTransactionConflict, TRANSACTION_ATTEMPTS } from '../../platform/db.ts';
import { runOwnedBatch } from '../../platform/market-ownership.ts';
import type { Millis } from '../../platform/schema.ts';
import { toMillis } from '../../platform/time.ts';
import { balanceKey, type LedgerService } from '../ledger/service.ts';
import { BatchSink, type BatchWork } from './batch-sink.ts';
import {
  BATCH_SUBJECT_PREFIX,
  type BookDepth,
  type EngineOrder,
  FencedError,
  NotOwnerError,
  type SequencerRequest,
  type SequencerResult,
  type SpotBatchEvent,
  toEngineOrder,
} from './commands.ts';
import { engineSpec } from './market.ts';
import { rebuildBook } from './rebuild.ts';
import * as repo from './repository.ts';
import { isWaiting, TriggerBook } from './trigger-book.ts';

export {
  BATCH_SUBJECT_PREFIX,
  type BookDepth,
  type ConfigureRequest,
  type EngineOrder,
  type NewOrder,
  NotOwnerError,
  type SequencerRequest,
  type SequencerResult,
  type SpotBatchEvent,
} from './commands.ts';

/** Most commands one batch (one transaction) takes. */
export const BATCH_SIZE = 512;
interface Pending {
  request: SequencerRequest;
  resolve(result: SequencerResult): void;
  reject(error: unknown): void;
}

export interface SequencerDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  /** The index this node last saw: a fired trigger must enter within the market's band around it. */
  index?: { latestIndex(symbol: string): { price: bigint } | undefined };
  /** Who may trade: asked once per batch for the users placing in it. */
  users: {
    tradingStatuses(db: Db, userIds: readonly bigint[]): Promise<Map<bigint, 'ok' | 'frozen' | 'banned'>>;
  };
  bus?: Bus;
  onError?: (error: unknown, what: string) => void;
  /** The market lease: a batch idle inside its transaction for half of it is ended by PostgreSQL. */
  node: { leaseMs: number };
}

/**
 * One market's sequencer: commands queue; a loop takes up to {@link BATCH_SIZE} of them as one
 * batch, holds the funds of each place (a place whose hold fails is refused before it reaches the
 * engine), runs the batch through the engine, writes holds, order rows, trades, fees and ledger
 * postings in ONE transaction, commits, and only then answers the waiting callers and publishes
 * the batch. If the transaction fails, the book is rebuilt from the store, so it never holds
 * what the store does not. On start the book is rebuilt from the open orders in sequence order.
 *
 * Trigger orders wait here, not in the engine's trigger book, because a fired trigger must be
 * checked against the price band around the index before it enters (and be revoked, its hold
 * released, when outside), which the engine, firing inside one command, cannot ask anyone.
 */
export class MarketSequencer {
  readonly symbol: string;
  /** The epoch this node owns the market at: every batch is fenced on it. */
  readonly epoch: bigint;
  readonly #deps: SequencerDeps;
  /**
   * Told once when this sequencer stops for good: a batch found the market written by a newer
   * epoch (`fenced`), or its book could not be rebuilt after a failed batch (`broken`: the book
   * holds what the store does not, so it must not take another command).
   */
  readonly #onFenced: (reason: 'fenced' | 'broken') => void;
  #fenced = false;
  #market!: repo.SpotMarketRow;
  #book!: OrderBook;
  /** Open orders by engine id (their sequence), as stored. */
  #live = new Map<number, repo.OrderRow>();
  /** The same open orders by order id. */
  #byId = new Map<bigint, repo.OrderRow>();
  /** The open trigger orders still waiting (they are in `#live`, not in the engine's book). */
  #triggers = new TriggerBook();
  /** The last trade price in atoms as committed; null before the market's first trade. */
  #lastPrice: bigint | null = null;
  #seq = 0n;
  #queue: Pending[] = [];
  #running = false;
  #draining: Promise<void> = Promise.resolve();
  /** A batch is running: the book may hold what its transaction has not committed yet. */
  #inBatch = false;
  /** Depth reads waiting for that batch's end, answered before the next batch starts. */
  #readers: (() => void)[] = [];

  constructor(
    symbol: string,
    epoch: bigint,
    deps: SequencerDeps,
    onFenced: (reason: 'fenced' | 'broken') => void = () => {},
  ) {
    this.symbol = symbol;
    this.epoch = epoch;
    this.#deps = deps;
    this.#onFenced = onFenced;
  }

  /**
   * Stops sequencing at once: queued commands are refused with {@link NotOwnerError} (nothing of
   * theirs was written), later ones too. A batch already running ends at its fence.
   */
  fence(): void {
    this.#fenced = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new NotOwnerError(this.symbol));
  }

  get market(): repo.SpotMarketRow {
    return this.#market;
  }

  /** The last sequence applied and committed. */
  get seq(): bigint {
    return this.#seq;
  }

  /**
   * Rebuilds the book from the store: the open orders that entered the book, re-placed in
   * sequence order, and the trigger orders still waiting, armed again in arrival order, with the
   * market's last trade price they watch.
   */
  async load(): Promise<void> {
    const { db } = this.#deps;
    const market = await repo.findMarket(db, this.symbol);
    if (!market) throw new Error(`no spot market ${this.symbol}`);
    const { book, live, triggers } = await rebuildBook(db, market);
    this.#market = market;
    this.#book = book;
    this.#live = live;
    this.#byId = new Map([...live.values()].map((row) => [row.id, row]));
    this.#triggers = triggers;
    this.#lastPrice = (await repo.findLastTrade(db, this.symbol))?.price ?? null;
    this.#seq = market.seq;
  }

  /** One of the market's open orders by id, as the book holds it (undefined when not open). */
  liveOrder(id: bigint): Readonly<repo.OrderRow> | undefined {
    return this.#byId.get(id);
  }

  /**
   * Depth in atoms as committed: price and total quantity per level, best first, with the
   * sequence they are at. The engine applies a batch before its transaction commits, so while a
   * batch runs the read waits for its end: its commit (or, if it failed, the book rebuilt from the
   * store), and is answered before the next batch touches the book.
   */
  depth(levels: number): Promise<BookDepth> {
    if (!this.#inBatch) return Promise.resolve(this.#levels(levels));
    return new Promise((resolve) => {
      this.#readers.push(() => resolve(this.#levels(levels)));
    });
  }

  #levels(levels: number): BookDepth {
    const { tick_size: tick, lot_size: lot } = this.#market;
    const depth = this.#book.getDepth(levels);
    const toAtoms = ([price, qty]: [number, number]): [bigint, bigint] => [
      BigInt(price) * tick,
      BigInt(qty) * lot,
    ];
    return {
      seq: this.#seq,
      epoch: this.epoch,
      bids: depth.bids.map(toAtoms),
      asks: depth.asks.map(toAtoms),
    };
  }

  /** Queues a command; resolves once its batch has committed. */
  submit(request: SequencerRequest): Promise<SequencerResult> {
    if (this.#fenced) return Promise.reject(new NotOwnerError(this.symbol));
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        // why: group commit. Start the batch after the current round of I/O, so every request that
        // arrived in it is queued and goes into the same transaction (one fsync for all of them).
        this.#draining = new Promise((done) => setImmediate(done)).then(() => this.#drain());
      }
    });
  }

  /** Resolves once the queue is empty and no batch is running (a stop waits for it). */
  async idle(): Promise<void> {
    while (this.#running) await this.#draining;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0 && !this.#fenced) {
        const configure = this.#queue.findIndex((p) => p.request.kind === 'configure');
        const size = configure === -1 ? BATCH_SIZE : Math.min(configure + 1, BATCH_SIZE);
        const batch = this.#queue.splice(0, size);
        await this.#runBatch(batch);
      }
    } finally {
      this.#running = false;
    }
  }

  async #runBatch(batch: Pending[]): Promise<void> {
    this.#inBatch = true;
    try {
      await this.#commitBatch(batch);
    } finally {
      this.#inBatch = false;
      for (const answer of this.#readers.splice(0)) answer();
    }
  }

  /** Runs one batch to its end: committed, answered and published, or refused whole. */
  async #commitBatch(batch: Pending[]): Promise<void> {
    const { db, clock } = this.#deps;
    const now = toMillis(clock.now());
    const prevSeq = this.#seq;
    let work: BatchWork | undefined;
    for (let attempt = 1; work === undefined; attempt += 1) {
      try {
        // why: not retried by the store: the engine applies the batch inside the transaction, so
        // the book must be rebuilt before the batch runs again.
        work = await runOwnedBatch(db, this.#deps.node.leaseMs, (trx) => this.#write(trx, batch, now));
      } catch (error) {
        if (error instanceof FencedError || this.#fenced) {
          // why: a newer owner has the market; this node's book is stale, and nothing of this
          // batch was written. Its commands go to the new owner.
          this.fence();
          for (const pending of batch) pending.reject(new NotOwnerError(this.symbol));
          this.#onFenced(error instanceof FencedError ? error.reason : 'fenced');
          return;
        }
        // why: the engine already applied the batch; the store did not. Rebuild from the store.
        try {
          await this.load();
        } catch (reload) {
          this.#report(reload, `rebuild ${this.symbol}`);
          // why: the book still holds the failed batch; the market is taken up again (a new
          // epoch, a rebuild) once the store answers.
          this.fence();
          for (const pending of batch) pending.reject(new AppError('MARKET_UNAVAILABLE'));
          this.#onFenced('broken');
          return;
        }
        // why: PostgreSQL aborted the batch for a conflict with another transaction (a deadlock,
        // a serialization failure): nothing in it was wrong, so it runs again on the rebuilt book.
        if (isTransactionConflict(error) && attempt < TRANSACTION_ATTEMPTS) continue;
        for (const pending of batch) pending.reject(error);
        return;
      }
    }
    this.#seq = work.seq;
    this.#lastPrice = work.lastPrice;
    for (const outcome of work.results) if (outcome && 'market' in outcome) this.#install(outcome.market);
    for (const [i, pending] of batch.entries()) {
      const outcome = work.results[i];
      if (outcome instanceof AppError) pending.reject(outcome);
      else if (outcome) pending.resolve(outcome);
      else pending.reject(new Error('command without outcome'));
    }
    if (work.seq !== prevSeq) this.#publish(work, prevSeq, now);
  }

  /**
   * The batch's transaction: holds, engine, rows, trades, postings, the market's sequence. First
   * every place is checked and its row written (sequences in arrival order); then the commands
   * run in arrival order, and after each one the trigger orders the last price has reached fire,
   * each at a new sequence (the one it enters the book at), so a burst at one price fires in
   * this batch, in arrival order.
   */
  async #write(trx: Db, batch: Pending[], now: Millis): Promise<BatchWork> {
    const { ledger } = this.#deps;
    if (!(await repo.fenceMarket(trx, this.symbol, this.#seq, this.epoch))) throw new FencedError('fenced');
    // why: the market's status changes only through this sequencer (a configure command, below),
    // so the row it installed after its last commit is the stored one.
    let open = this.#market.status === 'open';
    const results: (SequencerResult | AppError | undefined)[] = new Array(batch.length);
    const steps: Step[] = [];
    const placed: repo.OrderRow[] = [];
    const check = await this.#readForPlaces(trx, batch);
    let seq = this.#seq;

    for (const [index, { request }] of batch.entries()) {
      if (request.kind === 'configure') {
        await sql`savepoint spot_configure`.execute(trx);
        let configured: repo.SpotMarketRow;
        try {
          configured = await request.write(trx, this.#live.size);
          await sql`release savepoint spot_configure`.execute(trx);
        } catch (error) {
          await sql`rollback to savepoint spot_configure`.execute(trx);
          await sql`release savepoint spot_configure`.execute(trx);
          if (!(error instanceof AppError)) throw error;
          results[index] = error;
          continue;
        }
        open = configured.status === 'open';
        results[index] = { market: configured, revoked: 0 };
        if (request.revokeAll) steps.push({ kind: 'halt', index });
        continue;
      }
      if (request.kind === 'cancel') {
        steps.push({ kind: 'cancel', index, orderId: request.orderId, userId: request.userId });
        continue;
      }
      const { order } = request;
      const owner = `${order.user_id}|${order.idempotency_key}`;
      // why: the same key answers the first order, whatever has changed since (a halt, the balance).
      if (check.keys.has(owner)) {
        results[index] = { duplicate: true };
        continue;
      }
      const status = check.statuses.get(order.user_id);
      if (status !== 'ok') {
        results[index] = new AppError(
          status === 'banned' ? 'TRADING_BANNED' : status === 'frozen' ? 'SESSION_INVALID' : 'PLEASE_LOGIN',
        );
        continue;
      }
      if (!open) {
        results[index] = new AppError('MARKET_NOT_OPEN');
        continue;
      }
      if (order.trigger_price !== null && this.#wouldFire(order.trigger_price, order.trigger_condition)) {
        results[index] = new AppError('TRIGGER_WOULD_FIRE');
        continue;
      }
      const key = balanceKey({ userId: order.user_id }, order.hold_asset, 'available');
      const available = check.available.get(key) ?? 0n;
      if (available < order.held) {
        results[index] = new AppError('BALANCE_INSUFFICIENT');
        continue;
      }
      check.available.set(key, available - order.held);
      check.keys.add(owner);
      seq += 1n;
      const row: repo.OrderRow = {
        ...order,
        id: 0n,
        seq,
        status: 'entrusted',
        filled_qty: 0n,
        filled_quote: 0n,
        fee: 0n,
        revoke_reason: null,
        triggered_at: null,
        created_at: now,
        updated_at: now,
      };
      placed.push(row);
      this.#live.set(Number(seq), row);
      steps.push(
        row.trigger_price === null
          ? { kind: 'place', index, row, engine: request.engine }
          : { kind: 'arm', index, row },
      );
    }

    // why: the rows go in before the engine runs, so every trade can name both orders' ids.
    const ids = await repo.insertOrders(
      trx,
      placed.map(({ id: _id, ...values }) => values),
    );
    for (const row of placed) {
      const id = ids.get(row.seq);
      if (id === undefined) throw new Error(`order ${this.symbol}#${row.seq} was not stored`);
      row.id = id;
      this.#byId.set(id, row);
    }

    const sink = new BatchSink(this.#market, this.#live, this.#byId, now, this.#lastPrice);
    for (const row of placed) sink.hold(row);
    // why: the engine's own sequence only has to grow; the market's sequence (`seq`) is what the
    // store and the feeds see, and a trade records the market sequence of the command behind it.
    let engineSeq = this.#book.getLastSeq();
    const apply = (command: DistributiveOmit<Command, 'seq'>, cause: bigint): ResultCode => {
      engineSeq += 1;
      sink.cause = cause;
      return this.#book.apply({ ...command, seq: engineSeq } as Command, sink);
    };
    const enter = (row: repo.OrderRow, engine: EngineOrder): void => {
      const code = apply(
        {
          type: 'place',
          orderId: Number(row.seq),
          userId: Number(row.user_id),
          side: engine.side,
          orderType: engine.orderType,
          tif: engine.tif,
          price: engine.price,
          qty: engine.qty,
          quoteAmount: engine.quoteAmount,
        },
        row.seq,
      );
      const stage = getResultStage(code);
      // why: every place was validated against the market before it was queued; an engine
      // refusal here is a fault, and failing the batch rebuilds the book from the store.
      if (stage === 'validation' || stage === 'state') throw new Error(`engine refused a place: ${code}`);
      sink.trimBuyHold(row);
      sink.lastDone = undefined;
    };
    /** Ends an open order: a waiting trigger leaves the trigger book, a resting order the book. */
    const end = (row: repo.OrderRow, reason: string): repo.OrderRow | undefined => {
      seq += 1n;
      if (isWaiting(row)) {
        this.#triggers.disarm(row);
        sink.revokeWaiting(row, reason);
        return row;
      }
      const code = apply({ type: 'cancel', orderId: Number(row.seq), userId: Number(row.user_id) }, seq);
      const cancelled = code === ResultCode.ACCEPTED ? sink.lastDone : undefined;
      sink.lastDone = undefined;
      if (cancelled) cancelled.revoke_reason = reason;
      return cancelled;
    };
    /** Fires every waiting trigger the last price has reached, re-checking after each. */
    const fire = (): void => {
      for (;;) {
        const row = this.#triggers.next(sink.lastPrice);
        if (!row) return;
        seq += 1n;
        this.#live.delete(Number(row.seq));
        row.seq = seq;
        row.triggered_at = now;
        this.#live.set(Number(seq), row);
        sink.changed.add(row);
        if (!this.#inBand(row, sink.lastPrice)) {
          sink.revokeWaiting(row, 'trigger_out_of_band');
          continue;
        }
        enter(row, toEngineOrder(row, this.#market));
      }
    };

    for (const step of steps) {
      if (step.kind === 'place') {
        enter(step.row, step.engine);
        results[step.index] = { order: step.row };
      } else if (step.kind === 'arm') {
        this.#triggers.arm(step.row);
        results[step.index] = { order: step.row };
      } else if (step.kind === 'cancel') {
        const row = this.#byId.get(step.orderId);
        const cancelled = row && row.user_id === step.userId ? end(row, 'user') : undefined;
        results[step.index] = cancelled ? { order: cancelled } : { missed: true };
      } else {
        const outcome = results[step.index];
        // why: every order live now, including places earlier in this batch and waiting triggers.
        for (const row of [...this.#live.values()]) {
          if (end(row, 'halt') && outcome && 'market' in outcome) outcome.revoked += 1;
        }
      }
      // why: an arm too, since the price may have reached its trigger earlier in this batch.
      fire();
    }

    const tradeIds = await repo.insertTrades(trx, sink.trades);
    for (const row of sink.changed) row.updated_at = now;
    if (!(await repo.updateOrders(trx, [...sink.changed]))) throw new FencedError('broken');
    const postings = sink.postings();
    if (postings.length > 0) {
      await ledger.post(trx, {
        type: 'spot.batch',
        ref: `${this.symbol}:${seq}`,
        memo: `${this.symbol} holds, trades and releases`,
        by: 'system',
        postings,
      });
    }
    if (seq !== this.#seq) await repo.setMarketSeq(trx, this.symbol, seq, now);
    // why: copies, so later batches changing the live rows never change an answer being sent.
    for (const [i, result] of results.entries()) {
      if (result && 'order' in result) results[i] = { order: { ...result.order } };
    }
    // why: an order that only rested changed no row after its insert, yet its owner must hear of it.
    const touched = new Set([...placed, ...sink.changed]);
    return {
      seq,
      results,
      trades: sink.trades,
      tradeIds,
      deltas: sink.deltas,
      changed: [...touched],
      lastPrice: sink.lastPrice,
    };
  }

  /** Whether a trigger with this condition would fire at once: against the last price, else the index. */
  #wouldFire(trigger: bigint, condition: 'gte' | 'lte' | null): boolean {
    const reference = this.#lastPrice ?? this.#deps.index?.latestIndex(this.symbol)?.price;
    if (reference === undefined || reference <= 0n) return false;
    return condition === 'gte' ? reference >= trigger : reference <= trigger;
  }

  /**
   * Whether a fired trigger may enter: its limit price (a stop-limit) or the last price that fired
   * it (a market order) within the market's band around the index; without an index it may.
   */
  #inBand(row: repo.OrderRow, lastPrice: bigint | null): boolean {
    const reference = this.#deps.index?.latestIndex(this.symbol)?.price;
    const price = row.type === 'stop_limit' ? row.price : lastPrice;
    if (reference === undefined || reference <= 0n || price === null) return true;
    const distance = price > reference ? price - reference : reference - price;
    return distance * 10_000n <= reference * this.#market.band_bps;
  }

  /**
   * What the batch's places are checked against, read once for all of them inside the batch's
   * transaction: the idempotency keys already used, who may trade, and the available balances
   * their holds come from (locked on PostgreSQL until the batch commits). Each place is then
   * checked against the running figures, so the holds of one batch never overdraw an account and
   * go into the batch's one ledger entry.
   */
  async #readForPlaces(
    trx: Db,
    batch: Pending[],
  ): Promise<{
    keys: Set<string>;
    statuses: Map<bigint, 'ok' | 'frozen' | 'banned'>;
    available: Map<string, bigint>;
  }> {
    const orders = batch.flatMap(({ request }) => (request.kind === 'place' ? [request.order] : []));
    if (orders.length === 0) return { keys: new Set(), statuses: new Map(), available: new Map() };
    const users = orders.map((o) => o.user_id);
    const [keys, statuses, available] = [
      await repo.findUsedKeys(
        trx,
        orders.map((o) => ({ userId: o.user_id, key: o.idempotency_key })),
      ),
      await this.#deps.users.tradingStatuses(trx, users),
      await this.#deps.ledger.balancesForUpdate(trx, [
        // why: the fee accounts the batch's trades post to are taken with the first lock (the
        // ledger's lock order: platform accounts before users').
        { owner: { system: 'fees' }, asset: this.#market.base, kind: 'available' },
        { owner: { system: 'fees' }, asset: this.#market.quote, kind: 'available' },
        ...orders.map((o) => ({
          owner: { userId: o.user_id },
          asset: o.hold_asset,
          kind: 'available' as const,
        })),
      ]),
    ];
    return { keys, statuses, available };
  }

  /**
   * Takes a committed configuration. New steps come with an empty book (they are refused while
   * orders are open); places queued before it was committed were checked against the old steps,
   * so they are refused rather than put on the new grid.
   */
  #install(market: repo.SpotMarketRow): void {
    const old = this.#market;
    this.#market = market;
    if (market.tick_size === old.tick_size && market.lot_size === old.lot_size) return;
    this.#book = createOrderBook(engineSpec(market));
    const queued = this.#queue;
    this.#queue = [];
    for (const pending of queued) {
      if (pending.request.kind === 'place') pending.reject(new AppError('PRICE_INVALID'));
      else this.#queue.push(pending);
    }
  }

  #publish(work: BatchWork, prevSeq: bigint, now: Millis): void {
    const { bus } = this.#deps;
    if (!bus) return;
    const { tick_size: tick, lot_size: lot } = this.#market;
    const level = (d: { price: number; qty: number }): [string, string] => [
      String(BigInt(d.price) * tick),
      String(BigInt(d.qty) * lot),
    ];
    const event: SpotBatchEvent = {
      symbol: this.symbol,
      epoch: String(this.epoch),
      prevSeq: String(prevSeq),
      seq: String(work.seq),
      at: this.#deps.clock.now(),
      trades: work.trades.map((t, i) => ({
        id: String(work.tradeIds[i]),
        price: String(t.price),
        qty: String(t.qty),
        side: t.taker_side,
        at: Number(now),
      })),
      bids: work.deltas.filter((d) => d.side === 'buy').map(level),
      asks: work.deltas.filter((d) => d.side === 'sell').map(level),
      orders: work.changed.map((row) => ({ id: String(row.id), userId: String(row.user_id) })),
    };
    bus
      .publish(`${BATCH_SUBJECT_PREFIX}${this.symbol}`, event)
      .catch((error) => this.#report(error, `publish ${this.symbol}`));
  }

  #report(error: unknown, what: string): void {
    this.#deps.onError?.(error, what);
  }
}

/** One command of a batch as it runs, in arrival order. */
type Step =
  | { kind: 'place'; index: number; row: repo.OrderRow; engine: EngineOrder }
  | { kind: 'arm'; index: number; row: repo.OrderRow }
  | { kind: 'cancel'; index: number; orderId: bigint; userId: bigint }
  | { kind: 'halt'; index: number };

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
