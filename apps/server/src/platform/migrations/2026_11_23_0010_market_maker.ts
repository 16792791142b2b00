import type { Kysely } from 'kysely';

/**
 * The market maker's settings, one row per spot market: whether it quotes, how many levels per
 * side, the spread between its best bid and best ask and the step between levels (basis points of
 * the index), the quantity per level, and the inventory it aims for with the deviation it
 * tolerates (base-coin atoms). Times unix ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('market_maker_settings')
    .addColumn('symbol', 'text', (c) => c.primaryKey().references('spot_markets.symbol'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('levels', 'integer', (c) => c.notNull())
    .addColumn('spread_bps', 'integer', (c) => c.notNull())
    .addColumn('step_bps', 'integer', (c) => c.notNull())
    .addColumn('level_qty', 'bigint', (c) => c.notNull())
    .addColumn('inventory_target', 'bigint', (c) => c.notNull())
    .addColumn('max_inventory_deviation', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('market_maker_settings').execute();
}
