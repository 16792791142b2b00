import type { Kysely } from 'kysely';

/**
 * A customer's margin changes of perpetual positions, by the key the app sends with each
 * submission: a retried request finds its key here and moves nothing again. Written by the
 * market's sequencer in the batch that moves the margin. Amounts in atoms, times unix ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('perp_margin_requests')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('perp_margin_requests_pk', ['user_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('perp_margin_requests').execute();
}
