// The SQLite checkpointer's thread: its own connection to the store, copying the WAL back into
// the database file every CHECKPOINT_EVERY_MS (PRAGMA wal_checkpoint(PASSIVE): it never waits
// for, nor blocks, the writer). Started by `openDb` (see `BackgroundCheckpoints` there).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 50;
/**
 * Frames in the WAL past which a checkpoint also makes the writer start the WAL over (16 MB).
 * The writer waits while a RESTART holds the lock (a sync of the database file); at 1,000 frames
 * that was every few dozen batches under `bench:http-orders`, 206 waits of about a millisecond in
 * its paced phase, 35 at 4,000.
 */
const RESTART_AFTER_FRAMES = 4000;

const { file } = workerData as { file: string };
const sqlite = new SQLite(file);
// why: the checkpoint syncs the WAL before copying and the database after, as under FULL.
sqlite.pragma('synchronous = FULL');
sqlite.pragma('busy_timeout = 0');

interface CheckpointResult {
  busy: bigint | number;
  log: bigint | number;
  checkpointed: bigint | number;
}

let timer: NodeJS.Timeout | undefined;
const tick = (): void => {
  try {
    const [passive] = sqlite.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
    // why: the WAL starts over only when a write transaction begins with every frame copied
    // back. Under steady writes a passive checkpoint never catches up at that moment, so the WAL
    // grew until the writer's fallback checkpointed it on the event loop (20,000 pages, 80 MB,
    // in `bench:http-orders`). RESTART takes the write lock for as long as it copies what the
    // passive one left (a few frames) and syncs; the writer's next transaction then writes the
    // WAL from its start, over blocks the file already has.
    if (passive && Number(passive.log) >= RESTART_AFTER_FRAMES) sqlite.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    // why: SQLITE_BUSY (or one of its extended codes) while the writer's own (fallback) checkpoint
    // runs; the next tick retries.
    if (!(error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw error;
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
