import type { Db } from '../../platform/db.ts';
import { toMillis } from '../../platform/time.ts';

/** The halt that holds now, if any. */
export function findActive(db: Db) {
  return db
    .selectFrom('platform_halts')
    .select(['id', 'reason', 'detail', 'halted_at'])
    .where('active', '=', 1)
    .executeTakeFirst();
}

/** Records a halt; the unique index on `active` refuses a second while one holds. */
export async function insertHalt(db: Db, row: { reason: 'ledger'; detail: string; now: number }) {
  const inserted = await db
    .insertInto('platform_halts')
    .values({ active: 1, reason: row.reason, detail: row.detail, halted_at: toMillis(row.now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Clears the halt that holds; undefined when none did (another staff member cleared it first). */
export function clearActive(db: Db, row: { by: string; reason: string; now: number }) {
  return db
    .updateTable('platform_halts')
    .set({ active: null, cleared_by: row.by, cleared_at: toMillis(row.now), clear_reason: row.reason })
    .where('active', '=', 1)
    .returning(['id', 'reason', 'detail', 'halted_at'])
    .executeTakeFirst();
}
