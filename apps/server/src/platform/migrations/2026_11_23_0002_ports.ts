import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Coins and markets as rows (the demo seed fills them), the index feed's last price per symbol,
 * and the leases that keep a scheduled job on one node.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('coins')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_decimals', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();

  await db.schema
    .createTable('markets')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .addColumn('base', 'text', (c) => c.notNull().references('coins.symbol'))
    .addColumn('quote', 'text', (c) => c.notNull().references('coins.symbol'))
    .addColumn('price_decimals', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addUniqueConstraint('markets_base_quote_unique', ['base', 'quote'])
    .execute();

  await db.schema
    .createTable('index_prices')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['job_leases', 'index_prices', 'markets', 'coins']) {
    await db.schema.dropTable(table).execute();
  }
}
