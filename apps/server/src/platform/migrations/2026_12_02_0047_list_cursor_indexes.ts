import type { Kysely } from 'kysely';

/**
 * Indexes for the lists paged by cursor (`before`, the last id of the previous page) since: each
 * reads its owner's rows newest first from the cursor down, a page at a time, however many there
 * are. (A customer's notices, launchpad records, and mining machines seek indexes they had.)
 *
 * - `perp_fundings (symbol, id)`: a market's funding events (`/Perp/rates`).
 * - `login_logs (user_id, id)`: a customer's login log; it replaces `(user_id, created_at)`, which
 *   no query reads by time (the log and the new-device check go by id, the retention by age alone).
 * - `lp_rewards (beneficiary_id, id)`: a customer's referral rewards (and an agent's).
 * - `mining_revenues (user_id, day, id)`: a customer's output, newest day first; it replaces
 *   `(user_id, day)`, its prefix (PostgreSQL has no row id at the end of an index to order by).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('perp_fundings_symbol_idx')
    .on('perp_fundings')
    .columns(['symbol', 'id'])
    .execute();
  await db.schema.createIndex('login_logs_user_id_idx').on('login_logs').columns(['user_id', 'id']).execute();
  await db.schema.dropIndex('login_logs_user_idx').execute();
  await db.schema
    .createIndex('lp_rewards_beneficiary_id_idx')
    .on('lp_rewards')
    .columns(['beneficiary_id', 'id'])
    .execute();
  await db.schema
    .createIndex('mining_revenues_user_day_idx')
    .on('mining_revenues')
    .columns(['user_id', 'day', 'id'])
    .execute();
  await db.schema.dropIndex('mining_revenues_user_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('mining_revenues_user_idx')
    .on('mining_revenues')
    .columns(['user_id', 'day'])
    .execute();
  await db.schema.dropIndex('mining_revenues_user_day_idx').execute();
  await db.schema.dropIndex('lp_rewards_beneficiary_id_idx').execute();
  await db.schema
    .createIndex('login_logs_user_idx')
    .on('login_logs')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.dropIndex('login_logs_user_id_idx').execute();
  await db.schema.dropIndex('perp_fundings_symbol_idx').execute();
}
