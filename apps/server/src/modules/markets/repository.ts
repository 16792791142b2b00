import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { ListingStatus, Millis } from '../../platform/schema.ts';

/**
 * Queries on `coins`, `markets`, `index_prices`, `index_ticks`, `index_candles` and
 * `index_source_mappings`, owned by the markets module.
 */

export function listCoins(db: Db) {
  return db.selectFrom('coins').selectAll().orderBy('sort').orderBy('symbol').execute();
}

export function listMarkets(db: Db, options: { status?: ListingStatus } = {}) {
  let query = db.selectFrom('markets').selectAll();
  if (options.status) query = query.where('status', '=', options.status);
  return query.orderBy('sort').orderBy('symbol').execute();
}

/** Inserts coins whose symbol is not there yet; existing rows keep their values. */
export async function insertMissingCoins(
  db: Db,
  coins: { symbol: string; name: string; display_decimals: bigint; sort: bigint }[],
): Promise<void> {
  if (coins.length === 0) return;
  await db
    .insertInto('coins')
    .values(coins)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
}

/** Inserts markets whose symbol is not there yet; existing rows keep their values. */
export async function insertMissingMarkets(
  db: Db,
  markets: { symbol: string; base: string; quote: string; price_decimals: bigint; sort: bigint }[],
): Promise<void> {
  if (markets.length === 0) return;
  await db
    .insertInto('markets')
    .values(markets)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
}

export function findMarket(db: Db, symbol: string) {
  return db.selectFrom('markets').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export function listIndexPrices(db: Db) {
  return db.selectFrom('index_prices').selectAll().execute();
}

/**
 * Records the latest index price of several symbols in one statement. Only a newer price
 * replaces the stored one: a feed node that stalled past its lease and wakes up beside the new
 * holder cannot move the index back to its older tick.
 */
export async function upsertIndexPrices(
  db: Db,
  rows: { symbol: string; price: bigint; source: string; updated_at: Millis; constituents: string | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('index_prices')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('symbol')
        .doUpdateSet({
          price: (eb) => eb.ref('excluded.price'),
          source: (eb) => eb.ref('excluded.source'),
          updated_at: (eb) => eb.ref('excluded.updated_at'),
          constituents: (eb) => eb.ref('excluded.constituents'),
        })
        .where('index_prices.updated_at', '<', (eb) => eb.ref('excluded.updated_at')),
    )
    .execute();
}

export interface TickRow {
  symbol: string;
  at: Millis;
  price: bigint;
  source: string;
  /** JSON of the tick's constituents (decimal-string prices); null on ticks recorded before them. */
  constituents: string | null;
}

/** Inserts ticks; one already recorded for its (symbol, at) is left alone. Answers those inserted. */
export async function insertIndexTicks(db: Db, rows: TickRow[]): Promise<TickRow[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('index_ticks')
    .values(rows)
    .onConflict((oc) => oc.columns(['symbol', 'at']).doNothing())
    .returning(['symbol', 'at', 'price', 'source', 'constituents'])
    .execute();
}

export interface CandleRow {
  symbol: string;
  interval: string;
  t: Millis;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
}

/**
 * Folds one tick per row into its candle: a new candle opens at the tick's price; an existing one
 * keeps its open, widens its high and low and closes at the tick. Answers the candles as stored.
 */
export async function upsertIndexCandles(db: Db, rows: CandleRow[]): Promise<CandleRow[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('index_candles')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['symbol', 'interval', 't']).doUpdateSet({
        // why: greatest/least (PostgreSQL) and max/min (SQLite) differ; a case reads the same on both.
        h: sql<bigint>`case when excluded.h > index_candles.h then excluded.h else index_candles.h end`,
        l: sql<bigint>`case when excluded.l < index_candles.l then excluded.l else index_candles.l end`,
        c: (eb) => eb.ref('excluded.c'),
      }),
    )
    .returning(['symbol', 'interval', 't', 'o', 'h', 'l', 'c'])
    .execute();
}

