import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * The launchpad (the `launchpad` module): subscription projects, their records, the referral
 * rewards paid at distribution, and agents. A project's progress and sold amount are never stored:
 * they are the sums of its records.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('lp_projects')
    .addColumn('id', idType, idDef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('total_issue', 'bigint', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('lock_days', 'bigint', (c) => c.notNull())
    .addColumn('per_min', 'bigint', (c) => c.notNull())
    .addColumn('per_max', 'bigint', (c) => c.notNull())
    .addColumn('individual_limit', 'bigint', (c) => c.notNull())
    .addColumn('max_purchases', 'bigint', (c) => c.notNull())
    .addColumn('soft_cap', 'bigint', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('referral_budget_bp', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('release_at', 'bigint', (c) => c.notNull())
    .addColumn('descriptions', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('distributed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('lp_records')
    .addColumn('id', idType, idDef)
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('lp_projects.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('requested', 'bigint', (c) => c.notNull())
    .addColumn('committed', 'bigint', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('paid', 'bigint', (c) => c.notNull())
    .addColumn('refunded', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('release_at', 'bigint', (c) => c.notNull())
    .addColumn('released_at', 'bigint')
    .addUniqueConstraint('lp_records_user_key', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('lp_records_project_idx')
    .on('lp_records')
    .columns(['project_id', 'id'])
    .execute();
  await db.schema.createIndex('lp_records_user_idx').on('lp_records').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('lp_records_release_idx')
    .on('lp_records')
    .columns(['status', 'release_at'])
    .execute();
  await db.schema
    .createTable('lp_rewards')
    .addColumn('id', idType, idDef)
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('lp_projects.id'))
    .addColumn('source_id', 'bigint', (c) => c.notNull().references('lp_records.id'))
    .addColumn('buyer_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('beneficiary_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('base', 'bigint', (c) => c.notNull())
    .addColumn('rate_bp', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('capped', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .addUniqueConstraint('lp_rewards_source_beneficiary', ['source_id', 'beneficiary_id'])
    .execute();
  await db.schema
    .createIndex('lp_rewards_beneficiary_idx')
    .on('lp_rewards')
    .columns(['beneficiary_id', 'month'])
    .execute();
  await db.schema
    .createIndex('lp_rewards_status_idx')
    .on('lp_rewards')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createTable('agents')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rates_override', 'text')
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('applied_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agents').execute();
  await db.schema.dropTable('lp_rewards').execute();
  await db.schema.dropTable('lp_records').execute();
  await db.schema.dropTable('lp_projects').execute();
}
