import type { Kysely } from 'kysely';

/**
 * Trial money that stays trial (docs/trial-money.md). A verification keeps a keyed hash of its
 * document number (never the number); a grant records the identity it was given for, and one plan
 * is granted once per identity (a unique index, so two accounts approved at once get one grant).
 * A grant's trial profit is locked until real turnover reaches its requirement: the columns keep
 * what is locked, released and expired, and the turnover required and done. Registration
 * addresses are indexed for the hedge rule's link between accounts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identity_verifications').addColumn('doc_hash', 'text').execute();
  await db.schema
    .createIndex('identity_verifications_doc_hash_idx')
    .on('identity_verifications')
    .columns(['doc_hash', 'status'])
    .execute();

  await db.schema.alterTable('trial_grants').addColumn('identity_hash', 'text').execute();
  for (const column of [
    'profit_locked',
    'profit_released',
    'profit_expired',
    'turnover_required',
    'turnover_done',
  ]) {
    await db.schema
      .alterTable('trial_grants')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // why: NULLs are distinct in a unique index on both dialects, so grants made before identities
  // were recorded stay as they are; every new grant carries its identity's hash.
  await db.schema
    .createIndex('trial_grants_plan_identity_unique')
    .on('trial_grants')
    .columns(['plan_id', 'identity_hash'])
    .unique()
    .execute();

  await db.schema.createIndex('users_reg_ip_idx').on('users').columns(['reg_ip', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_reg_ip_idx').execute();
  await db.schema.dropIndex('trial_grants_plan_identity_unique').execute();
  for (const column of [
    'turnover_done',
    'turnover_required',
    'profit_expired',
    'profit_released',
    'profit_locked',
    'identity_hash',
  ]) {
    await db.schema.alterTable('trial_grants').dropColumn(column).execute();
  }
  await db.schema.dropIndex('identity_verifications_doc_hash_idx').execute();
  await db.schema.alterTable('identity_verifications').dropColumn('doc_hash').execute();
}
