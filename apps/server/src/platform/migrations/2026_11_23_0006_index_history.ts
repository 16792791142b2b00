import type { Kysely } from 'kysely';

/**
 * The index's history: every recorded tick (so the price at any past instant can be looked up,
 * and contracts settle from it) and its candles per interval (kept when old ticks are pruned).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('index_ticks')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('index_ticks_pk', ['symbol', 'at'])
    .execute();
  // why: pruning deletes by age across every symbol, which the (symbol, at) key cannot serve.
  await db.schema.createIndex('index_ticks_at_idx').on('index_ticks').column('at').execute();

  await db.schema
    .createTable('index_candles')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('o', 'bigint', (c) => c.notNull())
    .addColumn('h', 'bigint', (c) => c.notNull())
    .addColumn('l', 'bigint', (c) => c.notNull())
    .addColumn('c', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('index_candles_pk', ['symbol', 'interval', 't'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('index_candles').execute();
  await db.schema.dropTable('index_ticks').execute();
}
