import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Delivery (timed up/down) contracts: products per market and their periods (configured by
 * staff), the contracts, trial-money plans and the grants made from them. Ratios are basis points
 * (8000 = 0.80), amounts and prices atoms, times unix ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);

  await db.schema
    .createTable('delivery_products')
    .addColumn('symbol', 'text', (c) => c.primaryKey().references('markets.symbol'))
    .addColumn('status', 'text', (c) => c.notNull())
    // why: per direction, the most the amounts of open contracts on the market may add up to.
    .addColumn('max_exposure', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('delivery_periods')
    .addColumn('symbol', 'text', (c) => c.notNull().references('delivery_products.symbol'))
    .addColumn('seconds', 'integer', (c) => c.notNull())
    .addColumn('ratio_bps', 'integer', (c) => c.notNull())
    .addColumn('min_amount', 'bigint', (c) => c.notNull())
    .addColumn('max_amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_periods_pk', ['symbol', 'seconds'])
    .execute();

  await db.schema
    .createTable('trial_grant_plans')
    .addColumn('id', idType, idDef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('validity_days', 'integer', (c) => c.notNull())
    .addColumn('profit_cap_percent', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('trial_grants')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('plan_id', 'bigint', (c) => c.notNull().references('trial_grant_plans.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('remaining', 'bigint', (c) => c.notNull())
    .addColumn('profit_cap', 'bigint', (c) => c.notNull())
    .addColumn('profit_paid', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // why: what makes a grant once: `signup:<plan>:<user>` or the staff member's submission key.
    .addColumn('grant_key', 'text', (c) => c.notNull().unique())
    .addColumn('granted_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trial_grants_user_idx')
    .on('trial_grants')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('trial_grants_status_idx')
    .on('trial_grants')
    .columns(['status', 'expires_at'])
    .execute();

  await db.schema
    .createTable('delivery_contracts')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('funding', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'bigint', (c) => c.references('trial_grants.id'))
    // why: copied from the period at placement, so a later change of the product never reaches it.
    .addColumn('ratio_bps', 'integer', (c) => c.notNull())
    .addColumn('open_price', 'bigint', (c) => c.notNull())
    .addColumn('open_price_at', 'bigint', (c) => c.notNull())
    .addColumn('open_source', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('close_price', 'bigint')
    .addColumn('close_at', 'bigint')
    .addColumn('close_source', 'text')
    .addColumn('payout', 'bigint')
    .addColumn('profit', 'bigint')
    .addColumn('settled_at', 'bigint')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addUniqueConstraint('delivery_contracts_user_key_unique', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('delivery_contracts_user_idx')
    .on('delivery_contracts')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('delivery_contracts_due_idx')
    .on('delivery_contracts')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('delivery_contracts_market_idx')
    .on('delivery_contracts')
    .columns(['symbol', 'direction', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'delivery_contracts',
    'trial_grants',
    'trial_grant_plans',
    'delivery_periods',
    'delivery_products',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
