import type { Kysely } from 'kysely';

/**
 * One key, one request (perpetual.md §4b.7): each perpetual order keeps the fingerprint of the
 * request that placed it (a hash of its market, side, type, prices, quantity, trigger and flags),
 * so the same key sent again with another request is refused instead of answered as the first.
 * Null for orders placed before it, and for orders no customer's request placed (the fund's).
 * A margin change's request is already whole in `perp_margin_requests` (market, direction, amount).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('perp_orders').addColumn('request_fingerprint', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('perp_orders').dropColumn('request_fingerprint').execute();
}
