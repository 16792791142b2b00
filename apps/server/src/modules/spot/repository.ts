import { sql } from 'kysely';
import { type Db, executeSql, placeholderRows, repeated, type UserRange } from '../../platform/db.ts';
import type {
  Millis,
  SpotMarketsTable,
  SpotOrderStatusValue,
  SpotOrdersTable,
  SpotTradesTable,
} from '../../platform/schema.ts';

/**
 * Queries of the spot module's tables (`spot_markets`, `spot_orders`, `spot_trades`): plain
 * functions of a db or transaction. Orders and trades are written only by a market's sequencer,
 * in the transaction of the batch that explains them.
 */

export type SpotMarketRow = Omit<SpotMarketsTable, 'seq' | 'epoch'> & { seq: bigint; epoch: bigint };
export type OrderRow = Omit<SpotOrdersTable, 'id'> & { id: bigint };
export type TradeRow = Omit<SpotTradesTable, 'id'> & { id: bigint };
export type NewTrade = Omit<SpotTradesTable, 'id'>;

// --- markets ----------------------------------------------------------------------------------

/** The spot markets in the order the operator gave their listings (as the market list shows them). */
export function listMarkets(db: Db): Promise<SpotMarketRow[]> {
  return db
    .selectFrom('spot_markets')
    .innerJoin('markets', 'markets.symbol', 'spot_markets.symbol')
    .selectAll('spot_markets')
    .orderBy('markets.sort')
    .orderBy('spot_markets.symbol')
    .execute();
}

