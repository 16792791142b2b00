import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type {
  Millis,
  PerpFundingPaymentsTable,
  PerpFundingsTable,
  PerpInsuranceMovesTable,
  PerpLiquidationsTable,
  PerpLotsTable,
  PerpMarketsTable,
  PerpOrdersTable,
  PerpPositionsTable,
  PerpTradesTable,
} from '../../platform/schema.ts';

/**
 * Queries of the perpetual module's tables (migration 0033): plain functions of a db or a
 * transaction. Positions, orders, lots, trades and the funding and liquidation records are
 * written only by a market's sequencer, in the transaction of the batch that explains them.
 */

export type PerpMarketRow = Omit<
  PerpMarketsTable,
  | 'seq'
  | 'epoch'
  | 'next_order_no'
  | 'next_position_no'
  | 'mark'
  | 'last'
  | 'frozen'
  | 'insurance'
  | 'last_rate'
> & {
  seq: bigint;
  epoch: bigint;
  next_order_no: bigint;
  next_position_no: bigint;
  mark: bigint;
  last: bigint;
  frozen: bigint;
  insurance: bigint;
  last_rate: bigint;
};
export type NewPerpMarket = Omit<
  PerpMarketRow,
  | 'seq'
  | 'epoch'
  | 'next_order_no'
  | 'next_position_no'
  | 'mark'
  | 'last'
  | 'frozen'
  | 'insurance'
  | 'last_rate'
>;
export type PositionRow = PerpPositionsTable;
export type OrderRow = Omit<PerpOrdersTable, 'id'> & { id: bigint };
// why: the fingerprint is written once, with the row's first insert; later writes leave it out.
export type NewOrderRow = Omit<PerpOrdersTable, 'id' | 'request_fingerprint'> & {
  request_fingerprint?: string | null;
};
export type LotRow = PerpLotsTable;
export type TradeRow = Omit<PerpTradesTable, 'id'> & { id: bigint };
export type FundingRow = Omit<PerpFundingsTable, 'id'> & { id: bigint };
export type FundingPaymentRow = Omit<PerpFundingPaymentsTable, 'id'> & { id: bigint };
export type LiquidationRow = Omit<PerpLiquidationsTable, 'id'> & { id: bigint };
export type InsuranceMoveRow = Omit<PerpInsuranceMovesTable, 'id'> & { id: bigint };

export const OPEN_STATES = ['untriggered', 'new', 'partial'] as const;

// --- markets ----------------------------------------------------------------------------------

export function listMarkets(db: Db): Promise<PerpMarketRow[]> {
  return db.selectFrom('perp_markets').selectAll().orderBy('symbol').execute();
}

