import { type Kysely, sql } from 'kysely';

/**
 * Terms of service (the `content` module): a published terms page carries a version (a changed
 * text published again is a new one), unique among terms pages; each customer's acceptances are
 * kept with their time and address, so what a customer agreed to, and when, is on record.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('content_items')
    .addColumn('terms_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create unique index content_items_terms_version_idx on content_items (terms_version) where terms_version > 0`.execute(
    db,
  );
  await db.schema
    .createTable('terms_acceptances')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('terms_acceptances_pk', ['user_id', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('terms_acceptances').execute();
  await sql`drop index content_items_terms_version_idx`.execute(db);
  await db.schema.alterTable('content_items').dropColumn('terms_version').execute();
}
