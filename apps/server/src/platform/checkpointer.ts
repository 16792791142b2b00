// The SQLite checkpointer's thread: its own connection to the store, copying the WAL back into
// the database file every CHECKPOINT_EVERY_MS (PRAGMA wal_checkpoint(PASSIVE): it never waits
// for, nor blocks, the writer). Started by `openDb` (see `BackgroundCheckpoints` there).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 50;

const { file } = workerData as { file: string };
const sqlite = new SQLite(file);
// why: the checkpoint syncs the WAL before copying and the database after, as under FULL.
sqlite.pragma('synchronous = FULL');
sqlite.pragma('busy_timeout = 0');

let timer: NodeJS.Timeout | undefined;
const tick = (): void => {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // why: SQLITE_BUSY while the writer's own (fallback) checkpoint runs; the next tick retries.
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
  }
  timer = setTimeout(tick, CHECKPOINT_EVERY_MS);
};
tick();

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  sqlite.close();
  parentPort?.close();
});