export function findMarket(db: Db, symbol: string): Promise<SpotMarketRow | undefined> {
  return db.selectFrom('spot_markets').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export async function insertMissingMarket(
  db: Db,
  market: Omit<SpotMarketRow, 'seq' | 'epoch'>,
): Promise<boolean> {
  const rows = await db
    .insertInto('spot_markets')
    .values(market)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .returning('symbol')
    .execute();
  return rows.length > 0;
}

export async function setMarketSeq(db: Db, symbol: string, seq: bigint, now: Millis): Promise<void> {
  // why: hand-written SQL (`executeSql`): every spot batch moves the sequence.
  await executeSql(db, 'update spot_markets set seq = ?, updated_at = ? where symbol = ?', [
    seq,
    now,
    symbol,
  ]);
}

/**
 * The batch's fence, its first write: the market row is locked for the batch (a takeover waits
 * for it) and answers whether this node's epoch still owns the market at the sequence it last
 * committed. False: a newer owner (or a newer batch) wrote the market; the batch must roll back.
 */
export async function fenceMarket(db: Db, symbol: string, seq: bigint, epoch: bigint): Promise<boolean> {
  // why: hand-written SQL (`executeSql`): every spot batch runs it.
  const result = await executeSql(
    db,
    'update spot_markets set epoch = epoch where symbol = ? and seq = ? and epoch = ?',
    [symbol, seq, epoch],
  );
  return Number(result.numAffectedRows ?? 0n) === 1;
}

/**
 * Moves the market to a new owner's `epoch`; false when a newer epoch already holds it. Waits
 * for a batch of the old owner that is still running (it holds the row), so the new owner's
 * rebuild reads what that batch committed, and its next batch fails its fence.
 */
export async function takeMarketEpoch(db: Db, symbol: string, epoch: bigint): Promise<boolean> {
  const result = await db
    .updateTable('spot_markets')
    .set({ epoch })
    .where('symbol', '=', symbol)
    .where('epoch', '<', epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setMarketStatus(
  db: Db,
  symbol: string,
  status: 'open' | 'halted',
  now: Millis,
): Promise<void> {
  await db
    .updateTable('spot_markets')
    .set({ status, updated_at: now })
    .where('symbol', '=', symbol)
    .execute();
}

/** Replaces a market's configured settings (not its status or sequence). */
export async function updateMarketSettings(
  db: Db,
  symbol: string,
  values: Pick<
    SpotMarketRow,
    | 'tick_size'
    | 'lot_size'
    | 'min_notional'
    | 'maker_fee_bps'
    | 'taker_fee_bps'
    | 'band_bps'
    | 'price_decimals'
    | 'qty_decimals'
    | 'updated_at'
  >,
): Promise<void> {
  await db.updateTable('spot_markets').set(values).where('symbol', '=', symbol).execute();
}

// --- orders -----------------------------------------------------------------------------------

// why: a record over the row's keys, so a column added to the table and not here (or named
// here and not in the table) fails to compile; its keys, in this order, are the insert's columns.
const ORDER_COLUMN_SET: Record<keyof Omit<OrderRow, 'id'>, true> = {
  symbol: true,
  user_id: true,
  side: true,
  type: true,
  tif: true,
  price: true,
  qty: true,
  quote_amount: true,
  trigger_price: true,
  trigger_condition: true,
  triggered_at: true,
  filled_qty: true,
  filled_quote: true,
  fee: true,
  fee_bps: true,
  hold_asset: true,
  held: true,
  status: true,
  revoke_reason: true,
  seq: true,
  idempotency_key: true,
  created_at: true,
  updated_at: true,
};
const ORDER_COLUMNS = Object.keys(ORDER_COLUMN_SET) as (keyof typeof ORDER_COLUMN_SET)[];

/**
 * Inserts orders (one market's) in as few statements as the parameter limit allows; answers their
 * ids by sequence. Hand-written SQL (`executeSql`): it runs in every batch.
 */
export async function insertOrders(
  db: Db,
  orders: readonly Omit<OrderRow, 'id'>[],
): Promise<Map<bigint, bigint>> {
  const ids = new Map<bigint, bigint>();
  // why: 23 columns a row; chunks keep every statement under SQLite's bound-parameter limit.
  for (let i = 0; i < orders.length; i += 150) {
    const chunk = orders.slice(i, i + 150);
    const { rows } = await executeSql<{ id: bigint; seq: bigint }>(
      db,
      `insert into spot_orders (${ORDER_COLUMNS.join(', ')}) values ${placeholderRows(chunk.length, ORDER_COLUMNS.length)} returning id, seq`,
      chunk.flatMap((order) => ORDER_COLUMNS.map((column) => order[column])),
    );
    for (const row of rows) ids.set(row.seq, row.id);
  }
  return ids;
}

/** Which of the (user, idempotency key) pairs are taken, as `user|key`, in one read per chunk. */
export async function findUsedKeys(
  db: Db,
  pairs: readonly { userId: bigint; key: string }[],
): Promise<Set<string>> {
  const wanted = new Set(pairs.map((p) => `${p.userId}|${p.key}`));
  const used = new Set<string>();
  // why: hand-written SQL (`executeSql`): every batch with places reads its keys.
  for (let i = 0; i < pairs.length; i += 400) {
    const chunk = pairs.slice(i, i + 400);
    // why: one probe of the unique index per pair; two IN lists would try every user with every key.
    const { rows } = await executeSql<{ user_id: bigint; idempotency_key: string }>(
      db,
      `select user_id, idempotency_key from spot_orders
        where (user_id, idempotency_key) in (values ${repeated('(cast(? as bigint), cast(? as text))', chunk.length)})`,
      chunk.flatMap((p) => [p.userId, p.key]),
    );
    for (const row of rows) {
      const key = `${row.user_id}|${row.idempotency_key}`;
      if (wanted.has(key)) used.add(key);
    }
  }
  return used;
}

type OrderChange = Pick<
  OrderRow,
  | 'id'
  | 'seq'
  | 'triggered_at'
  | 'filled_qty'
  | 'filled_quote'
  | 'fee'
  | 'fee_bps'
  | 'held'
  | 'status'
  | 'revoke_reason'
  | 'updated_at'
>;

/**
 * Writes what a batch changed on its orders (a fired trigger takes a new sequence, the one it
 * entered the book at): one statement per chunk (`UPDATE … FROM (VALUES …)`,
 * which both dialects run; the casts give PostgreSQL the values' types). Conditional: a row
 * changes only while it is open and its fills and sequence have not gone past the batch's, so a
 * node's memory never writes over an order that ended elsewhere; answers false when a row did
 * not match (the batch must roll back).
 */
export async function updateOrders(db: Db, changes: readonly OrderChange[]): Promise<boolean> {
  const row =
    '(cast(? as bigint), cast(? as bigint), cast(? as bigint), cast(? as bigint), cast(? as bigint), cast(? as bigint), cast(? as text), cast(? as text), cast(? as bigint), cast(? as bigint), cast(? as bigint))';
  // why: hand-written SQL (`executeSql`): it runs in every batch.
  for (let i = 0; i < changes.length; i += 100) {
    const chunk = changes.slice(i, i + 100);
    const result = await executeSql(
      db,
      `update spot_orders set filled_qty = v.column2, filled_quote = v.column3, fee = v.column4,
        fee_bps = v.column5, held = v.column6, status = v.column7, revoke_reason = v.column8, updated_at = v.column9,
        seq = v.column10, triggered_at = v.column11
        from (values ${repeated(row, chunk.length)}) as v where spot_orders.id = v.column1
        and spot_orders.status = 'entrusted' and spot_orders.filled_qty <= v.column2 and spot_orders.seq <= v.column10`,
      chunk.flatMap((c) => [
        c.id,
        c.filled_qty,
        c.filled_quote,
        c.fee,
        c.fee_bps,
        c.held,
        c.status,
        c.revoke_reason,
        c.updated_at,
        c.seq,
        c.triggered_at,
      ]),
    );
    if (Number(result.numAffectedRows ?? 0n) !== chunk.length) return false;
  }
  return true;
}

export function findOrder(db: Db, id: bigint): Promise<OrderRow | undefined> {
  return db.selectFrom('spot_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Orders by id, in id order; ids that do not exist are left out. */
export function findOrders(db: Db, ids: bigint[]): Promise<OrderRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('spot_orders').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

export function findOrderByKey(db: Db, userId: bigint, key: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom('spot_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * Deletes up to `limit` of the user's oldest orders that were revoked without any fill before
 * `before` (no trade, no ledger entry names them); answers how many it deleted.
 */
export async function deleteRevokedUnfilled(
  db: Db,
  userId: bigint,
  before: Millis,
  limit: number,
): Promise<number> {
  // why: the status and fill conditions are the literals of the partial index
  // `spot_orders_unfilled_revoked_idx` (a planner matches a partial index on literals), and the
  // slice is taken in that index's order for one user, so it seeks to prunable rows only instead
  // of walking past every order the account keeps.
  const result = await db
    .deleteFrom('spot_orders')
    .where(
      'id',
      'in',
      db
        .selectFrom('spot_orders')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '=', sql.lit('revoked'))
        .where('filled_qty', '=', sql.lit(0n))
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many orders are open, per market. */
export async function countOpenOrders(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('spot_orders')
    .select(['symbol', sql<bigint>`count(*)`.as('total')])
    .where('status', '=', 'entrusted')
    .groupBy('symbol')
    .execute();
  return new Map(rows.map((row) => [row.symbol, Number(row.total)]));
}

/** A market's open orders in sequence order, `limit` after `afterSeq`: what its book is rebuilt from. */
export function listOpenOrders(db: Db, symbol: string, afterSeq: bigint, limit: number): Promise<OrderRow[]> {
  return db
    .selectFrom('spot_orders')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('status', '=', 'entrusted')
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** A user's orders, newest first: `limit` of them after `offset`, below the id `beforeId` when given. */
export function listUserOrders(
  db: Db,
  filter: {
    userId: bigint;
    symbol?: string;
    statuses?: readonly SpotOrderStatusValue[];
    limit: number;
    offset: number;
    beforeId?: bigint;
  },
): Promise<OrderRow[]> {
  let query = db.selectFrom('spot_orders').selectAll().where('user_id', '=', filter.userId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.statuses?.length === 1 && filter.statuses[0] === 'entrusted') {
    // why: a literal, so the partial index of resting orders (`spot_orders_held_idx`) finds a
    // user's open orders at once; by `(user_id, id)` a customer with a year of filled orders and
    // few open ones had every order read to find them (the open tab, cancel all, `/ws` snapshot).
    query = query.where('status', '=', sql.lit('entrusted'));
  } else if (filter.statuses) {
    query = query.where('status', 'in', filter.statuses);
  }
  return query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/** Per user and coin, what open orders hold (the ledger's reservation check). */
export async function sumHeldByUser(
  db: Db,
  users: UserRange,
): Promise<{ user_id: bigint; asset: string; total: bigint }[]> {
  // why: `entrusted` is a literal, not a parameter: the partial index of resting orders
  // (`spot_orders_held_idx`) serves only a query whose condition the planner sees is its own, and
  // a plan made before a parameter's value is known (PostgreSQL's generic plan) cannot see it.
  return db
    .selectFrom('spot_orders')
    .select(['user_id', 'hold_asset as asset', sql<bigint>`cast(sum(held) as bigint)`.as('total')])
    .where('status', '=', sql.lit('entrusted'))
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .groupBy(['user_id', 'hold_asset'])
    .execute();
}

// --- trades -----------------------------------------------------------------------------------

/** Inserts trades in order; returns their ids in the same order. */
export async function insertTrades(db: Db, trades: NewTrade[]): Promise<bigint[]> {
  const ids: bigint[] = [];
  // why: chunks keep every statement under SQLite's bound-parameter limit.
  for (let i = 0; i < trades.length; i += 200) {
    const rows = await db
      .insertInto('spot_trades')
      .values(trades.slice(i, i + 200))
      .returning('id')
      .execute();
    ids.push(...rows.map((row) => row.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return ids;
}

export function listOrderTrades(db: Db, orderId: bigint): Promise<TradeRow[]> {
  return db
    .selectFrom('spot_trades')
    .selectAll()
    .where((eb) => eb.or([eb('maker_order_id', '=', orderId), eb('taker_order_id', '=', orderId)]))
    .orderBy('id')
    .execute();
}

/** A user's trades, newest first: `limit` of them after `offset`, below the id `beforeId` when given. */
export function listUserTrades(
  db: Db,
  filter: { userId: bigint; symbol?: string; limit: number; offset: number; beforeId?: bigint },
): Promise<TradeRow[]> {
  // why: an OR of the two roles read every trade of the user and sorted them all. Each role is
  // instead one seek on its own index, newest first (from `beforeId` down when given), stopped
  // after the rows the page can reach; only those (at most twice offset + limit) are merged and
  // sorted.
  const reach = filter.offset + filter.limit;
  const role = (column: 'maker_user_id' | 'taker_user_id') => {
    let query = db.selectFrom('spot_trades').selectAll().where(column, '=', filter.userId);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
    // why: a trade with the user on both sides (self-trade prevention forbids it) is listed once.
    if (column === 'taker_user_id') query = query.where('maker_user_id', '!=', filter.userId);
    return db.selectFrom(query.orderBy('id', 'desc').limit(reach).as(column)).selectAll();
  };
  return role('maker_user_id')
    .unionAll(role('taker_user_id'))
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

export function listRecentTrades(db: Db, symbol: string, limit: number): Promise<TradeRow[]> {
  return db
    .selectFrom('spot_trades')
    .selectAll()
    .where('symbol', '=', symbol)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findLastTrade(db: Db, symbol: string) {
  return db
    .selectFrom('spot_trades')
    .select(['price'])
    .where('symbol', '=', symbol)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
