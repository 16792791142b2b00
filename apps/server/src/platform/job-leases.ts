import type { Db } from './db.ts';
import { toMillis } from './time.ts';

/**
 * Leases that keep a job on one node. A lease is a row (name, holder, expires_at); taking it is
 * one atomic statement, so any number of nodes racing for it end with exactly one holder.
 */
export interface LeaseStore {
  /**
   * Takes the lease `name` for `holder` until `now + ttlMs` when it is free, expired, or already
   * `holder`'s (a renewal). Resolves true when `holder` holds it afterwards.
   */
  acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up at once if `holder` has it, so another node need not wait for it to expire. */
  release(name: string, holder: string): Promise<void>;
}

/** Leases in the `job_leases` table, on SQLite and PostgreSQL alike; the scheduler owns the table. */
export class DbLeaseStore implements LeaseStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
    // why: insert-or-update-if-expired in one statement: on a conflict the row is locked and the
    // WHERE re-checked, so two nodes cannot both see an expired lease and both take it.
    const row = await this.#db
      .insertInto('job_leases')
      .values({ name, holder, expires_at: toMillis(now + ttlMs) })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({
            holder: (eb) => eb.ref('excluded.holder'),
            expires_at: (eb) => eb.ref('excluded.expires_at'),
          })
          .where((eb) =>
            eb.or([eb('job_leases.expires_at', '<=', toMillis(now)), eb('job_leases.holder', '=', holder)]),
          ),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.#db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
  }
}
