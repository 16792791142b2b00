import type { Db } from '../../platform/db.ts';
import type { ListingStatus, Millis } from '../../platform/schema.ts';

/** Queries on `coins`, `markets` and `index_prices`, owned by the markets module. */

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

export function listIndexPrices(db: Db) {
  return db.selectFrom('index_prices').selectAll().execute();
}

/** Records the latest index price of several symbols in one statement. */
export async function upsertIndexPrices(
  db: Db,
  rows: { symbol: string; price: bigint; source: string; updated_at: Millis }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('index_prices')
    .values(rows)
    .onConflict((oc) =>
      oc.column('symbol').doUpdateSet({
        price: (eb) => eb.ref('excluded.price'),
        source: (eb) => eb.ref('excluded.source'),
        updated_at: (eb) => eb.ref('excluded.updated_at'),
      }),
    )
    .execute();
}
