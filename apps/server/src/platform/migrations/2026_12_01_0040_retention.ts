import { type Kysely, sql } from 'kysely';

/**
 * Indexes that let the retention jobs seek straight to the rows they delete, a bounded slice at a
 * time, instead of scanning past the rows they keep.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // why: partial, so customers' orders (kept forever) and the bots' live or filled orders are not
  // in it: a prune slice of the bots' dead quotes reads only rows it deletes. The conditions are
  // literals because a planner can use a partial index only when the query repeats them.
  await db.schema
    .createIndex('spot_orders_unfilled_revoked_idx')
    .on('spot_orders')
    .columns(['user_id', 'updated_at'])
    .where(sql<boolean>`status = 'revoked' and filled_qty = 0`)
    .execute();
  await db.schema
    .createIndex('perp_orders_unfilled_ended_idx')
    .on('perp_orders')
    .columns(['user_id', 'updated_at'])
    .where(sql<boolean>`state in ('cancelled', 'expired', 'rejected') and filled_qty = 0`)
    .execute();
  // why: append-mostly tables pruned by age; an index on the age seeks to the oldest rows.
  await db.schema.createIndex('sessions_created_idx').on('sessions').column('created_at').execute();
  await db.schema.createIndex('login_logs_created_idx').on('login_logs').column('created_at').execute();
  await db.schema.createIndex('notifications_created_idx').on('notifications').column('created_at').execute();
  await db.schema.createIndex('mail_outbox_created_idx').on('mail_outbox').column('created_at').execute();
  // why: a notification's reads go before it; the primary key leads with the user, not the notice.
  await db.schema
    .createIndex('notification_reads_notification_idx')
    .on('notification_reads')
    .column('notification_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'notification_reads_notification_idx',
    'mail_outbox_created_idx',
    'notifications_created_idx',
    'login_logs_created_idx',
    'sessions_created_idx',
    'perp_orders_unfilled_ended_idx',
    'spot_orders_unfilled_revoked_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
