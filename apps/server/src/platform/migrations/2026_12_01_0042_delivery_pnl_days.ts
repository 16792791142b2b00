import { type Kysely, sql } from 'kysely';

const DAY_MS = 86_400_000;

/**
 * The house's delivery result kept per UTC day, market, funding and result as contracts settle,
 * so the back office's P&L over months reads a few rows per day instead of grouping every settled
 * contract; an index on `settled_at` finds the contracts of a range's partial first and last days.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_pnl_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('funding', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('profit', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_pnl_days_pk', ['day', 'symbol', 'funding', 'result'])
    .execute();
  await db.schema
    .createIndex('delivery_contracts_settled_idx')
    .on('delivery_contracts')
    .column('settled_at')
    .execute();
  await sql`insert into delivery_pnl_days (day, symbol, funding, result, count, amount, profit)
    select settled_at - settled_at % ${sql.raw(String(DAY_MS))}, symbol, funding, result,
      count(*), cast(sum(amount) as bigint), cast(coalesce(sum(profit), 0) as bigint)
    from delivery_contracts
    where status in ('settled', 'closed') and settled_at is not null and result is not null
    group by settled_at - settled_at % ${sql.raw(String(DAY_MS))}, symbol, funding, result`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('delivery_contracts_settled_idx').execute();
  await db.schema.dropTable('delivery_pnl_days').execute();
}