export function findMarket(db: Db, symbol: string): Promise<PerpMarketRow | undefined> {
  return db.selectFrom('perp_markets').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export async function insertMissingMarket(db: Db, market: NewPerpMarket): Promise<boolean> {
  const rows = await db
    .insertInto('perp_markets')
    .values(market)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .returning('symbol')
    .execute();
  return rows.length > 0;
}

/** Moves the market to a new owner's epoch; false when a newer epoch already holds it. */
export async function takeMarketEpoch(db: Db, symbol: string, epoch: bigint): Promise<boolean> {
  const result = await db
    .updateTable('perp_markets')
    .set({ epoch })
    .where('symbol', '=', symbol)
    .where('epoch', '<', epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The batch's fence, its first write: locks the market row and answers whether this node's epoch
 * still owns it at the sequence it last committed.
 */
export async function fenceMarket(db: Db, symbol: string, seq: bigint, epoch: bigint): Promise<boolean> {
  const result = await db
    .updateTable('perp_markets')
    .set({ epoch })
    .where('symbol', '=', symbol)
    .where('seq', '=', seq)
    .where('epoch', '=', epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function saveFigures(
  db: Db,
  symbol: string,
  figures: {
    seq: bigint;
    next_order_no: bigint;
    next_position_no: bigint;
    mark: bigint;
    last: bigint;
    frozen: bigint;
    insurance: bigint;
    last_rate: bigint;
  },
  now: Millis,
): Promise<void> {
  await db
    .updateTable('perp_markets')
    .set({ ...figures, updated_at: now })
    .where('symbol', '=', symbol)
    .execute();
}

/** A new market's insurance fund as seeded (the clearing moves it afterwards). */
export async function setInsurance(db: Db, symbol: string, amount: bigint): Promise<void> {
  await db.updateTable('perp_markets').set({ insurance: amount }).where('symbol', '=', symbol).execute();
}

export async function updateMarket(
  db: Db,
  symbol: string,
  values: Partial<Pick<PerpMarketRow, 'maker_rate' | 'taker_rate' | 'band_rate' | 'mark_clamp' | 'status'>>,
  now: Millis,
): Promise<void> {
  await db
    .updateTable('perp_markets')
    .set({ ...values, updated_at: now })
    .where('symbol', '=', symbol)
    .execute();
}

// --- the clearing's state -----------------------------------------------------------------------

export function listPositions(db: Db, symbol: string): Promise<PositionRow[]> {
  return db.selectFrom('perp_positions').selectAll().where('symbol', '=', symbol).execute();
}

export function findPosition(db: Db, symbol: string, userId: bigint): Promise<PositionRow | undefined> {
  return db
    .selectFrom('perp_positions')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function upsertPositions(db: Db, rows: readonly PositionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto('perp_positions')
      .values(rows.slice(i, i + 100))
      .onConflict((oc) =>
        oc.columns(['symbol', 'user_id']).doUpdateSet((eb) => ({
          position_no: eb.ref('excluded.position_no'),
          qty: eb.ref('excluded.qty'),
          entry: eb.ref('excluded.entry'),
          margin: eb.ref('excluded.margin'),
          leverage: eb.ref('excluded.leverage'),
          realised: eb.ref('excluded.realised'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** The market's open orders (resting and waiting), in sequence order. */
export function listOpenOrders(db: Db, symbol: string): Promise<OrderRow[]> {
  return db
    .selectFrom('perp_orders')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('state', 'in', OPEN_STATES)
    .orderBy('seq')
    .execute();
}

/** Inserts new orders and updates known ones (by market and order number); returns their ids. */
export async function upsertOrders(db: Db, rows: readonly NewOrderRow[]): Promise<Map<bigint, bigint>> {
  const ids = new Map<bigint, bigint>();
  for (let i = 0; i < rows.length; i += 50) {
    const written = await db
      .insertInto('perp_orders')
      .values(rows.slice(i, i + 50))
      .onConflict((oc) =>
        oc.columns(['symbol', 'order_no']).doUpdateSet((eb) => ({
          price: eb.ref('excluded.price'),
          qty: eb.ref('excluded.qty'),
          filled_qty: eb.ref('excluded.filled_qty'),
          filled_value: eb.ref('excluded.filled_value'),
          fee: eb.ref('excluded.fee'),
          hold: eb.ref('excluded.hold'),
          oco: eb.ref('excluded.oco'),
          state: eb.ref('excluded.state'),
          end_reason: eb.ref('excluded.end_reason'),
          seq: eb.ref('excluded.seq'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returning(['id', 'order_no'])
      .execute();
    for (const row of written) ids.set(row.order_no, row.id);
  }
  return ids;
}

export function listLots(db: Db, symbol: string): Promise<LotRow[]> {
  return db.selectFrom('perp_lots').selectAll().where('symbol', '=', symbol).orderBy('lot_no').execute();
}

export async function saveLots(
  db: Db,
  symbol: string,
  live: readonly LotRow[],
  closed: readonly bigint[],
): Promise<void> {
  if (closed.length > 0) {
    await db.deleteFrom('perp_lots').where('symbol', '=', symbol).where('lot_no', 'in', closed).execute();
  }
  for (const lot of live) {
    await db
      .insertInto('perp_lots')
      .values(lot)
      .onConflict((oc) =>
        oc
          .columns(['symbol', 'lot_no'])
          .doUpdateSet((eb) => ({ qty: eb.ref('excluded.qty'), entry: eb.ref('excluded.entry') })),
      )
      .execute();
  }
}

/** An order request a key already placed: its orders' ids and the request's fingerprint (null before 0035). */
export interface UsedKey {
  ids: bigint[];
  fingerprint: string | null;
}

/** Which (user, key) pairs already placed an order, as `user|key`. */
export async function findUsedKeys(
  db: Db,
  pairs: readonly { userId: bigint; key: string }[],
): Promise<Map<string, UsedKey>> {
  const used = new Map<string, UsedKey>();
  for (const { userId, key } of pairs) {
    const rows = await db
      .selectFrom('perp_orders')
      .select(['id', 'request_fingerprint'])
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .orderBy('id')
      .execute();
    if (rows.length > 0) {
      used.set(`${userId}|${key}`, {
        ids: rows.map((r) => r.id),
        fingerprint: rows[0]!.request_fingerprint,
      });
    }
  }
  return used;
}

/** The margin change made before with this key, if any (its market, direction and amount). */
export function findMarginRequest(
  db: Db,
  userId: bigint,
  key: string,
): Promise<{ symbol: string; direction: 'add' | 'remove'; amount: bigint } | undefined> {
  return db
    .selectFrom('perp_margin_requests')
    .select(['symbol', 'direction', 'amount'])
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function insertMarginRequest(
  db: Db,
  row: {
    user_id: bigint;
    idempotency_key: string;
    symbol: string;
    direction: 'add' | 'remove';
    amount: bigint;
    created_at: Millis;
  },
): Promise<void> {
  await db.insertInto('perp_margin_requests').values(row).execute();
}

// --- records --------------------------------------------------------------------------------------

export async function insertTrades(db: Db, rows: readonly Omit<TradeRow, 'id'>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 50)
    await db
      .insertInto('perp_trades')
      .values(rows.slice(i, i + 50))
      .execute();
}

/** Records a funding event; false when the market's event at that time was recorded before. */
export async function insertFunding(db: Db, row: Omit<FundingRow, 'id'>): Promise<void> {
  await db.insertInto('perp_fundings').values(row).execute();
}

export async function fundingExists(db: Db, symbol: string, at: Millis): Promise<boolean> {
  const row = await db
    .selectFrom('perp_fundings')
    .select('id')
    .where('symbol', '=', symbol)
    .where('funding_at', '=', at)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertFundingPayments(
  db: Db,
  rows: readonly Omit<FundingPaymentRow, 'id'>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    await db
      .insertInto('perp_funding_payments')
      .values(rows.slice(i, i + 50))
      .execute();
  }
}

export async function insertLiquidations(db: Db, rows: readonly Omit<LiquidationRow, 'id'>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    await db
      .insertInto('perp_liquidations')
      .values(rows.slice(i, i + 50))
      .execute();
  }
}

export async function insertInsuranceMoves(
  db: Db,
  rows: readonly Omit<InsuranceMoveRow, 'id'>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    await db
      .insertInto('perp_insurance_moves')
      .values(rows.slice(i, i + 50))
      .execute();
  }
}

export async function savePremium(db: Db, symbol: string, minute: bigint, premium: bigint): Promise<void> {
  await db
    .insertInto('perp_premiums')
    .values({ symbol, minute, premium })
    .onConflict((oc) => oc.columns(['symbol', 'minute']).doNothing())
    .execute();
}

/** The minute premiums of [from, to) in time order, each with its minute (minutes since the epoch). */
export async function listPremiums(
  db: Db,
  symbol: string,
  from: bigint,
  to: bigint,
): Promise<[minute: bigint, premium: bigint][]> {
  const rows = await db
    .selectFrom('perp_premiums')
    .select(['minute', 'premium'])
    .where('symbol', '=', symbol)
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .orderBy('minute')
    .execute();
  return rows.map((r) => [r.minute, r.premium]);
}

/**
 * Deletes up to `limit` of one account's orders that ended (cancelled, expired, rejected) without
 * any fill before `before` (no trade, lot or ledger entry names them); answers how many.
 */
export async function deleteUnfilledEndedOrders(
  db: Db,
  userId: bigint,
  before: Millis,
  limit: number,
): Promise<number> {
  // why: the conditions are the literals of the partial index `perp_orders_unfilled_ended_idx` (a
  // planner matches a partial index on literals), taken in its order, so a slice seeks to
  // prunable rows only.
  const result = await db
    .deleteFrom('perp_orders')
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('perp_orders')
        .select('id')
        .where('user_id', '=', userId)
        .where(sql<boolean>`state in ('cancelled', 'expired', 'rejected')`)
        .where('filled_qty', '=', sql.lit(0n))
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` of one market's oldest premium samples of minutes before `beforeMinute`; answers how many. */
export async function deletePremiumsBefore(
  db: Db,
  symbol: string,
  beforeMinute: bigint,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('perp_premiums')
    .where('symbol', '=', symbol)
    .where('minute', 'in', (qb) =>
      qb
        .selectFrom('perp_premiums')
        .select('minute')
        .where('symbol', '=', symbol)
        .where('minute', '<', beforeMinute)
        .orderBy('minute')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// --- reads for the customer and the back office ------------------------------------------------

export function findOrder(db: Db, id: bigint): Promise<OrderRow | undefined> {
  return db.selectFrom('perp_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listOrdersByIds(db: Db, ids: readonly bigint[]): Promise<OrderRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('perp_orders').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

export function listUserOpenOrders(db: Db, userId: bigint, symbol: string): Promise<OrderRow[]> {
  return (
    db
      .selectFrom('perp_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('symbol', '=', symbol)
      // why: literals, so the partial index of open orders (`perp_orders_user_open_idx`) serves it.
      .where(
        'state',
        'in',
        OPEN_STATES.map((state) => sql.lit(state)),
      )
      .orderBy('id', 'desc')
      .execute()
  );
}

/** The rows of one page of a list newest first: `limit` after `offset`, below the id `beforeId` when given. */
export interface PageWindow {
  limit: number;
  offset: number;
  beforeId?: bigint;
}

/** A user's orders, newest first, on the index of (user, id). */
export function pageUserOrders(
  db: Db,
  userId: bigint,
  filter: { symbol?: string; states?: readonly string[] },
  window: PageWindow,
): Promise<OrderRow[]> {
  let query = db.selectFrom('perp_orders').selectAll().where('user_id', '=', userId);
  if (window.beforeId !== undefined) query = query.where('id', '<', window.beforeId);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.states) query = query.where('state', 'in', filter.states as OrderRow['state'][]);
  return query.orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
}

export function listOrderFills(db: Db, symbol: string, orderNo: bigint): Promise<TradeRow[]> {
  return db
    .selectFrom('perp_trades')
    .selectAll()
    .where('symbol', '=', symbol)
    .where((eb) => eb.or([eb('maker_order_no', '=', orderNo), eb('taker_order_no', '=', orderNo)]))
    .orderBy('id')
    .execute();
}

export function recentTrades(db: Db, symbol: string, limit: number): Promise<TradeRow[]> {
  return db
    .selectFrom('perp_trades')
    .selectAll()
    .where('symbol', '=', symbol)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Σ quantity and value of the market's trades since `from`, with the first and last price. */
export async function tradeStats(
  db: Db,
  symbol: string,
  from: Millis,
): Promise<{ volume: bigint; first: bigint | null; last: bigint | null }> {
  const rows = await db
    .selectFrom('perp_trades')
    .select(['qty', 'price'])
    .where('symbol', '=', symbol)
    .where('created_at', '>=', from)
    .where('kind', '=', 'trade')
    .orderBy('id')
    .execute();
  let volume = 0n;
  for (const r of rows) volume += r.qty;
  return { volume, first: rows[0]?.price ?? null, last: rows.at(-1)?.price ?? null };
}

/** Funding events, newest first: one market's (on the index of (symbol, id)) or all (staff). */
export function pageFundings(db: Db, symbol: string | undefined, window: PageWindow): Promise<FundingRow[]> {
  let query = db.selectFrom('perp_fundings').selectAll();
  if (symbol) query = query.where('symbol', '=', symbol);
  if (window.beforeId !== undefined) query = query.where('id', '<', window.beforeId);
  return query.orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
}

/** A user's funding payments, newest first, on the index of (user, id). */
export function pageFundingPayments(
  db: Db,
  userId: bigint,
  symbol: string | undefined,
  window: PageWindow,
): Promise<FundingPaymentRow[]> {
  let query = db.selectFrom('perp_funding_payments').selectAll().where('user_id', '=', userId);
  if (window.beforeId !== undefined) query = query.where('id', '<', window.beforeId);
  if (symbol) query = query.where('symbol', '=', symbol);
  return query.orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
}

/** Liquidations and ADL, newest first, with the user's name: one user's (the customer) or all (staff). */
export function pageLiquidations(
  db: Db,
  filter: { userId?: bigint; symbol?: string; kind?: 'liquidation' | 'adl' },
  window: PageWindow,
): Promise<(LiquidationRow & { username: string | null })[]> {
  let query = db
    .selectFrom('perp_liquidations')
    .leftJoin('users', 'users.id', 'perp_liquidations.user_id')
    .selectAll('perp_liquidations')
    .select('users.username');
  if (filter.userId !== undefined) query = query.where('perp_liquidations.user_id', '=', filter.userId);
  if (window.beforeId !== undefined) query = query.where('perp_liquidations.id', '<', window.beforeId);
  if (filter.symbol) query = query.where('perp_liquidations.symbol', '=', filter.symbol);
  if (filter.kind) query = query.where('perp_liquidations.kind', '=', filter.kind);
  return query.orderBy('perp_liquidations.id', 'desc').limit(window.limit).offset(window.offset).execute();
}

export function pageInsuranceMoves(
  db: Db,
  symbol: string | undefined,
  page: number,
  size: number,
): Promise<InsuranceMoveRow[]> {
  let query = db.selectFrom('perp_insurance_moves').selectAll();
  if (symbol) query = query.where('symbol', '=', symbol);
  return query
    .orderBy('id', 'desc')
    .limit(size + 1)
    .offset((page - 1) * size)
    .execute();
}

export async function countRows(
  db: Db,
  table: 'perp_fundings' | 'perp_liquidations' | 'perp_insurance_moves',
  filter: { symbol?: string; kind?: string },
): Promise<number> {
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll<string | number | bigint>().as('n'));
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.kind) query = query.where('kind' as never, '=', filter.kind as never);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}
