import { sql } from 'kysely';
import type { DbHandle } from './db.ts';

/**
 * The first number of the two-number advisory lock keys Bourse takes, so none can meet a key that
 * another program sharing the database (or Kysely's migrator, which takes a one-number key)
 * chose.
 */
const LOCK_SPACE = 0x426f7572; // "Bour"

/**
 * Runs `work` while this node holds the store-wide lock `name`, so what several nodes starting at
 * once must do once (the first start's demo seed) runs on one node at a time: the next one waits,
 * then finds the work done. On PostgreSQL it is a session advisory lock held on one pooled
 * connection for the length of `work` (which runs on other connections and may open as many
 * transactions as it needs); PostgreSQL ends the lock with the session, so a node that dies
 * holding it does not block the others. SQLite is one node's file, and every transaction there
 * already takes the write lock (`BEGIN IMMEDIATE`), so `work` just runs.
 */
export async function underStartLock<T>(store: DbHandle, name: string, work: () => Promise<T>): Promise<T> {
  if (store.dialect !== 'postgres') return work();
  return store.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${LOCK_SPACE}, hashtext(${name}))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_SPACE}, hashtext(${name}))`.execute(connection);
    }
  });
}