/** Ticks of one symbol in [from, to], oldest first. */
export function listIndexTicks(db: Db, symbol: string, from: Millis, to: Millis, limit: number) {
  return db
    .selectFrom('index_ticks')
    .select(['symbol', 'at', 'price', 'source', 'constituents'])
    .where('symbol', '=', symbol)
    .where('at', '>=', from)
    .where('at', '<=', to)
    .orderBy('at')
    .limit(limit)
    .execute();
}

export function findFirstTickAtOrAfter(db: Db, symbol: string, at: Millis) {
  return db
    .selectFrom('index_ticks')
    .select(['symbol', 'at', 'price', 'source', 'constituents'])
    .where('symbol', '=', symbol)
    .where('at', '>=', at)
    .orderBy('at')
    .limit(1)
    .executeTakeFirst();
}

/** The newest `limit` candles of one symbol and interval opening before `before`, newest first. */
export function listCandlesNewestFirst(
  db: Db,
  symbol: string,
  interval: string,
  before: Millis | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('index_candles')
    .select(['symbol', 'interval', 't', 'o', 'h', 'l', 'c'])
    .where('symbol', '=', symbol)
    .where('interval', '=', interval);
  if (before !== undefined) query = query.where('t', '<', before);
  return query.orderBy('t', 'desc').limit(limit).execute();
}

/**
 * The newest candle of each symbol and interval asked for: one seek on the primary key each (a
 * year of candles is millions of rows; grouping them all to find the newest took seconds).
 */
export async function listLatestCandles(
  db: Db,
  symbols: readonly string[],
  intervals: readonly string[],
): Promise<CandleRow[]> {
  const out: CandleRow[] = [];
  for (const symbol of symbols) {
    for (const interval of intervals) {
      const row = await db
        .selectFrom('index_candles')
        .select(['symbol', 'interval', 't', 'o', 'h', 'l', 'c'])
        .where('symbol', '=', symbol)
        .where('interval', '=', interval)
        .orderBy('t', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row) out.push(row);
    }
  }
  return out;
}

/** Deletes the oldest `limit` (at most) ticks recorded before `before`, found through the `at` index; answers how many. */
export async function deleteTicksBefore(db: Db, before: Millis, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('index_ticks')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('symbol', 'at'),
        'in',
        selectFrom('index_ticks')
          .select(['symbol', 'at'])
          .where('at', '<', before)
          .orderBy('at')
          .limit(limit)
          .$asTuple('symbol', 'at'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the oldest `limit` (at most) of one symbol's candles of one interval opened before `before`; answers how many. */
export async function deleteCandlesBefore(
  db: Db,
  symbol: string,
  interval: string,
  before: Millis,
  limit: number,
): Promise<number> {
  // why: (symbol, interval) pins the primary key's prefix, so the slice is a range seek on `t`.
  const result = await db
    .deleteFrom('index_candles')
    .where('symbol', '=', symbol)
    .where('interval', '=', interval)
    .where('t', 'in', (qb) =>
      qb
        .selectFrom('index_candles')
        .select('t')
        .where('symbol', '=', symbol)
        .where('interval', '=', interval)
        .where('t', '<', before)
        .orderBy('t')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function listSourceMappings(db: Db, symbol?: string) {
  let query = db.selectFrom('index_source_mappings').selectAll();
  if (symbol !== undefined) query = query.where('symbol', '=', symbol);
  return query.orderBy('symbol').orderBy('venue').execute();
}

/** Sets one market's symbol on one venue (null: the venue is left out of that market). */
export async function upsertSourceMapping(
  db: Db,
  row: { symbol: string; venue: string; venue_symbol: string | null; updated_at: Millis; updated_by: bigint },
): Promise<void> {
  await db
    .insertInto('index_source_mappings')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['symbol', 'venue']).doUpdateSet({
        venue_symbol: (eb) => eb.ref('excluded.venue_symbol'),
        updated_at: (eb) => eb.ref('excluded.updated_at'),
        updated_by: (eb) => eb.ref('excluded.updated_by'),
      }),
    )
    .execute();
}

/** Removes one market's mapping on one venue, so the venue uses the default base/quote again. */
export async function deleteSourceMapping(db: Db, symbol: string, venue: string): Promise<void> {
  await db
    .deleteFrom('index_source_mappings')
    .where('symbol', '=', symbol)
    .where('venue', '=', venue)
    .execute();
}
