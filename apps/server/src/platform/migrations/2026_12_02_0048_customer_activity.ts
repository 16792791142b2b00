import { type Kysely, sql } from 'kysely';

/**
 * When a customer was last seen on any node (unix ms): an `/apiv` request or an open `/ws`
 * connection. One row, written by every node at most every 30 seconds and read by the demo's
 * bots, which pause while nobody has been seen for `DEMO_IDLE_MINUTES`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customer_activity')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('customer_activity').execute();
}
