import type { Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

/**
 * Uploaded files kept in the database (deposit vouchers, identity documents, chat pictures), one
 * row per file of a named store. why: nodes sharing one PostgreSQL store must read what any of
 * them saved, and the bytes then travel with the database's own backup. The table is made on
 * both dialects so the schema is one; a SQLite store (one node) keeps its files in folders.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stored_files')
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bytes', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_files_pk', ['store', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_files').execute();
}
