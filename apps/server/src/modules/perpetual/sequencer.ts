import { BrokenRule, type CommandResult, PerpClearing, type PerpOrder } from '@bourse/perp';
import { AppError, type ResultKey } from '@bourse/shared';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isDataRefusal, isTransactionConflict, TRANSACTION_ATTEMPTS } from '../../platform/db.ts';
import { FencedError, NotOwnerError, runOwnedBatch } from '../../platform/market-ownership.ts';
import type { Millis } from '../../platform/schema.ts';
import { toMillis } from '../../platform/time.ts';
import { balanceKey, type LedgerService, type Owner } from '../ledger/service.ts';
import { BatchRecords, type CreatedOrder } from './batch-records.ts';
import { PERP_BATCH_SUBJECT, type PerpBatchEvent, type PerpCommand, type PerpOutcome } from './commands.ts';
import { snapshotOf, specOf } from './records.ts';
import * as repo from './repository.ts';

export interface PerpSequencerDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  bus?: Bus;
  users: {
    tradingStatuses(db: Db, userIds: readonly bigint[]): Promise<Map<bigint, 'ok' | 'frozen' | 'banned'>>;
  };
  onError?: (error: unknown, what: string) => void;
  /** Staff changes are recorded in the transaction that makes them. */
  audit: {
    record(
      trx: Db,
      entry: {
        actor: string;
        action: string;
        target: string;
        reason?: string;
        before?: unknown;
        after?: unknown;
        ip?: string;
      },
    ): Promise<void>;
  };
  /** A batch's result, after its commit (tests and the feeds). */
  onCommitted?: (symbol: string, results: CommandResult<unknown>[]) => void;
  /** The market lease: a batch idle inside its transaction for half of it is ended by PostgreSQL. */
  node: { leaseMs: number };
}

interface Pending {
  command: PerpCommand;
  resolve(outcome: PerpOutcome): void;
  reject(error: unknown): void;
}

const BATCH_SIZE = 256;

/**
 * One perpetual market's sequencer: commands queue and run as batches through the market's
 * clearing (`@bourse/perp`); each batch is ONE transaction with everything it changed — orders,
 * positions, the fund's lots, trades, funding and liquidation records, the ledger entry of its
 * moves, the market's figures — fenced on the owner's epoch. Callers are answered after the
 * commit. A failed transaction rebuilds the clearing from the store, so it never holds what the
 * store does not; a funding event is recorded once per market and time (a unique index), so a
 * crash and a retry never pay it twice.
 */
export class PerpSequencer {
  readonly symbol: string;
  readonly epoch: bigint;
  readonly #deps: PerpSequencerDeps;
  readonly #onFenced: (reason: 'fenced' | 'broken') => void;
  #clearing!: PerpClearing;
  #market!: repo.PerpMarketRow;
  #lastIndex = 0n;
  #lastTradeAt = 0;
  #queue: Pending[] = [];
  #running = false;
  #draining: Promise<void> = Promise.resolve();
  #fenced = false;
  #inBatch = false;
  #batchDone: Promise<void> = Promise.resolve();
  /** Order rows' creation time, key and request, by order number, for the upsert. */
  readonly #created = new Map<bigint, CreatedOrder>();

  constructor(
    symbol: string,
    epoch: bigint,
    deps: PerpSequencerDeps,
    onFenced: (reason: 'fenced' | 'broken') => void = () => {},
  ) {
    this.symbol = symbol;
    this.epoch = epoch;
    this.#deps = deps;
    this.#onFenced = onFenced;
  }

  get clearing(): PerpClearing {
    return this.#clearing;
  }

  get market(): repo.PerpMarketRow {
    return this.#market;
  }

  /** When the market last traded (unix ms; 0 when never): a last price older than a minute leaves the mark. */
  get lastTradeAt(): number {
    return this.#lastTradeAt;
  }

  /** The index the last mark was built on (atoms). */
  get lastIndex(): bigint {
    return this.#lastIndex;
  }

