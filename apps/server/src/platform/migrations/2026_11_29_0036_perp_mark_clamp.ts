import type { Kysely } from 'kysely';

/**
 * Each perpetual market's mark clamp `c` (perpetual.md §1, amended 2026-11-29): the mark never
 * leaves `I·(1 ± c)` around the index, so no customer's orders can drag it further. A rate over
 * 10^8; existing markets take the default 0.5 % (500 000), the highest the default tiers allow
 * (a quarter of tier 1's 2 % maintenance margin rate). Staff change it with the market's other
 * settings, audited.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('perp_markets')
    .addColumn('mark_clamp', 'bigint', (c) => c.notNull().defaultTo(500_000))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('perp_markets').dropColumn('mark_clamp').execute();
}
