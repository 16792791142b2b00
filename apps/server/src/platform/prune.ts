import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from './db.ts';
import type { Millis } from './schema.ts';

/** How a prune goes: the most rows one slice deletes, and who hears of each slice. */
export interface SliceOptions {
  /** Most rows one statement deletes; small enough that a slice holds SQLite for a few ms. */
  sliceSize: number;
  /** Called after every slice that deleted rows, with how many (tests count slices; logs sum them). */
  onSlice?: (deleted: number) => void;
}

/** What a prune did: rows deleted, and in how many slices (statements that deleted rows). */
export interface PruneResult {
  deleted: number;
  slices: number;
}

/** Rows a slice deletes when the caller does not say: 2–5 ms of SQLite on the tables pruned here. */
export const DEFAULT_SLICE_ROWS = 500;

/**
 * Deletes in bounded slices: calls `deleteSlice(limit)` (which deletes at most `limit` rows it
 * finds through an index, and answers how many) until a slice comes back short, and yields to the
 * event loop between slices. On SQLite every statement blocks the process (the driver is
 * synchronous), so one big DELETE would stall every request; slices of a few hundred rows with a
 * turn of the event loop between them keep each stall to a few milliseconds, and on PostgreSQL keep
 * each transaction's locks and WAL small.
 */
export async function pruneInSlices(
  deleteSlice: (limit: number) => Promise<number>,
  options: SliceOptions,
): Promise<PruneResult> {
  const limit = options.sliceSize;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`slice size must be a whole number ≥ 1: ${limit}`);
  const result: PruneResult = { deleted: 0, slices: 0 };
  for (;;) {
    const deleted = await deleteSlice(limit);
    if (deleted > 0) {
      result.deleted += deleted;
      result.slices += 1;
      options.onSlice?.(deleted);
    }
    if (deleted < limit) return result;
    await nextTurn();
  }
}

/** The sum of several prunes' results. */
export function addPrunes(...results: PruneResult[]): PruneResult {
  return results.reduce((a, b) => ({ deleted: a.deleted + b.deleted, slices: a.slices + b.slices }), {
    deleted: 0,
    slices: 0,
  });
}

/** Tables pruned by age alone: an `id` key and an index on `created_at`. */
type AgedTable = 'sessions' | 'staff_sessions' | 'login_logs' | 'mail_outbox' | 'email_codes';

/**
 * Deletes up to `limit` of the oldest rows of `table` created before `before`, found through its
 * `created_at` index; answers how many (a slice for {@link pruneInSlices}).
 */
export async function deleteOldestCreatedBefore(
  db: Db,
  table: AgedTable,
  before: Millis,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom(table)
    .where('id', 'in', (qb) =>
      qb.selectFrom(table).select('id').where('created_at', '<', before).orderBy('created_at').limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
