import type { Kysely } from 'kysely';

/**
 * Spot trigger orders (stop-limit, stop-market, take-profit). A trigger order is an open spot
 * order (status `entrusted`, its funds held like any other) with a trigger price and condition;
 * `triggered_at` stays null while it waits in its market's sequencer and is set when the last
 * trade price reaches the trigger and the order enters the book. Existing orders get nulls.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('spot_orders').addColumn('trigger_price', 'bigint').execute();
  await db.schema.alterTable('spot_orders').addColumn('trigger_condition', 'text').execute();
  await db.schema.alterTable('spot_orders').addColumn('triggered_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['triggered_at', 'trigger_condition', 'trigger_price']) {
    await db.schema.alterTable('spot_orders').dropColumn(column).execute();
  }
}
