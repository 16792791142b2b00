import type { Kysely } from 'kysely';

/**
 * Every index tick keeps the sources it was made of: `constituents` is a JSON array of
 * `{ source, price, at, used, reason }` with prices as decimal strings, on the ticks and on the
 * latest price of each symbol. Ticks recorded before this migration have none (null).
 * `index_source_mappings` is the operator's per-market choice of each venue's symbol: a row with a
 * null `venue_symbol` leaves the venue out of that market; no row means the default base/quote.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('index_ticks').addColumn('constituents', 'text').execute();
  await db.schema.alterTable('index_prices').addColumn('constituents', 'text').execute();
  await db.schema
    .createTable('index_source_mappings')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('venue', 'text', (c) => c.notNull())
    .addColumn('venue_symbol', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('index_source_mappings_pk', ['symbol', 'venue'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('index_source_mappings').execute();
  await db.schema.alterTable('index_prices').dropColumn('constituents').execute();
  await db.schema.alterTable('index_ticks').dropColumn('constituents').execute();
}
