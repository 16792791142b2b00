import { type Kysely, sql } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Real-name verification (the `identity` module): the images a user uploads before submitting
 * (private files under generated names, owned by the uploader, used at most once), and one row per
 * submission with its review. `users.realname_status` mirrors the latest submission's state
 * (0 none, 1 under review, 2 verified, 3 rejected) so profiles and team lists read it without a join.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('identity_uploads')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('identity_uploads_user_idx')
    .on('identity_uploads')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('identity_verifications')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('real_name', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('front_image', 'text', (c) => c.notNull())
    .addColumn('back_image', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reviewed_by', 'bigint')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('identity_verifications_user_idx')
    .on('identity_verifications')
    .columns(['user_id', 'id'])
    .execute();
  // why: at most one submission under review or approved per user, whatever races.
  await sql`create unique index identity_verifications_open_idx on identity_verifications (user_id)
    where status in ('pending', 'approved')`.execute(db);
  await db.schema
    .createIndex('identity_verifications_status_idx')
    .on('identity_verifications')
    .columns(['status', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('identity_verifications').execute();
  await db.schema.dropTable('identity_uploads').execute();
}
