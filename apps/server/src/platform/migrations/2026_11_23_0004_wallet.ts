import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * The wallet: per-coin wallet settings and networks (configured by staff), deposits, withdrawals,
 * conversions and bank cards. `withdraw_addresses` (created with the accounts) is the wallet's too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);

  await db.schema
    .createTable('wallet_coins')
    .addColumn('coin', 'text', (c) => c.primaryKey().references('coins.symbol'))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('display_decimals', 'integer', (c) => c.notNull().defaultTo(8))
    .addColumn('convertible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deposit_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('withdraw_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('wallet_networks')
    .addColumn('id', idType, idDef)
    .addColumn('coin', 'text', (c) => c.notNull().references('coins.symbol'))
    .addColumn('network', 'text', (c) => c.notNull())
    // why: which address format the network's addresses follow (`btc`, `eth`, `trx`, ... or `bank`).
    .addColumn('address_format', 'text', (c) => c.notNull())
    .addColumn('deposit_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('min_deposit', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('min_withdraw', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('max_withdraw', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('withdraw_fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('wallet_networks_coin_network_unique', ['coin', 'network'])
    .execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('credited_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tx_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reviewed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .execute();
  await db.schema.createIndex('deposits_user_idx').on('deposits').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('deposits_status_idx').on('deposits').columns(['status', 'id']).execute();

  await db.schema
    .createTable('bank_cards')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('bank_code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_cards_user_idx').on('bank_cards').column('user_id').execute();

  await db.schema
    .createTable('withdrawals')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // why: the destination is copied, so deleting a saved address or card keeps the record whole.
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('reviewed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .addUniqueConstraint('withdrawals_user_key_unique', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('withdrawals_user_idx').on('withdrawals').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('withdrawals_status_idx').on('withdrawals').columns(['status', 'id']).execute();

  await db.schema
    .createTable('conversions')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('from_coin', 'text', (c) => c.notNull())
    .addColumn('to_coin', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('received', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('conversions_user_key_unique', ['user_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'conversions',
    'withdrawals',
    'bank_cards',
    'deposits',
    'wallet_networks',
    'wallet_coins',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
