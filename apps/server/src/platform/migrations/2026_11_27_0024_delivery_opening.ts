import { type Kysely, sql } from 'kysely';
import { bigIdColumn, isPostgres } from './helpers.ts';

/**
 * Delivery contracts open on the first index tick recorded after acceptance: until it comes the
 * contract is `opening` and has no opening price, source or tick time, so those columns become
 * nullable. Every contract also keeps the constituents (each source's price, used or why dropped)
 * of its opening and closing ticks, as JSON.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const column of ['open_price', 'open_price_at', 'open_source']) {
      await db.schema
        .alterTable('delivery_contracts')
        .alterColumn(column, (c) => c.dropNotNull())
        .execute();
    }
    await db.schema.alterTable('delivery_contracts').addColumn('open_constituents', 'text').execute();
    await db.schema.alterTable('delivery_contracts').addColumn('close_constituents', 'text').execute();
    return;
  }
  // why: SQLite cannot drop a NOT NULL; the table is rebuilt with the same columns and indexes
  // (nothing references it), its rows copied in id order.
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('delivery_contracts_next')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('funding', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'bigint', (c) => c.references('trial_grants.id'))
    .addColumn('ratio_bps', 'integer', (c) => c.notNull())
    .addColumn('open_price', 'bigint')
    .addColumn('open_price_at', 'bigint')
    .addColumn('open_source', 'text')
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
    .addColumn('open_constituents', 'text')
    .addColumn('close_constituents', 'text')
    .addUniqueConstraint('delivery_contracts_user_key_unique_next', ['user_id', 'idempotency_key'])
    .execute();
  const columns = sql.raw(
    'id, user_id, symbol, direction, period, amount, funding, grant_id, ratio_bps, open_price, ' +
      'open_price_at, open_source, opened_at, expires_at, status, result, close_price, close_at, ' +
      'close_source, payout, profit, settled_at, idempotency_key',
  );
  await sql`insert into delivery_contracts_next (${columns}) select ${columns} from delivery_contracts order by id`.execute(
    db,
  );
  await db.schema.dropTable('delivery_contracts').execute();
  await db.schema.alterTable('delivery_contracts_next').renameTo('delivery_contracts').execute();
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

export async function down(): Promise<void> {
  // why: an `opening` contract has no opening price to put back into a NOT NULL column.
  throw new Error('2026_11_27_0024_delivery_opening cannot be undone');
}
