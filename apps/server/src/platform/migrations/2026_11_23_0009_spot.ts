import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Spot markets (configured by staff), their orders and trades. Prices, quantities, amounts and
 * fees are atoms (10^-8 units); fee ratios basis points; times unix ms. `seq` is the market's
 * sequence: the last command its sequencer applied, and on an order the command that placed it
 * (the engine's order id within the market).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);

  await db.schema
    .createTable('spot_markets')
    .addColumn('symbol', 'text', (c) => c.primaryKey().references('markets.symbol'))
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('tick_size', 'bigint', (c) => c.notNull())
    .addColumn('lot_size', 'bigint', (c) => c.notNull())
    .addColumn('min_notional', 'bigint', (c) => c.notNull())
    .addColumn('maker_fee_bps', 'integer', (c) => c.notNull())
    .addColumn('taker_fee_bps', 'integer', (c) => c.notNull())
    // why: a limit price farther than this from the index is refused (fat fingers, manipulation).
    .addColumn('band_bps', 'integer', (c) => c.notNull())
    .addColumn('price_decimals', 'integer', (c) => c.notNull())
    .addColumn('qty_decimals', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('spot_orders')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull().references('spot_markets.symbol'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('tif', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint')
    .addColumn('qty', 'bigint')
    .addColumn('quote_amount', 'bigint')
    .addColumn('filled_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('filled_quote', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fee_bps', 'integer', (c) => c.notNull())
    // why: what is still frozen for the order, in `hold_asset`; the ledger's frozen balances must
    // equal the sum over open orders (a reservation source).
    .addColumn('hold_asset', 'text', (c) => c.notNull())
    .addColumn('held', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revoke_reason', 'text')
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('spot_orders_user_key_unique', ['user_id', 'idempotency_key'])
    .addUniqueConstraint('spot_orders_market_seq_unique', ['symbol', 'seq'])
    .execute();
  await db.schema.createIndex('spot_orders_user_idx').on('spot_orders').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('spot_orders_open_idx')
    .on('spot_orders')
    .columns(['symbol', 'status', 'seq'])
    .execute();

  await db.schema
    .createTable('spot_trades')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('quote', 'bigint', (c) => c.notNull())
    .addColumn('maker_order_id', 'bigint', (c) => c.notNull())
    .addColumn('maker_user_id', 'bigint', (c) => c.notNull())
    .addColumn('taker_order_id', 'bigint', (c) => c.notNull())
    .addColumn('taker_user_id', 'bigint', (c) => c.notNull())
    .addColumn('taker_side', 'text', (c) => c.notNull())
    .addColumn('maker_fee', 'bigint', (c) => c.notNull())
    .addColumn('taker_fee', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spot_trades_market_idx').on('spot_trades').columns(['symbol', 'id']).execute();
  await db.schema.createIndex('spot_trades_at_idx').on('spot_trades').columns(['symbol', 'at']).execute();
  await db.schema
    .createIndex('spot_trades_maker_idx')
    .on('spot_trades')
    .columns(['maker_user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('spot_trades_taker_idx')
    .on('spot_trades')
    .columns(['taker_user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('spot_trades_maker_order_idx')
    .on('spot_trades')
    .column('maker_order_id')
    .execute();
  await db.schema
    .createIndex('spot_trades_taker_order_idx')
    .on('spot_trades')
    .column('taker_order_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['spot_trades', 'spot_orders', 'spot_markets']) {
    await db.schema.dropTable(table).execute();
  }
}
