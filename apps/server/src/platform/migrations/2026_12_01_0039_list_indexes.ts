import { type Kysely, sql } from 'kysely';
import { isPostgres } from './helpers.ts';

/**
 * Indexes that let the lists seek instead of scan once the store holds a year of data: each list
 * reads about a page of rows however large its tables grow.
 *
 * - `delivery_contracts (user_id, status, id)`: a customer's open or settled contracts, newest
 *   first, one status at a time (the tab's statuses are merged from one seek each).
 * - `delivery_contracts (status, id)`: the back office's contracts filtered by status.
 * - `spot_orders (user_id, hold_asset) where status = 'entrusted'`: what open orders hold per user
 *   and coin (the ledger's reservation check) reads the resting orders alone, in group order; a
 *   partial index, so the millions of ended orders cost it nothing.
 * - `audit_log (action, id)`: the audit log filtered by action, newest first.
 * - `users` username key and phone, prefix-searchable: the back office's user search matches a
 *   prefix with LIKE. SQLite turns a LIKE prefix into a range only on an index in NOCASE order
 *   (its LIKE ignores ASCII case); PostgreSQL only on a `text_pattern_ops` index (whatever the
 *   database's collation).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('delivery_contracts_user_status_idx')
    .on('delivery_contracts')
    .columns(['user_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('delivery_contracts_status_idx')
    .on('delivery_contracts')
    .columns(['status', 'id'])
    .execute();
  await sql`create index spot_orders_held_idx on spot_orders (user_id, hold_asset)
    where status = 'entrusted'`.execute(db);
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
  if (isPostgres(db)) {
    await sql`create index users_username_prefix_idx on users (username_key text_pattern_ops)`.execute(db);
    await sql`create index users_phone_prefix_idx on users (phone text_pattern_ops)`.execute(db);
  } else {
    await sql`create index users_username_prefix_idx on users (username_key collate nocase)`.execute(db);
    await sql`create index users_phone_prefix_idx on users (phone collate nocase)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'users_phone_prefix_idx',
    'users_username_prefix_idx',
    'audit_log_action_idx',
    'spot_orders_held_idx',
    'delivery_contracts_status_idx',
    'delivery_contracts_user_status_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
