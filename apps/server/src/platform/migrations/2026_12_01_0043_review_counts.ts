import type { Kysely } from 'kysely';

/**
 * The back-office dashboard counts the deposits and withdrawals made today: an index on their
 * creation time makes that a seek over today's rows instead of a pass over every one ever made.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('deposits_created_idx').on('deposits').column('created_at').execute();
  await db.schema.createIndex('withdrawals_created_idx').on('withdrawals').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('withdrawals_created_idx').execute();
  await db.schema.dropIndex('deposits_created_idx').execute();
}