  async load(): Promise<void> {
    const { db } = this.#deps;
    const market = await repo.findMarket(db, this.symbol);
    if (!market) throw new Error(`no perpetual market ${this.symbol}`);
    const [positions, orders, lots] = await Promise.all([
      repo.listPositions(db, this.symbol),
      repo.listOpenOrders(db, this.symbol),
      repo.listLots(db, this.symbol),
    ]);
    this.#clearing = new PerpClearing(specOf(market), snapshotOf(market, positions, orders, lots));
    const [lastTrade] = await repo.recentTrades(db, this.symbol, 1);
    this.#lastTradeAt = lastTrade ? Number(lastTrade.created_at) : 0;
    this.#market = market;
    this.#created.clear();
    for (const o of orders)
      this.#created.set(o.order_no, {
        at: o.created_at,
        key: o.idempotency_key,
        fingerprint: o.request_fingerprint,
        ioc: o.ioc === 1n,
      });
  }

  fence(): void {
    this.#fenced = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new NotOwnerError(this.symbol));
  }

  submit(command: PerpCommand): Promise<PerpOutcome> {
    if (this.#fenced) return Promise.reject(new NotOwnerError(this.symbol));
    if (command.kind === 'depth') return this.#depth(command.levels);
    return new Promise((resolve, reject) => {
      this.#queue.push({ command, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        this.#draining = new Promise((done) => setImmediate(done)).then(() => this.#drain());
      }
    });
  }

  /** The book as committed: while a batch runs, read after it (its commit or its rebuild). */
  async #depth(levels: number): Promise<PerpOutcome> {
    while (this.#inBatch) await this.#batchDone;
    return { orderIds: [], depth: { seq: this.#clearing.figures.seq, ...this.#clearing.depth(levels) } };
  }

  async idle(): Promise<void> {
    while (this.#running) await this.#draining;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0 && !this.#fenced) {
        // why: a configuration ends its batch: the commands after it run on the new parameters.
        const configure = this.#queue.findIndex((p) => p.command.kind === 'configure');
        const size = configure === -1 ? BATCH_SIZE : Math.min(configure + 1, BATCH_SIZE);
        await this.#commitBatch(this.#queue.splice(0, size));
      }
    } finally {
      this.#running = false;
    }
  }

  async #commitBatch(batch: Pending[]): Promise<void> {
    let done!: () => void;
    this.#batchDone = new Promise((resolve) => {
      done = resolve;
    });
    this.#inBatch = true;
    try {
      await this.#commitOrIsolate(batch);
    } finally {
      this.#inBatch = false;
      done();
    }
  }

  /**
   * Commits the batch. When the store refuses it for another reason than a fence or a conflict (a
   * posting below zero, a constraint), the clearing was rebuilt and the batch's halves run again,
   * down to single commands: a command is the unit of failure (perpetual.md §4b.3), refused alone
   * while the others commit in their order, so a customer's command never holds back the marks,
   * funding and liquidations behind it. A batch the store takes stays one transaction and one entry.
   */
  async #commitOrIsolate(batch: Pending[]): Promise<void> {
    const refused = await this.#commitBatchOnce(batch);
    if (!refused) return;
    if (batch.length === 1) {
      this.#refuse(batch[0]!, refused.error);
      return;
    }
    const half = Math.ceil(batch.length / 2);
    for (const part of [batch.slice(0, half), batch.slice(half)]) {
      if (this.#fenced) for (const pending of part) pending.reject(new NotOwnerError(this.symbol));
      else await this.#commitOrIsolate(part);
    }
  }

  /**
   * A command the store refused on its own: logged, since the clearing allowed what the store
   * would not, and its caller answered; the market goes on (a mark's or funding's caller tries again).
   */
  #refuse(pending: Pending, error: unknown): void {
    this.#deps.onError?.(error, `perpetual ${pending.command.kind} refused by the store on ${this.symbol}`);
    pending.reject(error instanceof AppError ? error : new AppError('ILLEGAL_OPERATION'));
  }

  /**
   * Runs the batch as one transaction (again after a conflict) and answers its callers; when the
   * store refuses it, answers no one and returns the refusal, the clearing rebuilt.
   */
  async #commitBatchOnce(batch: Pending[]): Promise<{ error: unknown } | undefined> {
    const now = toMillis(this.#deps.clock.now());
    for (let attempt = 1; ; attempt += 1) {
      let work: BatchWork;
      try {
        work = await runOwnedBatch(this.#deps.db, this.#deps.node.leaseMs, (trx) =>
          this.#write(trx, batch, now),
        );
      } catch (error) {
        if (error instanceof FencedError || this.#fenced) {
          this.fence();
          for (const pending of batch) pending.reject(new NotOwnerError(this.symbol));
          this.#onFenced(error instanceof FencedError ? error.reason : 'fenced');
          return;
        }
        try {
          await this.load();
        } catch (reload) {
          this.#deps.onError?.(reload, `rebuild perpetual ${this.symbol}`);
          this.fence();
          for (const pending of batch) pending.reject(new AppError('MARKET_UNAVAILABLE'));
          this.#onFenced('broken');
          return;
        }
        // why: only a refusal of what was written is isolated; a lost connection or a transaction
        // ended for idling is no command's fault: the whole batch is answered "try again".
        if (error instanceof AppError || error instanceof BrokenRule || isDataRefusal(error))
          return { error };
        if (!isTransactionConflict(error)) {
          this.#deps.onError?.(error, `perpetual batch on ${this.symbol}`);
          for (const pending of batch) pending.reject(new AppError('MARKET_UNAVAILABLE'));
          return;
        }
        if (attempt < TRANSACTION_ATTEMPTS) continue;
        for (const pending of batch) pending.reject(error);
        return;
      }
      for (const [i, pending] of batch.entries()) {
        const answer = work.answers[i]!;
        if (answer instanceof AppError) pending.reject(answer);
        else pending.resolve(answer);
      }
      this.#deps.onCommitted?.(this.symbol, work.results);
      if (work.event) {
        this.#deps.bus
          ?.publish(`${PERP_BATCH_SUBJECT}.${this.symbol}`, work.event)
          .catch((error) => this.#deps.onError?.(error, `publish perpetual ${this.symbol}`));
      }
      return;
    }
  }

  async #write(trx: Db, batch: Pending[], now: Millis): Promise<BatchWork> {
    const { ledger } = this.#deps;
    const clearing = this.#clearing;
    const quote = this.#market.quote;
    if (!(await repo.fenceMarket(trx, this.symbol, clearing.figures.seq, this.epoch)))
      throw new FencedError('fenced');
    const accounts = this.#accounts(batch);
    const balances = await ledger.balancesForUpdate(trx, [
      ...(batch.some((p) => p.command.kind === 'insurance')
        ? [{ owner: { system: 'treasury' } as Owner, asset: quote, kind: 'available' as const }]
        : []),
      // why: the market's own accounts, its fees' included: no row here is shared with another
      // market, so markets never wait on each other's batches (nor on a paused owner's).
      ...(['perp_fees', 'perp_settlement', 'perp_funding', 'perp_insurance'] as const).map((name) => ({
        owner: { system: `${name}:${this.symbol}` } as Owner,
        asset: quote,
        kind: 'available' as const,
      })),
      ...accounts.map((userId) => ({ owner: { userId }, asset: quote, kind: 'available' as const })),
    ]);
    const available = new Map(
      accounts.map((u) => [u, balances.get(balanceKey({ userId: u }, quote, 'available')) ?? 0n]),
    );
    const places = batch.flatMap((p) => (p.command.kind === 'place' ? [p.command] : []));
    const used = await repo.findUsedKeys(
      trx,
      places.map((c) => ({ userId: c.userId, key: c.key })),
    );
    const statuses = await this.#deps.users.tradingStatuses(trx, [...new Set(places.map((c) => c.userId))]);
    const records = new BatchRecords(this.symbol, this.#market.tick_size, now, this.#created);
    const answers: (PerpOutcome | AppError)[] = [];
    // why: a key used earlier in this batch is not in the store yet (perpetual.md §4b.7).
    const placed = new Map<string, { fingerprint: string; command: PerpCommand }>();
    const repeats = new Map<PerpOutcome, PerpCommand>();
    const margins = new Map<string, { symbol: string; direction: 'add' | 'remove'; amount: bigint }>();
    const results: CommandResult<unknown>[] = [];
    let configured: repo.PerpMarketRow | undefined;
    // why: told once; each command's moves keep the clearing's figures current for the next one.
    clearing.forgetAvailable();
    for (const [user, amount] of available) clearing.setAvailable(user, amount);
    for (const { command } of batch) {
      if (command.kind === 'place') {
        const owner = `${command.userId}|${command.key}`;
        const seen = used.get(owner);
        const earlier = placed.get(owner);
        // why: the same key with the same request answers as the first did and places nothing; with
        // another request it is refused. Orders kept before fingerprints (null) answer as before.
        const fingerprint = seen ? seen.fingerprint : earlier?.fingerprint;
        if (fingerprint !== undefined && fingerprint !== null && fingerprint !== command.fingerprint) {
          answers.push(new AppError('IDEMPOTENCY_KEY_REUSED'));
          continue;
        }
        if (seen) {
          answers.push({ orderIds: seen.ids, duplicate: true });
          continue;
        }
        if (earlier) {
          const answer: PerpOutcome = { orderIds: [], duplicate: true };
          repeats.set(answer, earlier.command);
          answers.push(answer);
          continue;
        }
        const status = statuses.get(command.userId);
        if (status !== 'ok') {
          answers.push(new AppError(status === 'banned' ? 'TRADING_BANNED' : 'SESSION_INVALID'));
          continue;
        }
        if ((configured ?? this.#market).status !== 'open' && command.input.reduceOnly !== true) {
          answers.push(new AppError('MARKET_NOT_OPEN'));
          continue;
        }
      }
      if (command.kind === 'margin') {
        const { key } = command;
        const first =
          key === undefined
            ? undefined
            : (margins.get(`${command.userId}|${key}`) ??
              (await repo.findMarginRequest(trx, command.userId, key)));
        if (first) {
          // why: the same key moves the margin once: a retry answers as the first did, moving
          // nothing; the same key with another market, direction or amount is refused.
          const same =
            first.symbol === this.symbol &&
            first.direction === command.direction &&
            first.amount === command.amount;
          answers.push(same ? { orderIds: [], duplicate: true } : new AppError('IDEMPOTENCY_KEY_REUSED'));
          continue;
        }
      }
      if (command.kind === 'fund' && (await repo.fundingExists(trx, this.symbol, command.at))) {
        answers.push({ orderIds: [] });
        continue;
      }
      if (command.kind === 'configure') {
        const before = configured ?? this.#market;
        configured = { ...before, ...command.values };
        await repo.updateMarket(trx, this.symbol, command.values, now);
        await this.#deps.audit.record(trx, {
          actor: command.staff.actor,
          action: 'perp.market.edit',
          target: `perp:${this.symbol}`,
          reason: command.reason,
          before: settingsOf(before),
          after: settingsOf(configured),
          ip: command.staff.ip,
        });
        this.#clearing = new PerpClearing(specOf(configured), this.#clearing.snapshot());
        answers.push({ orderIds: [] });
        continue;
      }
      if (command.kind === 'insurance') {
        const before = this.#clearing.figures.insurance;
        await ledger.post(trx, {
          type: 'perp.insurance',
          ref: `${this.symbol}:topup:${clearing.figures.seq}:${now}:${answers.length}`,
          memo: command.reason,
          by: command.staff.actor,
          postings: [
            { owner: { system: 'treasury' }, asset: quote, kind: 'available', amount: -command.amount },
            {
              owner: { system: `perp_insurance:${this.symbol}` },
              asset: quote,
              kind: 'available',
              amount: command.amount,
            },
          ],
        });
        this.#clearing.adjustInsurance(command.amount);
        await this.#deps.audit.record(trx, {
          actor: command.staff.actor,
          action: 'perp.insurance.fund',
          target: `perp:${this.symbol}`,
          reason: command.reason,
          before: { insurance: String(before) },
          after: { insurance: String(this.#clearing.figures.insurance) },
          ip: command.staff.ip,
        });
        records.insurance('topup', command.amount, this.#clearing.figures.insurance, command.staff.actor);
        answers.push({ orderIds: [] });
        continue;
      }
      if (command.kind === 'depth') {
        answers.push({ orderIds: [] });
        continue;
      }
      const result = this.#run(command);
      results.push(result);
      if (!result.ok) {
        answers.push(new AppError(result.error as ResultKey));
        continue;
      }
      if (command.kind === 'margin' && command.key !== undefined) {
        await repo.insertMarginRequest(trx, {
          user_id: command.userId,
          idempotency_key: command.key,
          symbol: this.symbol,
          direction: command.direction,
          amount: command.amount,
          created_at: now,
        });
        margins.set(`${command.userId}|${command.key}`, {
          symbol: this.symbol,
          direction: command.direction,
          amount: command.amount,
        });
      }
      if (command.kind === 'place') {
        const made = (result.value as PerpOrder[] | undefined) ?? [];
        for (const o of made) {
          this.#created.set(o.id, {
            at: now,
            key: command.key,
            fingerprint: command.fingerprint,
            ioc: command.ioc,
          });
        }
        placed.set(`${command.userId}|${command.key}`, { fingerprint: command.fingerprint, command });
      }
      records.add(result, command, this.#clearing.figures.insurance);
      answers.push({ orderIds: [] });
    }
    const ids = await repo.upsertOrders(trx, records.orderRows());
    for (const [i, { command }] of batch.entries()) {
      const answer = answers[i];
      if (answer instanceof AppError || !answer) continue;
      // why: a repeat within the batch answers the orders of its first; one of the store has its ids.
      const source = answer.duplicate ? repeats.get(answer) : command;
      if (!source) continue;
      const result = records.byCommand.get(source);
      answer.orderIds = (result?.made ?? [])
        .map((no) => ids.get(no))
        .filter((id): id is bigint => id !== undefined);
    }
    await repo.upsertPositions(trx, records.positionRows());
    await repo.saveLots(trx, this.symbol, records.lotRows(), records.closedLots);
    await repo.insertTrades(trx, records.trades);
    await repo.insertFundingPayments(trx, records.fundingPayments);
    await repo.insertLiquidations(trx, records.liquidations);
    for (const funding of records.fundings) await repo.insertFunding(trx, funding);
    await repo.insertInsuranceMoves(trx, records.insuranceMoves);
    const postings = records.postings(quote);
    if (postings.length > 0) {
      await ledger.post(trx, {
        type: 'perp.batch',
        ref: `${this.symbol}:${this.#clearing.figures.seq}`,
        memo: `${this.symbol} holds, fills, funding and liquidations`,
        by: 'system',
        postings,
      });
    }
    const figures = this.#clearing.figures;
    const tick = this.#market.tick_size;
    await repo.saveFigures(
      trx,
      this.symbol,
      {
        seq: figures.seq,
        next_order_no: figures.nextOrderId,
        next_position_no: figures.nextPositionId,
        mark: figures.mark * tick,
        last: figures.last * tick,
        frozen: figures.frozen ? 1n : 0n,
        insurance: figures.insurance,
        last_rate: records.lastRate ?? this.#market.last_rate,
      },
      now,
    );
    const market: repo.PerpMarketRow = {
      ...(configured ?? this.#market),
      seq: figures.seq,
      mark: figures.mark * tick,
      last: figures.last * tick,
      frozen: figures.frozen ? 1n : 0n,
      insurance: figures.insurance,
      last_rate: records.lastRate ?? this.#market.last_rate,
      next_order_no: figures.nextOrderId,
      next_position_no: figures.nextPositionId,
    };
    this.#market = market;
    for (const { command } of batch) if (command.kind === 'mark') this.#lastIndex = command.index;
    if (records.trades.some((t) => t.kind === 'trade')) this.#lastTradeAt = Number(now);
    for (const o of records.ended()) this.#created.delete(o);
    return { answers, results, event: records.event(figures.seq) };
  }

  #run(command: Exclude<PerpCommand, { kind: 'insurance' | 'configure' | 'depth' }>): CommandResult<unknown> {
    const c = this.#clearing;
    switch (command.kind) {
      case 'place':
        return c.place(command.input);
      case 'cancel':
        return c.cancel(command.userId, command.orderNo);
      case 'leverage':
        return c.setLeverage(command.userId, command.leverage);
      case 'stops':
        return c.attachStops(command.userId, command);
      case 'margin':
        return command.direction === 'add'
          ? c.addMargin(command.userId, command.amount)
          : c.removeMargin(command.userId, command.amount);
      case 'mark':
        return c.mark(command.mark);
      case 'freeze':
        return c.freeze();
      case 'fund':
        return c.fund(command.rate, command.mark);
    }
  }

  /** The users whose available balances the batch may take from. */
  #accounts(batch: Pending[]): bigint[] {
    const users = new Set<bigint>();
    for (const { command } of batch) {
      if ('userId' in command) users.add(command.userId);
      // why: a funding payer whose margin falls short pays the rest from available; a fill of a
      // resting order never takes from available, and a liquidation only pays into it.
      if (command.kind === 'fund')
        for (const p of this.#clearing.positions()) if (p.qty !== 0n) users.add(p.userId);
    }
    return [...users].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

interface BatchWork {
  answers: (PerpOutcome | AppError)[];
  results: CommandResult<unknown>[];
  event: PerpBatchEvent | null;
}

/** A market's settings as the audit log records them. */
function settingsOf(m: repo.PerpMarketRow) {
  return {
    makerRate: String(m.maker_rate),
    takerRate: String(m.taker_rate),
    bandRate: String(m.band_rate),
    markClamp: String(m.mark_clamp),
    status: m.status,
  };
}
