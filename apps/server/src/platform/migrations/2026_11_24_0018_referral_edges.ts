import { type Kysely, sql } from 'kysely';

/**
 * The referrer chain over three generations, written when an account is created: one row per
 * ancestor (depth 1 = the inviter, 2 = the inviter's inviter, 3 = the next). `users.referrer_id`
 * stays the first generation; the chain never changes afterwards. Existing accounts get theirs
 * from `users.referrer_id` here. The launchpad's referral rewards
 * and the invitation page's team read it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('referral_edges')
    .addColumn('ancestor_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('descendant_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('referral_edges_pk', ['descendant_id', 'ancestor_id'])
    .execute();
  await db.schema
    .createIndex('referral_edges_ancestor_idx')
    .on('referral_edges')
    .columns(['ancestor_id', 'depth', 'created_at'])
    .execute();
  // why: accounts made before the chain was recorded get it from `users.referrer_id`.
  await sql`insert into referral_edges (ancestor_id, descendant_id, depth, created_at)
    select u.referrer_id, u.id, 1, u.created_at from users u where u.referrer_id is not null`.execute(db);
  await sql`insert into referral_edges (ancestor_id, descendant_id, depth, created_at)
    select p.referrer_id, u.id, 2, u.created_at from users u join users p on p.id = u.referrer_id
    where p.referrer_id is not null`.execute(db);
  await sql`insert into referral_edges (ancestor_id, descendant_id, depth, created_at)
    select g.referrer_id, u.id, 3, u.created_at from users u join users p on p.id = u.referrer_id
    join users g on g.id = p.referrer_id where g.referrer_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('referral_edges').execute();
}
