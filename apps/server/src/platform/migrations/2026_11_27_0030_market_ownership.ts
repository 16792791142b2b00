import type { Kysely } from 'kysely';

/**
 * One owner per market across nodes. `market_leases` holds each market's lease: the node that
 * owns it, until when, and its epoch, which grows by one at every change of owner.
 * `cluster_nodes` is each node's heartbeat, so a node can tell how many are alive and take its
 * share of the markets. `spot_markets.epoch` is the epoch of the owner allowed to write the
 * market: every batch's transaction checks it with the market's previous sequence, so a node
 * that lost its lease (paused past it, cut off) cannot commit another batch.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('market_leases')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('epoch', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('cluster_nodes')
    .addColumn('node_id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('spot_markets')
    .addColumn('epoch', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('spot_markets').dropColumn('epoch').execute();
  await db.schema.dropTable('cluster_nodes').execute();
  await db.schema.dropTable('market_leases').execute();
}
