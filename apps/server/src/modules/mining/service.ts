import { randomBytes } from 'node:crypto';
import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { MiningOrder, MiningProduct } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import type { MiningIncome } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService, Owner } from '../ledger/service.ts';
import { seedMiningDemo } from './demo.ts';
import * as repo from './repository.ts';
import { type MiningActor, type ProductTerms, validateTerms } from './terms.ts';

export const DAY_MS = 86_400_000;
const BP = 10_000n;
const ATOMS = 100_000_000n;
/** Most revenues one run releases; the next run goes on. */
const BATCH = 1000;
/** Days a pool should cover before the back office warns. */
export const POOL_WARNING_DAYS = 7;
/** Name of the module's source of open reservations (unreleased output, kind `mining`). */
export const RESERVATION = 'mining.unreleased';

export interface MiningDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  /** The recorded index (income by output value is converted at the tick at or after 00:00). */
  index: {
    firstTickAtOrAfter(
      db: Db,
      symbol: string,
      at: number,
    ): Promise<{ price: bigint; at: number; source: string } | undefined>;
  };
  users: {
    getAccount(userId: bigint, db?: Db): Promise<{ tradeBanned: boolean; status: string } | undefined>;
  };
  settings: {
    get(key: string, db?: Db): Promise<string | undefined>;
    set(trx: Db, key: string, value: string): Promise<void>;
  };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
}

const pool = (coin: string): Owner => ({ system: `mining_pool:${coin}` });
const SALES: Owner = { system: 'mining_sales' };
const TREASURY: Owner = { system: 'treasury' };

/** The first 00:00 (UTC) strictly after `at`. */
export function nextMidnight(at: number): number {
  return at - (at % DAY_MS) + DAY_MS;
}

/** A day's output for a share: constant q·s/10,000, or by value floor(floor(V·10^8/P)·s/10,000). */
export function dailyOutput(
  product: { income_type: MiningIncome; daily_q: bigint; daily_value: bigint },
  shareBp: bigint,
  price?: bigint,
): bigint {
  if (product.income_type === 'constant') return (product.daily_q * shareBp) / BP;
  if (!price || price <= 0n) return 0n;
  return (((product.daily_value * ATOMS) / price) * shareBp) / BP;
}

/** What `getProduct` can answer besides the codes every route can. */
export const GET_PRODUCT_ERRORS = [
  'RECORD_NOT_FOUND',
  'MINE_NOT_SHARED',
] as const satisfies readonly ResultKey[];

