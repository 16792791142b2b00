import { type Kysely, sql } from 'kysely';
import { bigIdColumn, isPostgres } from './helpers.ts';

/**
 * The double-entry ledger (accounts, journal entries, postings) and the staff audit log.
 * Balances are stored per account and kept equal to the fold of their postings by the ledger
 * module, the only writer; the audit log is append-only, enforced on PostgreSQL by a trigger.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', idType, idDef)
    // why: 'user:<id>' or 'system:<name>': one text key makes the unique index simple on both dialects.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('ledger_accounts_owner_asset_kind', ['owner', 'asset', 'kind'])
    .execute();
  await db.schema.createIndex('ledger_accounts_user_idx').on('ledger_accounts').column('user_id').execute();

  await db.schema
    .createTable('journal_entries')
    .addColumn('id', idType, idDef)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('journal_entries_type_ref', ['type', 'ref'])
    .execute();

  await db.schema
    .createTable('postings')
    .addColumn('id', idType, idDef)
    .addColumn('entry_id', 'bigint', (c) => c.notNull().references('journal_entries.id'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('postings_account_idx').on('postings').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('postings_entry_idx').on('postings').column('entry_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', idType, idDef)
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor', 'id']).execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target', 'id']).execute();

  if (isPostgres(db)) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists audit_log_no_change on audit_log`.execute(db);
    await sql`drop function if exists audit_log_append_only()`.execute(db);
  }
  for (const table of ['audit_log', 'postings', 'journal_entries', 'ledger_accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
