import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Proof of reserves and liabilities (the `reserves` module): one row per snapshot, pending until
 * its header is signed and published (reserve entries sign its root, so they come in between); every node of its Merkle sum tree (level 0 = leaves in tree order), so a user's proof is
 * sliced on request; where each user's leaf is, with the balances it commits to; and the reserve
 * entries staff attach. Hashes are lower-case hex; sums and balances decimal strings (u128 does not
 * fit an int8); times unix ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('por_snapshots')
    .addColumn('id', idType, idDef)
    .addColumn('taken_at', 'bigint', (c) => c.notNull().unique())
    .addColumn('ledger_seq', 'bigint', (c) => c.notNull())
    .addColumn('assets', 'text', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('root_sums', 'text', (c) => c.notNull())
    .addColumn('trial_total', 'text', (c) => c.notNull())
    .addColumn('monthly', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('publish_at', 'bigint', (c) => c.notNull())
    .addColumn('header_json', 'text')
    .addColumn('sig', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('por_nodes')
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull().references('por_snapshots.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('idx', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('sums', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('por_nodes_pk', ['snapshot_id', 'level', 'idx'])
    .execute();
  await db.schema
    .createTable('por_leaves')
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull().references('por_snapshots.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('leaf_index', 'bigint', (c) => c.notNull())
    .addColumn('balances', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('por_leaves_pk', ['snapshot_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('por_reserves')
    .addColumn('id', idType, idDef)
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull().references('por_snapshots.id').onDelete('cascade'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('height', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('sig', 'text', (c) => c.notNull())
    .addColumn('scheme', 'text', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('por_reserves_address_unique', ['snapshot_id', 'chain', 'address', 'asset'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('por_reserves').execute();
  await db.schema.dropTable('por_leaves').execute();
  await db.schema.dropTable('por_nodes').execute();
  await db.schema.dropTable('por_snapshots').execute();
}