/** What `buy` can answer besides the codes every route can. */
export const BUY_ERRORS = [
  'TERMS_NOT_ACCEPTED',
  'MINE_PAUSED',
  'MINE_SOLD_OUT',
  'MINE_NOT_SHARED',
  'MINE_SHARE_INVALID',
  'MINE_PLATFORM_COIN',
  'MINE_REFERRALS',
  'MINE_REPEAT',
  'USDT_INSUFFICIENT',
  'TRADING_BANNED',
  'ILLEGAL_OPERATION',
  'PLEASE_LOGIN',
  'BALANCE_INSUFFICIENT',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/** What `createProduct` can answer besides the codes every route can. */
export const CREATE_PRODUCT_ERRORS = ['MINE_PRODUCT_INVALID'] as const satisfies readonly ResultKey[];

/** What `setStatus` can answer besides the codes every route can. */
export const SET_STATUS_ERRORS = [
  'RECORD_NOT_FOUND',
  'MINE_NOT_EDITABLE',
] as const satisfies readonly ResultKey[];

/** What `fundPool` can answer besides the codes every route can. */
export const FUND_POOL_ERRORS = [
  'AMOUNT_INVALID',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'COIN_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/**
 * The mining market (products §3): machines sold whole or in shares up to a fixed capacity,
 * output paid each UTC day from the operator-funded pool of its coin (nothing when the pool
 * cannot cover the day: the product shows stopped and every running order is extended a day),
 * frozen in `mining` and released after the delay. Owner of `mining_products`,
 * `mining_instances`, `mining_orders`, `mining_revenues` and `mining_days`. Referrals never raise
 * output; no route sets what was sold or earned.
 */
export class MiningService {
  readonly #deps: MiningDeps;

  constructor(deps: MiningDeps) {
    this.#deps = deps;
    deps.ledger.addReservationSource(RESERVATION, (db, users) => repo.unreleasedByUser(db, users), 'mining');
  }

  // --- staff ------------------------------------------------------------------------------------------

  /** A draft product (audited); its price is the sum of its fees. */
  async createProduct(staff: MiningActor, terms: ProductTerms): Promise<bigint> {
    validateTerms(terms);
    const { db, clock, audit } = this.#deps;
    return db.transaction().execute(async (trx) => {
      const id = await repo.insertProduct(trx, {
        name: terms.name,
        type: terms.type,
        unit_price: terms.feeHashrate + BigInt(terms.days) * terms.feeElectricityDay + terms.feeManagement,
        fee_hashrate: terms.feeHashrate,
        fee_electricity_day: terms.feeElectricityDay,
        fee_management: terms.feeManagement,
        coin: terms.coin,
        income_type: terms.incomeType,
        daily_q: terms.dailyQ,
        daily_value: terms.dailyValue,
        days: BigInt(terms.days),
        capacity: BigInt(terms.capacity),
        min_share_bp: BigInt(terms.type === 'sole' ? 10_000 : terms.minShareBp),
        step_bp: BigInt(terms.type === 'sole' ? 10_000 : terms.stepBp),
        hold_coin: terms.holdCoin,
        min_hold: terms.minHold,
        min_referrals: BigInt(terms.minReferrals),
        max_orders: BigInt(terms.maxOrders),
        release_delay_days: BigInt(terms.releaseDelayDays),
        status: 'draft',
        created_at: toMillis(clock.now()),
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'mining.create',
        target: `mining:${id}`,
        after: terms,
        ip: staff.ip,
      });
      return id;
    });
  }

  /** Opens a draft for sale, pauses or resumes sales (audited). Capacity is fixed from here on. */
  async setStatus(staff: MiningActor, id: bigint, status: 'normal' | 'paused'): Promise<void> {
    const { db, audit } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const product = await repo.lockProduct(trx, id);
      if (!product) throw new AppError('RECORD_NOT_FOUND');
      if (product.status === 'expired') throw new AppError('MINE_NOT_EDITABLE');
      await repo.setProductStatus(trx, id, status);
      await audit.record(trx, {
        actor: staff.actor,
        action: status === 'normal' ? 'mining.open' : 'mining.pause',
        target: `mining:${id}`,
        before: { status: product.status },
        after: { status },
        ip: staff.ip,
      });
    });
  }

  /** Funds a coin's pool from the treasury (a ledger entry, audited). */
  async fundPool(staff: MiningActor, coin: string, amount: bigint, key: string): Promise<void> {
    if (amount <= 0n) throw new AppError('AMOUNT_INVALID');
    const { db, audit, ledger } = this.#deps;
    await db.transaction().execute(async (trx) => {
      await ledger.post(trx, {
        type: 'mining.fund',
        ref: `mining-fund:${key}`,
        memo: `pool ${coin}`,
        by: staff.actor,
        postings: [
          { owner: TREASURY, asset: coin, kind: 'available', amount: -amount },
          { owner: pool(coin), asset: coin, kind: 'available', amount },
        ],
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'mining.fund',
        target: `pool:${coin}`,
        after: { amount },
        ip: staff.ip,
      });
    });
  }

  /** Each output coin's pool: balance, what a day of today's running orders needs, days covered. */
  async pools(): Promise<
    { coin: string; balance: string; daily: string; days_covered: number | null; warning: boolean }[]
  > {
    const { db, clock, ledger } = this.#deps;
    const coins = [...new Set((await repo.listProducts(db)).map((p) => p.coin))];
    const today = clock.now() - (clock.now() % DAY_MS);
    const out = [];
    for (const coin of coins) {
      const balance = await ledger.balance(db, pool(coin), coin, 'available');
      const tick = await this.#deps.index.firstTickAtOrAfter(db, `${coin}USDT`, today);
      let daily = 0n;
      for (const order of await repo.listRunningOrders(db, coin, toMillis(today))) {
        daily += dailyOutput(order, order.share_bp, tick?.price);
      }
      const covered = daily > 0n ? Number(balance / daily) : null;
      out.push({
        coin,
        balance: fromAtoms(balance),
        daily: fromAtoms(daily),
        days_covered: covered,
        warning: covered !== null && covered < POOL_WARNING_DAYS,
      });
    }
    return out;
  }

  /** The latest orders with what each has earned (released and frozen), for the back office. */
  async listOrdersForStaff() {
    const rows = await repo.listOrdersForStaff(this.#deps.db, 200);
    return rows.map((r) => ({
      id: String(r.id),
      user_id: String(r.user_id),
      username: r.username,
      product: r.name,
      coin: r.coin,
      share_bp: Number(r.share_bp),
      price: fromAtoms(r.price),
      start_at: fromMillis(r.start_at),
      expire_at: fromMillis(r.expire_at),
      stopped_days: Number(r.stopped_days),
      earned: fromAtoms(BigInt(r.earned ?? 0)),
      frozen: fromAtoms(BigInt(r.frozen ?? 0)),
    }));
  }

  // --- customer ---------------------------------------------------------------------------------------

  /** Products on sale or sold (not drafts): price, daily output, days, capacity left, status. */
  async listProducts() {
    const { db } = this.#deps;
    const [products, sold] = await Promise.all([repo.listProducts(db), repo.soldByProduct(db)]);
    const out = [];
    for (const p of products) {
      if (p.status === 'draft') continue;
      out.push(await this.#view(p, sold.get(p.id)));
    }
    return out;
  }

  async getProduct(id: bigint, share?: string) {
    const { db } = this.#deps;
    const product = await repo.findProduct(db, id);
    if (!product || product.status === 'draft') throw new AppError('RECORD_NOT_FOUND');
    const view = await this.#view(product, (await repo.soldByProduct(db)).get(id));
    let shareInfo: { code: string; left_bp: number } | null = null;
    if (share) {
      const instance = await repo.findInstanceByCode(db, share);
      if (instance?.product_id === id) shareInfo = { code: share, left_bp: Number(BP - instance.sold_bp) };
    }
    return { ...view, share: shareInfo };
  }

  async #view(
    p: repo.ProductRow,
    sold: { instances: bigint; soldBp: bigint } | undefined,
  ): Promise<MiningProduct> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    const tick = await this.#deps.index.firstTickAtOrAfter(db, `${p.coin}USDT`, now - (now % DAY_MS));
    const expected = dailyOutput(p, BP, tick?.price);
    const total = expected * p.days;
    const last = await repo.lastDay(db, p.coin);
    const soldBp = sold?.soldBp ?? 0n;
    const capacityBp = p.capacity * BP;
    return {
      id: String(p.id),
      name: p.name,
      type: p.type,
      coin: p.coin,
      income_type: p.income_type,
      price: fromAtoms(p.unit_price),
      fees: {
        hashrate: fromAtoms(p.fee_hashrate),
        electricity_day: fromAtoms(p.fee_electricity_day),
        electricity_total: fromAtoms(p.fee_electricity_day * p.days),
        management: fromAtoms(p.fee_management),
      },
      daily_output: fromAtoms(expected),
      daily_value: fromAtoms(p.daily_value),
      days: Number(p.days),
      capacity: Number(p.capacity),
      capacity_left: fromAtoms(((capacityBp - soldBp) * ATOMS) / BP),
      /** USDT per coin at which the machine pays back its price: price ÷ expected coins. */
      break_even: total > 0n ? fromAtoms((p.unit_price * ATOMS) / total) : null,
      min_share_bp: Number(p.min_share_bp),
      step_bp: Number(p.step_bp),
      hold_coin: p.hold_coin,
      min_hold: fromAtoms(p.min_hold),
      min_referrals: Number(p.min_referrals),
      max_orders: Number(p.max_orders),
      release_delay_days: Number(p.release_delay_days),
      status:
        p.status === 'paused'
          ? 'paused'
          : p.status === 'expired'
            ? 'expired'
            : last?.status === 'stopped'
              ? 'stopped'
              : soldBp >= capacityBp
                ? 'sold_out'
                : 'normal',
    };
  }

  /**
   * Buys a whole machine, a share of a new shared machine, or (with `shareCode`) a share of the
   * machine its first buyer shares. Refused with the spec's messages; the same idempotency key
   * answers the first order again. Σ sold never passes the capacity: every purchase of a product
   * holds its row lock while it counts.
   */
  async buy(
    auth: AuthContext,
    input: { productId: bigint; shareBp: number; shareCode?: string; idempotencyKey: string },
  ) {
    const { db, clock, ledger } = this.#deps;
    const userId = auth.userId;
    const previous = await repo.findOrderByKey(db, userId, input.idempotencyKey);
    if (previous) return this.#orderView(previous);
    const account = await this.#deps.users.getAccount(userId);
    if (!account) throw new AppError('PLEASE_LOGIN');
    if (account.tradeBanned || account.status !== 'active') throw new AppError('TRADING_BANNED');
    await this.#deps.termsGate.requireAccepted(userId);
    const now = clock.now();
    let orderId: bigint;
    try {
      orderId = await db.transaction().execute(async (trx) => {
        const product = await repo.lockProduct(trx, input.productId);
        if (product?.status !== 'normal') throw new AppError('MINE_PAUSED');
        if ((await repo.countUserOrders(trx, userId, product.id)) >= product.max_orders)
          throw new AppError('MINE_REPEAT');
        if (product.min_hold > 0n) {
          const held =
            (await ledger.balance(trx, { userId }, product.hold_coin, 'available')) +
            (await ledger.balance(trx, { userId }, product.hold_coin, 'locked'));
          if (held < product.min_hold) throw new AppError('MINE_PLATFORM_COIN');
        }
        if (
          product.min_referrals > 0n &&
          (await repo.verifiedDirectReferrals(trx, userId)) < product.min_referrals
        )
          throw new AppError('MINE_REFERRALS');
        const share = product.type === 'sole' ? BP : BigInt(input.shareBp);
        let instanceId: bigint;
        if (input.shareCode) {
          if (product.type !== 'shared') throw new AppError('MINE_NOT_SHARED');
          const instance = await repo.findInstanceByCode(trx, input.shareCode);
          if (instance?.product_id !== product.id) throw new AppError('MINE_NOT_SHARED');
          const left = BP - instance.sold_bp;
          if (share < product.min_share_bp || share % product.step_bp !== 0n || share > left)
            throw new AppError('MINE_SHARE_INVALID', { left: `${Number(left) / 100}%` });
          await repo.addSold(trx, instance.id, share);
          instanceId = instance.id;
        } else {
          if (share < product.min_share_bp || share % product.step_bp !== 0n || share > BP)
            throw new AppError('MINE_SHARE_INVALID', { left: '100%' });
          const started = (await repo.soldByProduct(trx)).get(product.id)?.instances ?? 0n;
          if (started >= product.capacity) throw new AppError('MINE_SOLD_OUT');
          instanceId = await repo.insertInstance(trx, {
            product_id: product.id,
            sold_bp: share,
            share_code: randomBytes(9).toString('base64url'),
            created_at: toMillis(now),
          });
        }
        const price = (product.unit_price * share + BP - 1n) / BP;
        const start = nextMidnight(now);
        const id = await repo.insertOrder(trx, {
          user_id: userId,
          product_id: product.id,
          instance_id: instanceId,
          share_bp: share,
          price,
          start_at: toMillis(start),
          expire_at: toMillis(start + Number(product.days) * DAY_MS),
          idempotency_key: input.idempotencyKey,
          created_at: toMillis(now),
        });
        try {
          await ledger.post(trx, {
            type: 'mining.buy',
            ref: `mining-order:${id}`,
            memo: product.name,
            by: `user:${userId}`,
            postings: [
              { owner: { userId }, asset: 'USDT', kind: 'available', amount: -price },
              { owner: SALES, asset: 'USDT', kind: 'available', amount: price },
            ],
          });
        } catch (error) {
          if (error instanceof AppError && error.key === 'BALANCE_INSUFFICIENT')
            throw new AppError('USDT_INSUFFICIENT');
          throw error;
        }
        return id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const again = await repo.findOrderByKey(db, userId, input.idempotencyKey);
        if (again) return this.#orderView(again);
      }
      throw error;
    }
    const order = await repo.findOrder(db, orderId);
    if (!order) throw new AppError('RECORD_NOT_FOUND');
    return this.#orderView(order);
  }

  async #orderView(order: repo.OrderRow): Promise<MiningOrder> {
    const { db, clock } = this.#deps;
    const instance = await repo.findInstance(db, order.instance_id);
    const product = await repo.findProduct(db, order.product_id);
    const now = clock.now();
    const last = product ? await repo.lastDay(db, product.coin) : undefined;
    const status: MiningOrder['status'] =
      now < fromMillis(order.start_at)
        ? 'waiting'
        : now >= fromMillis(order.expire_at)
          ? 'expired'
          : last?.status === 'stopped'
            ? 'stopped'
            : 'normal';
    return {
      id: String(order.id),
      product_id: String(order.product_id),
      name: product?.name ?? '',
      coin: product?.coin ?? '',
      share_bp: Number(order.share_bp),
      price: fromAtoms(order.price),
      start_at: fromMillis(order.start_at),
      expire_at: fromMillis(order.expire_at),
      stopped_days: Number(order.stopped_days),
      status,
      // why: the first buyer of a shared machine sells the rest of it through this code.
      share_code:
        product?.type === 'shared' && instance && instance.sold_bp < BP ? instance.share_code : null,
    };
  }

  async listOrders(userId: bigint) {
    const rows = await repo.listUserOrders(this.#deps.db, userId);
    return Promise.all(rows.map((row) => this.#orderView(row)));
  }

  /** The user's output, newest day first: amount, the price used (by value), released or not. */
  async listRevenues(userId: bigint, page: HistoryPage) {
    const { db } = this.#deps;
    // why: the list runs by day, and a later day's rows may have lower ids (each coin's days are
    // accrued in turn, and one waiting for its index catches up later), so a cursor goes below its
    // own row's (day, id); a row that is not the caller's places nothing.
    const below =
      page.before === undefined ? undefined : await repo.findUserRevenueKey(db, userId, page.before);
    if (page.before !== undefined && !below) throw new AppError('PARAM_ERROR');
    const { limit, offset } = historyWindow(page);
    const rows = await repo.listUserRevenues(db, userId, { limit, offset, below });
    const { list, has_more } = historyAnswer(rows, page, (r) => ({
      id: String(r.id),
      order_id: String(r.order_id),
      name: r.name,
      day: fromMillis(r.day),
      coin: r.coin,
      amount: fromAtoms(r.amount),
      price_used: r.price_used === null ? null : fromAtoms(r.price_used),
      price_source: r.price_source,
      release_at: fromMillis(r.release_at),
      released: r.released_at !== null,
    }));
    return { list, has_more };
  }

  /** The user's output per coin and day with the running total: the profit curve. */
  async profitLine(userId: bigint) {
    const rows = await repo.dailyOutput(this.#deps.db, userId);
    const byCoin = new Map<string, { day: number; amount: string; total: string }[]>();
    const totals = new Map<string, bigint>();
    for (const row of rows) {
      const total = (totals.get(row.coin) ?? 0n) + BigInt(row.amount);
      totals.set(row.coin, total);
      const points = byCoin.get(row.coin) ?? [];
      points.push({
        day: fromMillis(row.day),
        amount: fromAtoms(BigInt(row.amount)),
        total: fromAtoms(total),
      });
      byCoin.set(row.coin, points);
    }
    return { series: [...byCoin].map(([coin, points]) => ({ coin, points })) };
  }

  // --- demo ---------------------------------------------------------------------------------------------

  /** Demo mode, once: two machines and their pools funded (see demo.ts). */
  seedDemo(): Promise<boolean> {
    return seedMiningDemo(this, this.#deps);
  }

  // --- the midnight job --------------------------------------------------------------------------------

  /** Accrues every whole day not yet handled, then releases what is due. Restart-safe. */
  async runJobs(): Promise<{ days: number; released: number }> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    const today = now - (now % DAY_MS);
    let days = 0;
    for (const { coin, first } of await repo.firstStarts(db)) {
      const last = await repo.lastDay(db, coin);
      for (
        let day = last ? fromMillis(last.day) + DAY_MS : fromMillis(BigInt(first));
        day < today;
        day += DAY_MS
      ) {
        const done = await this.accrueDay(coin, day);
        if (done === 'waiting') break;
        days += 1;
      }
    }
    return { days, released: await this.releaseDue() };
  }

  /**
   * One coin's day `[day, day + 1d)`, once (`mining_days` records it): every running order's output
   * from the pool into `mining`, one revenue row each; or, when the pool cannot cover the whole day,
   * nothing, the day stopped and every running order a day longer. `waiting` when income by value
   * has no recorded index at the closing 00:00 yet.
   */
  async accrueDay(coin: string, day: number): Promise<'paid' | 'stopped' | 'done' | 'waiting'> {
    const { db, clock, ledger } = this.#deps;
    const end = day + DAY_MS;
    const orders = await repo.listRunningOrders(db, coin, toMillis(day));
    const needsPrice = orders.some((o) => o.income_type === 'value');
    const tick = needsPrice ? await this.#deps.index.firstTickAtOrAfter(db, `${coin}USDT`, end) : undefined;
    if (needsPrice && !tick) return 'waiting';
    return db.transaction().execute(async (trx) => {
      const last = await repo.lastDay(trx, coin);
      if (last && fromMillis(last.day) >= day) return 'done';
      const running = await repo.listRunningOrders(trx, coin, toMillis(day));
      const outputs = running.map((o) => ({ order: o, amount: dailyOutput(o, o.share_bp, tick?.price) }));
      const needed = outputs.reduce((s, o) => s + o.amount, 0n);
      const held = await ledger.balance(trx, pool(coin), coin, 'available');
      const now = toMillis(clock.now());
      if (held < needed) {
        for (const { order } of outputs) await repo.extendOrder(trx, order.id, BigInt(DAY_MS));
        await repo.insertDay(trx, { coin, day: toMillis(day), status: 'stopped', needed, created_at: now });
        return 'stopped';
      }
      for (const { order, amount } of outputs) {
        const revenueId = await repo.insertRevenue(trx, {
          order_id: order.id,
          user_id: order.user_id,
          day: toMillis(day),
          coin,
          price_used: order.income_type === 'value' ? (tick?.price ?? null) : null,
          price_source: order.income_type === 'value' ? (tick?.source ?? null) : null,
          amount,
          release_at: toMillis(end + Number(order.release_delay_days) * DAY_MS),
        });
        if (amount > 0n) {
          await ledger.post(trx, {
            type: 'mining.output',
            ref: `mining-revenue:${revenueId}`,
            postings: [
              { owner: pool(coin), asset: coin, kind: 'available', amount: -amount },
              { owner: { userId: order.user_id }, asset: coin, kind: 'mining', amount },
            ],
          });
        }
      }
      await repo.insertDay(trx, { coin, day: toMillis(day), status: 'paid', needed, created_at: now });
      return 'paid';
    });
  }

  /** Releases each day's output once its delay has passed (`mining` → `available`, once each). */
  async releaseDue(): Promise<number> {
    const { db, clock, ledger } = this.#deps;
    const now = toMillis(clock.now());
    let released = 0;
    for (const revenue of await repo.listDueRevenues(db, now, BATCH)) {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.markReleased(trx, revenue.id, now))) return;
        if (revenue.amount > 0n) {
          await ledger.post(trx, {
            type: 'mining.release',
            ref: `mining-release:${revenue.id}`,
            postings: [
              {
                owner: { userId: revenue.user_id },
                asset: revenue.coin,
                kind: 'mining',
                amount: -revenue.amount,
              },
              {
                owner: { userId: revenue.user_id },
                asset: revenue.coin,
                kind: 'available',
                amount: revenue.amount,
              },
            ],
          });
        }
        released += 1;
      });
    }
    return released;
  }
}
