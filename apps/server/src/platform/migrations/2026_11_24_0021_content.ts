import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Content written by staff (the `content` module): announcements, help articles and the
 * operator's pages (about us, the MSB certificate), each with a title and a sanitised body per
 * locale, pinning, a publish time and a draft or published state.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('content_items')
    .addColumn('id', idType, idDef)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('publish_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('content_items_listing_idx')
    .on('content_items')
    .columns(['kind', 'status', 'publish_at'])
    .execute();
  await db.schema
    .createTable('content_texts')
    .addColumn('item_id', 'bigint', (c) => c.notNull().references('content_items.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_texts_pk', ['item_id', 'locale'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('content_texts').execute();
  await db.schema.dropTable('content_items').execute();
}
