import type { Kysely } from 'kysely';

/**
 * Spot candles kept as trades commit, so a chart or a 24-hour ticker reads a few stored candles
 * instead of grouping a market's trades per request. `spot_candle_folds` records, per market, the
 * newest trade folded; trades after it are read raw and merged in, so answers never wait for the
 * job that folds them. Filled by that job from the first trade on (no backfill here: a migration
 * runs before the server listens).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('spot_candles')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('span', 'bigint', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('o', 'bigint', (c) => c.notNull())
    .addColumn('h', 'bigint', (c) => c.notNull())
    .addColumn('l', 'bigint', (c) => c.notNull())
    .addColumn('c', 'bigint', (c) => c.notNull())
    .addColumn('v', 'bigint', (c) => c.notNull())
    .addColumn('q', 'bigint', (c) => c.notNull())
    .addColumn('first_id', 'bigint', (c) => c.notNull())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('spot_candles_pk', ['symbol', 'span', 't'])
    .execute();
  await db.schema
    .createTable('spot_candle_folds')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('trade_id', 'bigint', (c) => c.notNull())
    .addColumn('max_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('spot_candle_folds').execute();
  await db.schema.dropTable('spot_candles').execute();
}
