import { type Kysely, sql } from 'kysely';

/**
 * A customer's open perpetual orders found by a seek: by `(user_id, id)` a customer with a year of
 * ended orders and few open ones had every order read to find them (the order form's open list,
 * on every place and cancel). Partial, so it holds the open orders alone; the condition is a
 * literal because a planner can use a partial index only when the query repeats it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index perp_orders_user_open_idx on perp_orders (user_id, symbol)
    where state in ('untriggered', 'new', 'partial')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('perp_orders_user_open_idx').execute();
}
