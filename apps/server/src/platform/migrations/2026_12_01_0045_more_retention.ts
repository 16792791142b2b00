import type { Kysely } from 'kysely';

/** Indexes on age for the operational tables pruned by it since: staff sessions and email codes. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('staff_sessions_created_idx')
    .on('staff_sessions')
    .column('created_at')
    .execute();
  await db.schema.createIndex('email_codes_created_idx').on('email_codes').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('email_codes_created_idx').execute();
  await db.schema.dropIndex('staff_sessions_created_idx').execute();
}
