import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * The mining market (the `mining` module): products, their machines (instances, each sold whole or
 * in shares), orders, one revenue row per order and day, and the days each output coin's pool
 * could not cover. What a product has sold is the sum of its instances' shares, never a field.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('mining_products')
    .addColumn('id', idType, idDef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'bigint', (c) => c.notNull())
    .addColumn('fee_hashrate', 'bigint', (c) => c.notNull())
    .addColumn('fee_electricity_day', 'bigint', (c) => c.notNull())
    .addColumn('fee_management', 'bigint', (c) => c.notNull())
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('income_type', 'text', (c) => c.notNull())
    .addColumn('daily_q', 'bigint', (c) => c.notNull())
    .addColumn('daily_value', 'bigint', (c) => c.notNull())
    .addColumn('days', 'bigint', (c) => c.notNull())
    .addColumn('capacity', 'bigint', (c) => c.notNull())
    .addColumn('min_share_bp', 'bigint', (c) => c.notNull())
    .addColumn('step_bp', 'bigint', (c) => c.notNull())
    .addColumn('hold_coin', 'text', (c) => c.notNull())
    .addColumn('min_hold', 'bigint', (c) => c.notNull())
    .addColumn('min_referrals', 'bigint', (c) => c.notNull())
    .addColumn('max_orders', 'bigint', (c) => c.notNull())
    .addColumn('release_delay_days', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('mining_instances')
    .addColumn('id', idType, idDef)
    .addColumn('product_id', 'bigint', (c) => c.notNull().references('mining_products.id'))
    .addColumn('sold_bp', 'bigint', (c) => c.notNull())
    .addColumn('share_code', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mining_instances_product_idx')
    .on('mining_instances')
    .columns(['product_id'])
    .execute();
  await db.schema
    .createTable('mining_orders')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('product_id', 'bigint', (c) => c.notNull().references('mining_products.id'))
    .addColumn('instance_id', 'bigint', (c) => c.notNull().references('mining_instances.id'))
    .addColumn('share_bp', 'bigint', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('expire_at', 'bigint', (c) => c.notNull())
    .addColumn('stopped_days', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mining_orders_user_key', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('mining_orders_user_idx')
    .on('mining_orders')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('mining_orders_running_idx')
    .on('mining_orders')
    .columns(['start_at', 'expire_at'])
    .execute();
  await db.schema
    .createTable('mining_revenues')
    .addColumn('id', idType, idDef)
    .addColumn('order_id', 'bigint', (c) => c.notNull().references('mining_orders.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('price_used', 'bigint')
    .addColumn('price_source', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('release_at', 'bigint', (c) => c.notNull())
    .addColumn('released_at', 'bigint')
    .addUniqueConstraint('mining_revenues_order_day', ['order_id', 'day'])
    .execute();
  await db.schema
    .createIndex('mining_revenues_user_idx')
    .on('mining_revenues')
    .columns(['user_id', 'day'])
    .execute();
  await db.schema
    .createIndex('mining_revenues_release_idx')
    .on('mining_revenues')
    .columns(['released_at', 'release_at'])
    .execute();
  // why: one row per output coin and day once the midnight job has handled it: `paid`, or
  // `stopped` when the pool could not cover the day; the job's own record of what it has done.
  await db.schema
    .createTable('mining_days')
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('needed', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mining_days_pk', ['coin', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mining_days').execute();
  await db.schema.dropTable('mining_revenues').execute();
  await db.schema.dropTable('mining_orders').execute();
  await db.schema.dropTable('mining_instances').execute();
  await db.schema.dropTable('mining_products').execute();
}
