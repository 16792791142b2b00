import { LIVE_CONTRACT_STATUSES } from '@bourse/shared/api';
import { sql } from 'kysely';
import type { Db, UserRange } from '../../platform/db.ts';
import type {
  ContractResultValue,
  ContractStatusValue,
  DeliveryContractsTable,
  Millis,
} from '../../platform/schema.ts';

/**
 * Queries of the delivery module's tables (`delivery_products`, `delivery_periods`,
 * `delivery_contracts`, `trial_grant_plans`, `trial_grants`): plain functions of a db or
 * transaction. A contract's prices, times and outcome are written by `insertContract` and, once,
 * by `settleContract`; no other statement touches them.
 */

// --- products ---------------------------------------------------------------------------------

export function listProducts(db: Db) {
  return db.selectFrom('delivery_products').selectAll().orderBy('symbol').execute();
}

export function listPeriods(db: Db, symbol?: string) {
  let query = db.selectFrom('delivery_periods').selectAll();
  if (symbol) query = query.where('symbol', '=', symbol);
  return query.orderBy('symbol').orderBy('seconds').execute();
}

export function findProduct(db: Db, symbol: string) {
  return db.selectFrom('delivery_products').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

/**
 * Reads a product while taking its row lock (a no-op update): placements on one market then run
 * one after another, so the exposure they check cannot be exceeded by a concurrent burst.
 */
export function lockProduct(db: Db, symbol: string) {
  return db
    .updateTable('delivery_products')
    .set({ max_exposure: sql`max_exposure` })
    .where('symbol', '=', symbol)
    .returningAll()
    .executeTakeFirst();
}

export async function upsertProduct(
  db: Db,
  product: { symbol: string; status: 'open' | 'closed'; max_exposure: bigint; updated_at: Millis },
): Promise<void> {
  await db
    .insertInto('delivery_products')
    .values(product)
    .onConflict((oc) =>
      oc.column('symbol').doUpdateSet({
        status: product.status,
        max_exposure: product.max_exposure,
        updated_at: product.updated_at,
      }),
    )
    .execute();
}

export async function insertMissingProduct(
  db: Db,
  product: { symbol: string; status: 'open' | 'closed'; max_exposure: bigint; updated_at: Millis },
): Promise<boolean> {
  const rows = await db
    .insertInto('delivery_products')
    .values(product)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .returning('symbol')
    .execute();
  return rows.length > 0;
}

export async function replacePeriods(
  db: Db,
  symbol: string,
  periods: { seconds: bigint; ratio_bps: bigint; min_amount: bigint; max_amount: bigint }[],
): Promise<void> {
  await db.deleteFrom('delivery_periods').where('symbol', '=', symbol).execute();
  if (periods.length === 0) return;
  await db
    .insertInto('delivery_periods')
    .values(periods.map((p) => ({ symbol, ...p })))
    .execute();
}

// --- contracts --------------------------------------------------------------------------------

export type ContractRow = Omit<DeliveryContractsTable, 'id'> & { id: bigint };

export async function insertContract(db: Db, values: Omit<ContractRow, 'id'>): Promise<bigint> {
  const row = await db
    .insertInto('delivery_contracts')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findContract(db: Db, id: bigint): Promise<ContractRow | undefined> {
  return db.selectFrom('delivery_contracts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findContractByKey(db: Db, userId: bigint, key: string): Promise<ContractRow | undefined> {
  return db
    .selectFrom('delivery_contracts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Contracts newest first: `limit` of them after `offset`, below the id `beforeId` when given. */
export function listContracts(
  db: Db,
  filter: {
    userId?: bigint;
    statuses?: readonly ContractStatusValue[];
    symbol?: string;
    funding?: 'real' | 'trial';
    limit: number;
    offset: number;
    beforeId?: bigint;
  },
): Promise<ContractRow[]> {
  const newestFirst = (status?: ContractStatusValue) => {
    let query = db.selectFrom('delivery_contracts').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (status !== undefined) query = query.where('status', '=', status);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
    if (filter.funding) query = query.where('funding', '=', filter.funding);
    return query.orderBy('id', 'desc');
  };
  const statuses = filter.statuses;
  if (statuses === undefined || statuses.length === 1) {
    return newestFirst(statuses?.[0]).limit(filter.limit).offset(filter.offset).execute();
  }
  if (statuses.length === 0) return Promise.resolve([]);
  // why: `status in (…)` ordered by id made the store read every contract of those statuses (a
  // customer's settled tab: all their history) and sort them. Each status is instead one seek on
  // (user_id, status, id) or (status, id), newest first, stopped after the rows the page can
  // reach; only those are merged and sorted.
  const reach = filter.offset + filter.limit;
  const [first, ...rest] = statuses.map((status) =>
    db.selectFrom(newestFirst(status).limit(reach).as(status)).selectAll(),
  );
  return first.unionAll(rest).orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/** Open (and settling) contracts due at `now`, the earliest first. */
export function listDueContracts(db: Db, now: Millis, limit: number): Promise<ContractRow[]> {
  return db
    .selectFrom('delivery_contracts')
    .selectAll()
    .where('status', 'in', ['open', 'settling'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Sum of the amounts of open (and settling) contracts on a market in one direction. */
export async function sumOpenAmount(db: Db, symbol: string, direction: 'up' | 'down'): Promise<bigint> {
  const row = await db
    .selectFrom('delivery_contracts')
    .select(sql<bigint>`cast(coalesce(sum(amount), 0) as bigint)`.as('total'))
    .where('symbol', '=', symbol)
    .where('direction', '=', direction)
    .where('status', 'in', LIVE_CONTRACT_STATUSES)
    .executeTakeFirstOrThrow();
  return BigInt(row.total);
}

/** Contracts waiting for their opening tick, the earliest accepted first. */
export function listOpeningContracts(db: Db, limit: number): Promise<ContractRow[]> {
  return db
    .selectFrom('delivery_contracts')
    .selectAll()
    .where('status', '=', 'opening')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Opens an `opening` contract on its opening tick, once; false when it was no longer opening. */
export async function openContract(
  db: Db,
  id: bigint,
  values: {
    open_price: bigint;
    open_price_at: Millis;
    open_source: string;
    open_constituents: string;
    expires_at: Millis;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('delivery_contracts')
    .set({ ...values, status: 'open' })
    .where('id', '=', id)
    .where('status', '=', 'opening')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks a due open contract as waiting for its closing tick; false when it was not open. */
export async function markSettling(db: Db, id: bigint): Promise<boolean> {
  const result = await db
    .updateTable('delivery_contracts')
    .set({ status: 'settling' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Writes a contract's outcome, once: only a contract still open or settling is changed, so a
 * second settlement (another node, a retry) changes nothing and answers false.
 */
export async function settleContract(
  db: Db,
  id: bigint,
  values: {
    status: 'settled' | 'closed';
    result: ContractResultValue;
    close_price: bigint | null;
    close_at: Millis | null;
    close_source: string | null;
    close_constituents: string | null;
    payout: bigint;
    profit: bigint;
    settled_at: Millis;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('delivery_contracts')
    .set(values)
    .where('id', '=', id)
    .where('status', 'in', LIVE_CONTRACT_STATUSES)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Per user, the amounts of open (and settling) contracts of one funding: what is held for them. */
export function sumOpenByUser(db: Db, funding: 'real' | 'trial', users: UserRange) {
  return db
    .selectFrom('delivery_contracts')
    .select(['user_id', sql<bigint>`cast(sum(amount) as bigint)`.as('total')])
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .where('funding', '=', funding)
    .where('status', 'in', LIVE_CONTRACT_STATUSES)
    .groupBy('user_id')
    .execute();
}

/** Open exposure per market and direction. */
export function listExposure(db: Db) {
  return db
    .selectFrom('delivery_contracts')
    .select([
      'symbol',
      'direction',
      sql<bigint>`count(*)`.as('count'),
      sql<bigint>`cast(sum(amount) as bigint)`.as('open'),
      sql<bigint>`cast(sum(amount + (amount * ratio_bps) / 10000) as bigint)`.as('payout'),
    ])
    .where('status', 'in', LIVE_CONTRACT_STATUSES)
    .groupBy(['symbol', 'direction'])
    .execute();
}

/** Settled and closed contracts per market, funding and result, settled in [from, to]. */
export async function summarizeSettled(db: Db, range: { from?: Millis; to?: Millis }) {
  // why: whole days come from the per-day figures kept as contracts settle; only the contracts
  // of a partial first and last day are grouped, found through the `settled_at` index.
  const from = range.from;
  const to = range.to;
  const firstDay =
    from === undefined ? undefined : from - (from % DAY_MS) + (from % DAY_MS === 0n ? 0n : DAY_MS);
  // why: the first day not wholly inside the range (`to` is inclusive).
  const endDay = to === undefined ? undefined : to + 1n - ((to + 1n) % DAY_MS);
  const parts: SettledGroup[][] = [];
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    parts.push(await groupSettled(db, from, to));
  } else {
    let days = db
      .selectFrom('delivery_pnl_days')
      .select([
        'symbol',
        'funding',
        'result',
        sql<bigint>`cast(sum(count) as bigint)`.as('count'),
        sql<bigint>`cast(sum(amount) as bigint)`.as('amount'),
        sql<bigint>`cast(sum(profit) as bigint)`.as('profit'),
      ]);
    if (firstDay !== undefined) days = days.where('day', '>=', firstDay);
    if (endDay !== undefined) days = days.where('day', '<', endDay);
    parts.push(await days.groupBy(['symbol', 'funding', 'result']).execute());
    if (from !== undefined && firstDay !== undefined && from < firstDay)
      parts.push(await groupSettled(db, from, firstDay - 1n));
    if (to !== undefined && endDay !== undefined && endDay <= to)
      parts.push(await groupSettled(db, endDay, to));
  }
  const merged = new Map<string, SettledGroup>();
  for (const row of parts.flat()) {
    const key = `${row.symbol}|${row.funding}|${row.result}`;
    const line = merged.get(key);
    if (!line) merged.set(key, { ...row });
    else {
      line.count = BigInt(line.count) + BigInt(row.count);
      line.amount = BigInt(line.amount ?? 0n) + BigInt(row.amount ?? 0n);
      line.profit = BigInt(line.profit ?? 0n) + BigInt(row.profit ?? 0n);
    }
  }
  return [...merged.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

const DAY_MS = 86_400_000n;

interface SettledGroup {
  symbol: string;
  funding: string;
  result: string | null;
  count: bigint;
  amount: bigint | null;
  profit: bigint | null;
}

/** Settled contracts in [from, to] grouped by market, funding and result. */
function groupSettled(db: Db, from: Millis | undefined, to: Millis | undefined): Promise<SettledGroup[]> {
  let query = db
    .selectFrom('delivery_contracts')
    .select([
      'symbol',
      'funding',
      'result',
      sql<bigint>`count(*)`.as('count'),
      sql<bigint>`cast(sum(amount) as bigint)`.as('amount'),
      sql<bigint>`cast(sum(profit) as bigint)`.as('profit'),
    ])
    .where('status', 'in', ['settled', 'closed']);
  if (from !== undefined) query = query.where('settled_at', '>=', from);
  if (to !== undefined) query = query.where('settled_at', '<=', to);
  return query.groupBy(['symbol', 'funding', 'result']).execute();
}

/** Adds a contract settled in `trx` to its day's figures (the same transaction as its outcome). */
export async function addToPnlDay(
  db: Db,
  row: { settledAt: Millis; symbol: string; funding: string; result: string; amount: bigint; profit: bigint },
): Promise<void> {
  await db
    .insertInto('delivery_pnl_days')
    .values({
      day: row.settledAt - (row.settledAt % DAY_MS),
      symbol: row.symbol,
      funding: row.funding,
      result: row.result,
      count: 1n,
      amount: row.amount,
      profit: row.profit,
    })
    .onConflict((oc) =>
      oc.columns(['day', 'symbol', 'funding', 'result']).doUpdateSet({
        count: sql`delivery_pnl_days.count + 1`,
        amount: sql`delivery_pnl_days.amount + excluded.amount`,
        profit: sql`delivery_pnl_days.profit + excluded.profit`,
      }),
    )
    .execute();
}

// --- trial plans and grants ---------------------------------------------------------------------

export function listPlans(db: Db) {
  return db.selectFrom('trial_grant_plans').selectAll().orderBy('id').execute();
}

export function findPlan(db: Db, id: bigint) {
  return db.selectFrom('trial_grant_plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listActiveSignupPlans(db: Db) {
  return db
    .selectFrom('trial_grant_plans')
    .selectAll()
    .where('trigger', '=', 'signup')
    .where('active', '=', 1n)
    .orderBy('id')
    .execute();
}

export interface PlanValues {
  name: string;
  amount: bigint;
  validity_days: bigint;
  profit_cap_percent: bigint;
  trigger: 'signup' | 'campaign';
  active: bigint;
}

export async function insertPlan(db: Db, values: PlanValues & { now: Millis }): Promise<bigint> {
  const { now, ...rest } = values;
  const row = await db
    .insertInto('trial_grant_plans')
    .values({ ...rest, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePlan(db: Db, id: bigint, values: PlanValues & { now: Millis }): Promise<boolean> {
  const { now, ...rest } = values;
  const result = await db
    .updateTable('trial_grant_plans')
    .set({ ...rest, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function findGrant(db: Db, id: bigint) {
  return db.selectFrom('trial_grants').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findGrantByKey(db: Db, key: string) {
  return db.selectFrom('trial_grants').selectAll().where('grant_key', '=', key).executeTakeFirst();
}

/**
 * Reads a grant while taking its row lock (a no-op update), so the placements, settlements and
 * the expiry that change it run one after another and each sees the others' result.
 */
export function lockGrant(db: Db, id: bigint) {
  return db
    .updateTable('trial_grants')
    .set({ profit_paid: sql`profit_paid` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function insertGrant(
  db: Db,
  values: {
    user_id: bigint;
    plan_id: bigint;
    name: string;
    amount: bigint;
    remaining: bigint;
    profit_cap: bigint;
    expires_at: Millis;
    status: 'active';
    grant_key: string;
    granted_by: string;
    created_at: Millis;
    identity_hash: string | null;
  },
): Promise<bigint | undefined> {
  // why: one grant of a plan per identity: when another account of the same identity got it
  // first (also in a concurrent transaction: the unique index waits for it), nothing is inserted.
  const row = await db
    .insertInto('trial_grants')
    .values(values)
    .onConflict((oc) => oc.columns(['plan_id', 'identity_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function changeGrant(
  db: Db,
  id: bigint,
  change: { remainingDelta?: bigint; profitPaidDelta?: bigint; expire?: boolean },
): Promise<void> {
  await db
    .updateTable('trial_grants')
    .set({
      remaining: change.expire ? 0n : sql`remaining + ${change.remainingDelta ?? 0n}`,
      profit_paid: sql`profit_paid + ${change.profitPaidDelta ?? 0n}`,
      ...(change.expire ? { status: 'expired' as const } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The user's grants, newest first. */
export function listUserGrants(db: Db, userId: bigint) {
  return db
    .selectFrom('trial_grants')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

export function listGrants(db: Db, filter: { userId?: bigint; limit: number; offset: number }) {
  let query = db.selectFrom('trial_grants').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  return query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/** Active grants whose expiry has come. */
export function listExpiredActiveGrants(db: Db, now: Millis, limit: number) {
  return db
    .selectFrom('trial_grants')
    .select('id')
    .where('status', '=', 'active')
    .where('expires_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Per user, what is left of their active grants: what their trial money must hold. */
export function sumActiveRemainingByUser(db: Db, users: UserRange) {
  return db
    .selectFrom('trial_grants')
    .select(['user_id', sql<bigint>`cast(sum(remaining) as bigint)`.as('total')])
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .where('status', '=', 'active')
    .groupBy('user_id')
    .execute();
}

/** Whether the user was already given a grant of `planId` by sign-up. */
export async function hasGrantOfPlan(db: Db, userId: bigint, planId: bigint): Promise<boolean> {
  const row = await db
    .selectFrom('trial_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .executeTakeFirst();
  return row !== undefined;
}

// --- trial rules (docs/trial-money.md) -------------------------------------------------------------

/**
 * Who of `userIds` holds live contracts on `symbol` in `direction` whose period is still running
 * at `now`, and with which funding (one row each); with `trialOnly`, only trial-funded ones count.
 */
export async function listOpposingContracts(
  db: Db,
  query: {
    userIds: readonly bigint[];
    symbol: string;
    direction: 'up' | 'down';
    trialOnly: boolean;
    now: Millis;
  },
): Promise<{ user_id: bigint; funding: 'real' | 'trial' }[]> {
  const found: { user_id: bigint; funding: 'real' | 'trial' }[] = [];
  // why: an agent's referral tree can hold tens of thousands of accounts, past the drivers' bound
  // parameters per statement (32,766 on SQLite); the ids go in slices, one statement at a time.
  for (let i = 0; i < query.userIds.length; i += OPPOSING_SLICE) {
    let select = db
      .selectFrom('delivery_contracts')
      .select(['user_id', 'funding'])
      .where('user_id', 'in', query.userIds.slice(i, i + OPPOSING_SLICE))
      .where('symbol', '=', query.symbol)
      .where('direction', '=', query.direction)
      .where('status', 'in', LIVE_CONTRACT_STATUSES)
      .where('expires_at', '>', query.now);
    if (query.trialOnly) select = select.where('funding', '=', 'trial');
    // why: the message names whose contract it is; one row per account and funding is enough.
    found.push(...(await select.groupBy(['user_id', 'funding']).execute()));
  }
  return found;
}

const OPPOSING_SLICE = 1000;

/** Ids of the user's live grants still short of their turnover, the soonest to expire first. */
export async function listGrantsNeedingTurnover(db: Db, userId: bigint, now: Millis): Promise<bigint[]> {
  const rows = await db
    .selectFrom('trial_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .whereRef('turnover_done', '<', 'turnover_required')
    .orderBy('expires_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Credits a trial win's profit to the grant: locked, with the turnover that will release it. */
export async function lockTrialProfit(db: Db, id: bigint, profit: bigint, turnover: bigint): Promise<void> {
  await db
    .updateTable('trial_grants')
    .set({
      profit_paid: sql`profit_paid + ${profit}`,
      profit_locked: sql`profit_locked + ${profit}`,
      turnover_required: sql`turnover_required + ${turnover}`,
    })
    .where('id', '=', id)
    .execute();
}

/** Counts real turnover toward the grant, never past what it requires. */
export async function addTurnover(db: Db, id: bigint, amount: bigint): Promise<void> {
  await db
    .updateTable('trial_grants')
    .set({ turnover_done: sql`turnover_done + ${amount}` })
    .where('id', '=', id)
    .where(sql<boolean>`turnover_done + ${amount} <= turnover_required`)
    .execute();
}

/**
 * Moves the grant's locked profit to released; true only for the one caller that finds exactly
 * `amount` locked and the turnover complete (the release happens once).
 */
export async function releaseTrialProfit(db: Db, id: bigint, amount: bigint): Promise<boolean> {
  const result = await db
    .updateTable('trial_grants')
    .set({ profit_locked: 0n, profit_released: sql`profit_released + ${amount}` })
    .where('id', '=', id)
    .where('profit_locked', '=', amount)
    .whereRef('turnover_done', '>=', 'turnover_required')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves the grant's locked profit to expired (with the grant); true for the one caller that did. */
export async function expireTrialProfit(db: Db, id: bigint, amount: bigint): Promise<boolean> {
  const result = await db
    .updateTable('trial_grants')
    .set({ profit_locked: 0n, profit_expired: sql`profit_expired + ${amount}` })
    .where('id', '=', id)
    .where('profit_locked', '=', amount)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Per user, the trial profit still locked in their grants: what their `trial_profit` must hold. */
export function sumLockedProfitByUser(db: Db, users: UserRange) {
  return db
    .selectFrom('trial_grants')
    .select(['user_id', sql<bigint>`cast(sum(profit_locked) as bigint)`.as('total')])
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .where('profit_locked', '>', 0n)
    .groupBy('user_id')
    .execute();
}

/** The highest payout ratio of every configured period (basis points), 0 when there is none. */
export async function maxRatioBps(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('delivery_periods')
    .select(sql<bigint>`coalesce(max(ratio_bps), 0)`.as('max'))
    .executeTakeFirstOrThrow();
  return BigInt(row.max);
}
