import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Platform halts: a failed ledger check stops order entry, withdrawals and conversions on every
 * node until staff clear it. One row per halt, kept after it is cleared (who cleared it, when and
 * why). `active` is 1 while the halt holds and null once cleared; its unique index lets at most
 * one halt hold at a time, so nodes that find the ledger broken at once record one halt. Times
 * are unix ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('platform_halts')
    .addColumn('id', idType, idDef)
    .addColumn('active', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('halted_at', 'bigint', (c) => c.notNull())
    .addColumn('cleared_by', 'text')
    .addColumn('cleared_at', 'bigint')
    .addColumn('clear_reason', 'text')
    .execute();
  await db.schema
    .createIndex('platform_halts_active_idx')
    .on('platform_halts')
    .column('active')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_halts').execute();
}
