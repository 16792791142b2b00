import { type Insertable, sql } from 'kysely';
import type { Db, UserRange } from '../../platform/db.ts';
import type { Millis, MiningProductsTable } from '../../platform/schema.ts';

export type ProductRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>;
export type OrderRow = NonNullable<Awaited<ReturnType<typeof findOrder>>>;

export async function insertProduct(
  db: Db,
  row: Omit<Insertable<MiningProductsTable>, 'id'>,
): Promise<bigint> {
  return (await db.insertInto('mining_products').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export function findProduct(db: Db, id: bigint) {
  return db.selectFrom('mining_products').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Takes the product's row lock for the rest of the transaction (a no-op write on both stores). */
export function lockProduct(db: Db, id: bigint) {
  return db
    .updateTable('mining_products')
    .set({ status: sql`status` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function setProductStatus(
  db: Db,
  id: bigint,
  status: MiningProductsTable['status'],
): Promise<void> {
  await db.updateTable('mining_products').set({ status }).where('id', '=', id).execute();
}

export function listProducts(db: Db) {
  return db.selectFrom('mining_products').selectAll().orderBy('id').execute();
}

/** Per product: machines started and basis points sold (Σ of its instances). */
export async function soldByProduct(db: Db) {
  const rows = await db
    .selectFrom('mining_instances')
    .select(['product_id', sql<bigint>`count(*)`.as('instances'), sql<string>`sum(sold_bp)`.as('sold_bp')])
    .groupBy('product_id')
    .execute();
  return new Map(
    rows.map((r) => [r.product_id, { instances: BigInt(r.instances), soldBp: BigInt(r.sold_bp ?? 0) }]),
  );
}

export async function insertInstance(
  db: Db,
  row: { product_id: bigint; sold_bp: bigint; share_code: string; created_at: Millis },
) {
  return (await db.insertInto('mining_instances').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export function findInstanceByCode(db: Db, code: string) {
  return db.selectFrom('mining_instances').selectAll().where('share_code', '=', code).executeTakeFirst();
}

export function findInstance(db: Db, id: bigint) {
  return db.selectFrom('mining_instances').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function addSold(db: Db, instanceId: bigint, bp: bigint): Promise<void> {
  await db
    .updateTable('mining_instances')
    .set({ sold_bp: sql`sold_bp + ${bp}` })
    .where('id', '=', instanceId)
    .execute();
}

export async function insertOrder(
  db: Db,
  row: {
    user_id: bigint;
    product_id: bigint;
    instance_id: bigint;
    share_bp: bigint;
    price: bigint;
    start_at: Millis;
    expire_at: Millis;
    idempotency_key: string;
    created_at: Millis;
  },
): Promise<bigint> {
  return (await db.insertInto('mining_orders').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export function findOrder(db: Db, id: bigint) {
  return db.selectFrom('mining_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOrderByKey(db: Db, userId: bigint, key: string) {
  return db
    .selectFrom('mining_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function countUserOrders(db: Db, userId: bigint, productId: bigint): Promise<bigint> {
  const row = await db
    .selectFrom('mining_orders')
    .select(sql<bigint>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .executeTakeFirstOrThrow();
  return BigInt(row.n);
}

export function listUserOrders(db: Db, userId: bigint) {
  return db
    .selectFrom('mining_orders')
    .innerJoin('mining_products', 'mining_products.id', 'mining_orders.product_id')
    .innerJoin('mining_instances', 'mining_instances.id', 'mining_orders.instance_id')
    .selectAll('mining_orders')
    .select([
      'mining_products.name',
      'mining_products.coin',
      'mining_products.type',
      'mining_instances.share_code',
    ])
    .where('mining_orders.user_id', '=', userId)
    .orderBy('mining_orders.id', 'desc')
    .execute();
}

/** Orders of products paying in `coin` that run on the day starting at `day`. */
export function listRunningOrders(db: Db, coin: string, day: Millis) {
  return db
    .selectFrom('mining_orders')
    .innerJoin('mining_products', 'mining_products.id', 'mining_orders.product_id')
    .selectAll('mining_orders')
    .select([
      'mining_products.income_type',
      'mining_products.daily_q',
      'mining_products.daily_value',
      'mining_products.release_delay_days',
    ])
    .where('mining_products.coin', '=', coin)
    .where('mining_orders.start_at', '<=', day)
    .where('mining_orders.expire_at', '>', day)
    .orderBy('mining_orders.id')
    .execute();
}

/** The earliest order start among products paying in each coin. */
export function firstStarts(db: Db) {
  return db
    .selectFrom('mining_orders')
    .innerJoin('mining_products', 'mining_products.id', 'mining_orders.product_id')
    .select(['mining_products.coin', sql<bigint>`min(mining_orders.start_at)`.as('first')])
    .groupBy('mining_products.coin')
    .execute();
}

export async function lastDay(
  db: Db,
  coin: string,
): Promise<{ day: bigint; status: 'paid' | 'stopped' } | undefined> {
  return db
    .selectFrom('mining_days')
    .select(['day', 'status'])
    .where('coin', '=', coin)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertDay(
  db: Db,
  row: { coin: string; day: Millis; status: 'paid' | 'stopped'; needed: bigint; created_at: Millis },
): Promise<void> {
  await db.insertInto('mining_days').values(row).execute();
}

/** Moves a running order's expiry one day later for a day its pool could not cover. */
export async function extendOrder(db: Db, orderId: bigint, dayMs: bigint): Promise<void> {
  await db
    .updateTable('mining_orders')
    .set({ stopped_days: sql`stopped_days + 1`, expire_at: sql`expire_at + ${dayMs}` })
    .where('id', '=', orderId)
    .execute();
}

export async function insertRevenue(
  db: Db,
  row: {
    order_id: bigint;
    user_id: bigint;
    day: Millis;
    coin: string;
    price_used: bigint | null;
    price_source: string | null;
    amount: bigint;
    release_at: Millis;
  },
): Promise<bigint> {
  return (await db.insertInto('mining_revenues').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export function listDueRevenues(db: Db, now: Millis, limit: number) {
  return db
    .selectFrom('mining_revenues')
    .selectAll()
    .where('released_at', 'is', null)
    .where('release_at', '<=', now)
    .orderBy('release_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markReleased(db: Db, id: bigint, at: Millis): Promise<boolean> {
  const result = await db
    .updateTable('mining_revenues')
    .set({ released_at: at })
    .where('id', '=', id)
    .where('released_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** One of the user's revenue rows as a cursor of their list: its day and id. */
export function findUserRevenueKey(db: Db, userId: bigint, id: bigint) {
  return db
    .selectFrom('mining_revenues')
    .select(['day', 'id'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * The user's output, newest day first (then newest id), on the index of (user, day, id): `limit`
 * rows after `offset`, below the row `below` in that order when given.
 */
export function listUserRevenues(
  db: Db,
  userId: bigint,
  window: { limit: number; offset: number; below?: { day: Millis; id: bigint } },
) {
  let query = db
    .selectFrom('mining_revenues')
    .innerJoin('mining_orders', 'mining_orders.id', 'mining_revenues.order_id')
    .innerJoin('mining_products', 'mining_products.id', 'mining_orders.product_id')
    .selectAll('mining_revenues')
    .select('mining_products.name')
    .where('mining_revenues.user_id', '=', userId);
  const below = window.below;
  if (below) {
    // why: `day <=` is the index's range; of the cursor's own day only the lower ids are kept.
    query = query
      .where('mining_revenues.day', '<=', below.day)
      .where((eb) =>
        eb.or([eb('mining_revenues.day', '<', below.day), eb('mining_revenues.id', '<', below.id)]),
      );
  }
  return query
    .orderBy('mining_revenues.day', 'desc')
    .orderBy('mining_revenues.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

/** Unreleased output per user and coin: what each user's `mining` balance must hold. */
export async function unreleasedByUser(db: Db, users: UserRange) {
  const rows = await db
    .selectFrom('mining_revenues')
    .select(['user_id', 'coin', sql<string>`sum(amount)`.as('total')])
    .where('released_at', 'is', null)
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .groupBy(['user_id', 'coin'])
    .execute();
  return rows.map((r) => ({ userId: r.user_id, asset: r.coin, amount: BigInt(r.total ?? 0) }));
}

/** The user's direct referees whose identity is verified. */
export async function verifiedDirectReferrals(db: Db, userId: bigint): Promise<bigint> {
  const row = await db
    .selectFrom('referral_edges')
    .innerJoin('users', 'users.id', 'referral_edges.descendant_id')
    .select(sql<bigint>`count(*)`.as('n'))
    .where('referral_edges.ancestor_id', '=', userId)
    .where('referral_edges.depth', '=', 1n)
    .where('users.realname_status', '=', 2n)
    .executeTakeFirstOrThrow();
  return BigInt(row.n);
}

/** The user's output per coin and day, oldest first. */
export function dailyOutput(db: Db, userId: bigint) {
  return db
    .selectFrom('mining_revenues')
    .select(['coin', 'day', sql<string>`sum(amount)`.as('amount')])
    .where('user_id', '=', userId)
    .groupBy(['coin', 'day'])
    .orderBy('day')
    .execute();
}

/** Orders for the back office, newest first, with what each has earned and what is still frozen. */
export function listOrdersForStaff(db: Db, limit: number) {
  return db
    .selectFrom('mining_orders')
    .innerJoin('mining_products', 'mining_products.id', 'mining_orders.product_id')
    .innerJoin('users', 'users.id', 'mining_orders.user_id')
    .selectAll('mining_orders')
    .select([
      'mining_products.name',
      'mining_products.coin',
      'users.username',
      sql<string>`(select coalesce(sum(r.amount), 0) from mining_revenues r where r.order_id = mining_orders.id)`.as(
        'earned',
      ),
      sql<string>`(select coalesce(sum(r.amount), 0) from mining_revenues r where r.order_id = mining_orders.id and r.released_at is null)`.as(
        'frozen',
      ),
    ])
    .orderBy('mining_orders.id', 'desc')
    .limit(limit)
    .execute();
}
