// A consistent copy of the SQLite store, made on a thread of its own so the server's event loop
// never waits for it: its own connection runs `VACUUM INTO`, one read transaction over the live
// file (in WAL mode it neither blocks nor waits for the writer), so the copy is the store as of
// one commit. The copy is then switched to the rollback journal, so it is one self-contained file
// that can be opened read-only. Started by `snapshotSqlite` (service.ts).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { source, target } = workerData as { source: string; target: string };
try {
  const live = new SQLite(source, { fileMustExist: true });
  try {
    // why: on this thread a wait blocks nobody; a checkpoint's RESTART can hold the lock briefly.
    live.pragma('busy_timeout = 10000');
    live.prepare('vacuum into ?').run(target);
  } finally {
    live.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  parentPort?.postMessage({ ok: true });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: (error as Error).message });
}
