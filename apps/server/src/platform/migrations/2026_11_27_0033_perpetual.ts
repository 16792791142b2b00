import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Perpetual contracts (perpetual.md). `perp_markets`: each market's parameters (tiers as JSON),
 * its running figures (sequence, next ids, mark, last, frozen, the insurance fund as the clearing
 * moved it) and the epoch of the node allowed to write it. `perp_positions`: one row per user and
 * market (kept while flat: it holds the chosen leverage). `perp_orders`: every order with its
 * market-local number (`order_no`, the clearing's id). `perp_lots`: positions the insurance fund
 * took over and has not unwound. `perp_trades`, `perp_fundings` (one per market and funding time:
 * the unique index makes a funding event happen once), `perp_funding_payments`, `perp_liquidations`
 * (takeovers and ADL), `perp_insurance_moves` and `perp_premiums` (the minute premium samples the
 * funding rate is averaged from) are the records. Amounts in atoms, prices in atoms (not ticks),
 * rates over 10^8, times unix ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('perp_markets')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('index_symbol', 'text', (c) => c.notNull())
    .addColumn('tick_size', 'bigint', (c) => c.notNull())
    .addColumn('lot_size', 'bigint', (c) => c.notNull())
    .addColumn('price_decimals', 'bigint', (c) => c.notNull())
    .addColumn('qty_decimals', 'bigint', (c) => c.notNull())
    .addColumn('maker_rate', 'bigint', (c) => c.notNull())
    .addColumn('taker_rate', 'bigint', (c) => c.notNull())
    .addColumn('band_rate', 'bigint', (c) => c.notNull())
    .addColumn('tiers', 'text', (c) => c.notNull())
    .addColumn('max_leverage', 'bigint', (c) => c.notNull())
    .addColumn('funding_interval_ms', 'bigint', (c) => c.notNull())
    .addColumn('interest_rate', 'bigint', (c) => c.notNull())
    .addColumn('funding_clamp', 'bigint', (c) => c.notNull())
    .addColumn('funding_cap', 'bigint', (c) => c.notNull())
    .addColumn('impact_notional', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('epoch', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('next_order_no', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('next_position_no', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('mark', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('frozen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('insurance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_rate', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('perp_positions')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('position_no', 'bigint', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('entry', 'bigint', (c) => c.notNull())
    .addColumn('margin', 'bigint', (c) => c.notNull())
    .addColumn('leverage', 'bigint', (c) => c.notNull())
    .addColumn('realised', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('perp_positions_pk', ['symbol', 'user_id'])
    .execute();
  await db.schema.createIndex('perp_positions_user_idx').on('perp_positions').column('user_id').execute();
  await db.schema
    .createTable('perp_orders')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('order_no', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('filled_qty', 'bigint', (c) => c.notNull())
    .addColumn('filled_value', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('hold', 'bigint', (c) => c.notNull())
    .addColumn('leverage', 'bigint', (c) => c.notNull())
    .addColumn('reduce_only', 'integer', (c) => c.notNull())
    .addColumn('close_position', 'integer', (c) => c.notNull())
    .addColumn('post_only', 'integer', (c) => c.notNull())
    .addColumn('ioc', 'integer', (c) => c.notNull())
    .addColumn('trigger_kind', 'text')
    .addColumn('trigger_price', 'bigint')
    .addColumn('trigger_ref', 'text')
    .addColumn('trigger_condition', 'text')
    .addColumn('price_protect', 'integer', (c) => c.notNull())
    .addColumn('oco', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('end_reason', 'text')
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('perp_orders_no_idx')
    .on('perp_orders')
    .columns(['symbol', 'order_no'])
    .unique()
    .execute();
  await db.schema.createIndex('perp_orders_user_idx').on('perp_orders').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('perp_orders_open_idx')
    .on('perp_orders')
    .columns(['symbol', 'state'])
    .execute();
  await db.schema
    .createIndex('perp_orders_key_idx')
    .on('perp_orders')
    .columns(['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createTable('perp_lots')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('lot_no', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('entry', 'bigint', (c) => c.notNull())
    .addColumn('bankruptcy', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('perp_lots_pk', ['symbol', 'lot_no'])
    .execute();
  await db.schema
    .createTable('perp_trades')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addColumn('taker_side', 'text', (c) => c.notNull())
    .addColumn('maker_order_no', 'bigint', (c) => c.notNull())
    .addColumn('taker_order_no', 'bigint', (c) => c.notNull())
    .addColumn('maker_user_id', 'bigint', (c) => c.notNull())
    .addColumn('taker_user_id', 'bigint', (c) => c.notNull())
    .addColumn('maker_fee', 'bigint', (c) => c.notNull())
    .addColumn('taker_fee', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('perp_trades_symbol_idx').on('perp_trades').columns(['symbol', 'id']).execute();
  await db.schema
    .createIndex('perp_trades_orders_idx')
    .on('perp_trades')
    .columns(['symbol', 'maker_order_no', 'taker_order_no'])
    .execute();
  await db.schema
    .createTable('perp_fundings')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('funding_at', 'bigint', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('mark', 'bigint', (c) => c.notNull())
    .addColumn('paid', 'bigint', (c) => c.notNull())
    .addColumn('received', 'bigint', (c) => c.notNull())
    .addColumn('residual', 'bigint', (c) => c.notNull())
    .addColumn('positions', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('perp_fundings_once_idx')
    .on('perp_fundings')
    .columns(['symbol', 'funding_at'])
    .unique()
    .execute();
  await db.schema
    .createTable('perp_funding_payments')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('funding_at', 'bigint', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('mark', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('perp_funding_payments_user_idx')
    .on('perp_funding_payments')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createTable('perp_liquidations')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('entry', 'bigint', (c) => c.notNull())
    .addColumn('margin', 'bigint', (c) => c.notNull())
    .addColumn('mark', 'bigint', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('pnl', 'bigint', (c) => c.notNull())
    .addColumn('remainder', 'bigint', (c) => c.notNull())
    .addColumn('lot_no', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('perp_liquidations_user_idx')
    .on('perp_liquidations')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createTable('perp_insurance_moves')
    .addColumn('id', idType, idDef)
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('perp_premiums')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('premium', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('perp_premiums_pk', ['symbol', 'minute'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'perp_premiums',
    'perp_insurance_moves',
    'perp_liquidations',
    'perp_funding_payments',
    'perp_fundings',
    'perp_trades',
    'perp_lots',
    'perp_orders',
    'perp_positions',
    'perp_markets',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
