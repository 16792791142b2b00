import { type Kysely, sql } from 'kysely';

/**
 * Identity documents recognised by their number alone (docs/trial-money.md). A verification keeps
 * `number_hash`, the keyed hash of its canonical number without the declared country, beside
 * `doc_hash`, the identity its trial grants and links are keyed on.
 *
 * Rows recorded before keep `number_hash` null and their `doc_hash` of `<country>:<number>`: the
 * numbers are not stored, so no migration can re-hash them. The identity module recognises them
 * when a number is next given to it (it recomputes the old hash under each country such rows
 * declare) and then fills their `number_hash`; the partial index lists the countries still to try.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identity_verifications').addColumn('number_hash', 'text').execute();
  await db.schema
    .createIndex('identity_verifications_number_hash_idx')
    .on('identity_verifications')
    .columns(['number_hash', 'status'])
    .execute();
  await sql`create index identity_verifications_legacy_hash_idx on identity_verifications (country)
    where number_hash is null and doc_hash is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('identity_verifications_legacy_hash_idx').execute();
  await db.schema.dropIndex('identity_verifications_number_hash_idx').execute();
  await db.schema.alterTable('identity_verifications').dropColumn('number_hash').execute();
}
