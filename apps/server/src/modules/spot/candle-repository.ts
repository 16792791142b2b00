/**
 * Queries on `spot_candles` and `spot_candle_folds`, and the trade reads that complete them: the
 * candles kept of each market's trades up to its fold mark, and the trades after it.
 */
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { Millis, SpotCandlesTable } from '../../platform/schema.ts';

export type CandleRow = SpotCandlesTable;

/** How far a market's trades are folded: the newest trade folded and the latest time of one. */
export interface FoldMark {
  tradeId: bigint;
  maxAt: Millis;
}

/** The market's fold mark; 0 and 0 before the first fold. */
export async function findFoldMark(db: Db, symbol: string): Promise<FoldMark> {
  const row = await db
    .selectFrom('spot_candle_folds')
    .select(['trade_id', 'max_at'])
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return { tradeId: row?.trade_id ?? 0n, maxAt: row?.max_at ?? 0n };
}

/** Creates the market's fold mark at 0 when it has none. */
export async function ensureFoldMark(db: Db, symbol: string): Promise<void> {
  await db
    .insertInto('spot_candle_folds')
    .values({ symbol, trade_id: 0n, max_at: 0n })
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
}

/**
 * Moves the fold mark from `from` to `to`; false when another fold moved it first (the caller's
 * transaction must then be rolled back). The update comes first in the transaction, so a second
 * fold waits on its row lock and then finds the mark moved.
 */
export async function moveFoldMark(trx: Db, symbol: string, from: FoldMark, to: FoldMark): Promise<boolean> {
  const result = await trx
    .updateTable('spot_candle_folds')
    .set({ trade_id: to.tradeId, max_at: to.maxAt })
    .where('symbol', '=', symbol)
    .where('trade_id', '=', from.tradeId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The market's trades after `afterId`, oldest first, at most `limit` (to fold). */
export function listTradesAfter(db: Db, symbol: string, afterId: bigint, limit: number) {
  return db
    .selectFrom('spot_trades')
    .select(['id', 'price', 'qty', 'quote', 'at'])
    .where('symbol', '=', symbol)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Folds candles into the stored ones: a new candle is stored as it is; an existing one keeps its
 * open, widens its high and low, adds the volumes and closes at the new candle's close (the
 * folded trades are newer than every trade already in it).
 */
export async function foldCandles(trx: Db, rows: CandleRow[]): Promise<void> {
  // why: 11 values a row; SQLite takes at most 32,766 variables a statement.
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto('spot_candles')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) =>
        oc.columns(['symbol', 'span', 't']).doUpdateSet({
          // why: greatest/least (PostgreSQL) and max/min (SQLite) differ; a case reads the same on both.
          h: sql<bigint>`case when excluded.h > spot_candles.h then excluded.h else spot_candles.h end`,
          l: sql<bigint>`case when excluded.l < spot_candles.l then excluded.l else spot_candles.l end`,
          c: (eb) => eb.ref('excluded.c'),
          v: sql<bigint>`spot_candles.v + excluded.v`,
          q: sql<bigint>`spot_candles.q + excluded.q`,
          last_id: (eb) => eb.ref('excluded.last_id'),
        }),
      )
      .execute();
  }
}

/** The newest `limit` stored candles of one span opening before `before`, newest first. */
export function listStoredCandles(db: Db, symbol: string, span: bigint, before: Millis, limit: number) {
  return db
    .selectFrom('spot_candles')
    .select(['t', 'o', 'h', 'l', 'c', 'v', 'q'])
    .where('symbol', '=', symbol)
    .where('span', '=', span)
    .where('t', '<', before)
    .orderBy('t', 'desc')
    .limit(limit)
    .execute();
}

/** A summary of some trades: extremes, volumes and the first and last trade's ids. */
export interface TradeSummary {
  l: bigint | null;
  h: bigint | null;
  v: bigint | null;
  q: bigint | null;
  first_id: bigint | null;
  last_id: bigint | null;
}

/** The summary of the stored candles of one span opening in [from, to). */
export async function summarizeStoredCandles(
  db: Db,
  symbol: string,
  span: bigint,
  from: Millis,
  to: Millis | undefined,
): Promise<TradeSummary> {
  let query = db
    .selectFrom('spot_candles')
    .select([
      sql<bigint | null>`min(l)`.as('l'),
      sql<bigint | null>`max(h)`.as('h'),
      sql<bigint | null>`cast(sum(v) as bigint)`.as('v'),
      sql<bigint | null>`cast(sum(q) as bigint)`.as('q'),
      sql<bigint | null>`min(first_id)`.as('first_id'),
      sql<bigint | null>`max(last_id)`.as('last_id'),
    ])
    .where('symbol', '=', symbol)
    .where('span', '=', span)
    .where('t', '>=', from);
  if (to !== undefined) query = query.where('t', '<', to);
  return (await query.executeTakeFirstOrThrow()) as TradeSummary;
}

/** Which of a market's trades a read covers: by id (after the mark, or up to it) and by time. */
export interface TradeRange {
  afterId?: bigint;
  throughId?: bigint;
  from?: Millis;
  to?: Millis;
}

function tradesIn(db: Db, symbol: string, range: TradeRange) {
  let query = db.selectFrom('spot_trades').where('symbol', '=', symbol);
  if (range.afterId !== undefined) query = query.where('id', '>', range.afterId);
  if (range.throughId !== undefined) query = query.where('id', '<=', range.throughId);
  if (range.from !== undefined) query = query.where('at', '>=', range.from);
  if (range.to !== undefined) query = query.where('at', '<', range.to);
  return query;
}

/** The summary of the market's trades in `range`. */
export async function summarizeTrades(db: Db, symbol: string, range: TradeRange): Promise<TradeSummary> {
  return (await tradesIn(db, symbol, range)
    .select([
      sql<bigint | null>`min(price)`.as('l'),
      sql<bigint | null>`max(price)`.as('h'),
      sql<bigint | null>`cast(sum(qty) as bigint)`.as('v'),
      sql<bigint | null>`cast(sum(quote) as bigint)`.as('q'),
      sql<bigint | null>`min(id)`.as('first_id'),
      sql<bigint | null>`max(id)`.as('last_id'),
    ])
    .executeTakeFirstOrThrow()) as TradeSummary;
}

/** The market's trades in `range` grouped in candles of `span`, the newest `limit`, newest first. */
export function groupTrades(db: Db, symbol: string, span: bigint, range: TradeRange, limit: number) {
  // why: the span is inlined (one of our constants, never input) so PostgreSQL sees the same
  // expression in the select and the group by.
  const bucket = sql<bigint>`at - at % ${sql.raw(String(span))}`;
  return tradesIn(db, symbol, range)
    .select([
      bucket.as('t'),
      sql<bigint>`min(price)`.as('l'),
      sql<bigint>`max(price)`.as('h'),
      sql<bigint>`cast(sum(qty) as bigint)`.as('v'),
      sql<bigint>`cast(sum(quote) as bigint)`.as('q'),
      sql<bigint>`min(id)`.as('first_id'),
      sql<bigint>`max(id)`.as('last_id'),
    ])
    .groupBy(bucket)
    .orderBy('t', 'desc')
    .limit(limit)
    .execute();
}

/** The prices of the trades `ids` (a candle's open and close). */
export async function tradePrices(db: Db, ids: readonly bigint[]): Promise<Map<bigint, bigint>> {
  const prices = new Map<bigint, bigint>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('spot_trades')
      .select(['id', 'price'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) prices.set(row.id, row.price);
  }
  return prices;
}
