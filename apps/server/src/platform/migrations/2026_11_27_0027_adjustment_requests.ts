import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Four eyes on large manual adjustments: one above the approval threshold is a request until a
 * second staff member approves it (then its ledger entry is posted) or anyone rejects it. Amounts
 * are atoms, times unix ms; `key` is the submission's idempotency key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('adjustment_requests')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    // why: the USDT value at the index when requested, what put it above the threshold (null: no price).
    .addColumn('usdt_value', 'bigint')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'bigint')
    .addColumn('decision_reason', 'text')
    .addColumn('entry_id', 'bigint')
    .execute();
  await db.schema
    .createIndex('adjustment_requests_status_idx')
    .on('adjustment_requests')
    .columns(['status', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('adjustment_requests').execute();
}
