// The SQLite store's copy for a backup: through the server's own connection in small steps when
// this process has the store open, else on a thread of its own in one step (see snapshotSqlite).
import fs from 'node:fs';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { openSqliteConnection } from '../../platform/db.ts';
import { BackupError } from './backup-error.ts';
import type { StoreFacts } from './facts.ts';

interface SqliteSnapshot {
  facts: StoreFacts;
  sha256: string;
  bytes: number;
}

/**
 * Copies the live SQLite store at `source` into `target`, and answers the copy's facts and
 * SHA-256 (read from the copy, on a thread of its own: sqlite-snapshot.ts). Two ways:
 *
 * - In a process that has the store open (the server's scheduled backups), through that
 *   connection, with SQLite's online backup in small steps ({@link copyThroughOpenConnection}).
 *   Between steps it holds no transaction, so checkpoints go on and the WAL starts over as
 *   usual, and the server's own writes are carried into the pages already copied: the copy is
 *   the store as of its last step.
 * - Otherwise (`npm run backup`, whether a server runs or not), on a thread with a connection of
 *   its own, in one step: one read transaction, as long as a page copy of the store takes. A
 *   server's writes meanwhile go to its WAL, which cannot start over until the copy ends.
 *
 * Either way the copy's file is synced while it is written ({@link SyncingFile}): SQLite syncs
 * a backup only in its last step (on the event loop, for a copy in steps), and until then
 * gigabytes of it could wait in memory to be written at once, with the server's commits, each
 * synced, behind them.
 */
export async function snapshotSqlite(
  source: string,
  target: string,
  options: { useOpenConnection: boolean },
): Promise<SqliteSnapshot> {
  if (!fs.existsSync(source)) throw new BackupError(`no SQLite store at ${source}`);
  const open = options.useOpenConnection ? openSqliteConnection(source) : undefined;
  if (open) {
    const syncing = new SyncingFile(target);
    let copied: boolean;
    try {
      copied = await copyThroughOpenConnection(open, target, syncing);
    } finally {
      await syncing.stop();
    }
    if (copied) return onSnapshotThread({ target });
    await fs.promises.rm(target, { force: true });
  }
  // why: the thread copies in one step, which says nothing of its progress: sync on a clock.
  const syncing = new SyncingFile(target, 50);
  try {
    return await onSnapshotThread({ source, target });
  } finally {
    await syncing.stop();
  }
}

/** Runs sqlite-snapshot.ts: the copy (with `source`), then the copy's facts and SHA-256. */
async function onSnapshotThread(work: { source?: string; target: string }): Promise<SqliteSnapshot> {
  const worker = new Worker(new URL('./sqlite-snapshot.ts', import.meta.url), { workerData: work });
  const answer = await new Promise<{ ok: boolean; message?: string } & Partial<SqliteSnapshot>>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => resolve({ ok: false, message: `the copying thread ended (${code})` }));
    },
  );
  await worker.terminate();
  if (!answer.ok) throw new Error(`the store could not be copied: ${answer.message}`);
  return answer as SqliteSnapshot;
}

/** How long one step of the copy may take on the event loop (it delays every request by that much at most). */
const STEP_MS = 3;
const MIN_STEP_PAGES = 8;
const MAX_STEP_PAGES = 16_384;
/**
 * The copy's pace (bytes a second). why: at full speed (about 260 MB/s on the machine measured)
 * the copy's writes queued ahead of the WAL syncs every commit waits for: order entry's p99 went
 * from 4 to 160–240 ms for as long as the copy ran; at 80 MB/s it stayed within 1.2× of idle
 * (a year's 5.8 GB store in 76 s).
 */
export const COPY_BYTES_PER_SECOND = 80 * 2 ** 20;
/** How long the copy rests when it is ahead of its pace or waits for a sync. */
const REST_MS = 5;
/**
 * Bytes of the copy written and not yet synced past which a sync starts. why: small. Writing the
 * copy waited for a sync in flight on its file: syncs of 30 MB held steps of the copy, and with
 * them the event loop, for 250–570 ms each; of 8 MB, 10–20 ms.
 */
const SYNC_BYTES = 8 * 2 ** 20;
/**
 * Unsynced bytes past which the copy waits (copies nothing, at the cost of turning the event loop
 * over empty) until the sync in flight ends: only when the disk falls behind. A sync of 8 MB took
 * 10–20 ms, and the copy itself writes about 200 MB/s, so the syncs keep up.
 */
const MAX_UNSYNCED_BYTES = 4 * SYNC_BYTES;
/**
 * Times the copy may start over before it is made the other way. why: a write by another
 * connection (another process on the same store) starts an online backup over; one that kept
 * doing so would never finish.
 */
const MAX_RESTARTS = 3;

class CopyRestarting extends Error {}

/**
 * The store copied through `live`, the connection the server writes with, in steps of about
 * {@link STEP_MS} between which the event loop serves requests. Answers false when another
 * connection's writes kept starting it over (the caller then copies in one step instead).
 */
async function copyThroughOpenConnection(
  live: SQLite.Database,
  target: string,
  syncing: SyncingFile,
): Promise<boolean> {
  const pageSize = Number(live.pragma('page_size', { simple: true }));
  let pages = 64;
  let stepStarted: number | undefined;
  let copiedBefore = 0;
  let restarts = 0;
  const started = performance.now();
  const progress = ({ totalPages, remainingPages }: { totalPages: number; remainingPages: number }) => {
    const now = performance.now();
    if (stepStarted !== undefined) {
      // why: the time of the step alone (marked just before it, see below), not of the loop's turn.
      const took = Math.max(now - stepStarted, 0.01);
      pages = Math.round(Math.min(2 * pages, Math.max(pages / 2, (pages * STEP_MS) / took)));
      pages = Math.min(MAX_STEP_PAGES, Math.max(MIN_STEP_PAGES, pages));
      stepStarted = undefined;
    }
    const copied = totalPages - remainingPages;
    // why: the server's own writes only add pages; far fewer copied than before is a start over.
    if (copied + MIN_STEP_PAGES < copiedBefore) {
      restarts += 1;
      if (restarts > MAX_RESTARTS) throw new CopyRestarting();
    }
    copiedBefore = copied;
    syncing.written = copied * pageSize;
    const unsynced = syncing.written - syncing.synced;
    if (unsynced >= SYNC_BYTES) syncing.sync();
    // why: SQLite syncs the copy in its last step, on the event loop: only a little may be left.
    const last = remainingPages <= pages;
    if (!last && syncing.written > (COPY_BYTES_PER_SECOND * (now - started)) / 1000) return 0;
    if (unsynced >= MAX_UNSYNCED_BYTES || (last && unsynced >= SYNC_BYTES)) {
      syncing.sync();
      return 0;
    }
    // why: an immediate queued now runs just before the step, which better-sqlite3 queues next.
    setImmediate(() => {
      stepStarted = performance.now();
    });
    return pages;
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { totalPages } = await backupInSteps(live, target, progress);
      // why: a first step refused because the connection was inside a write transaction is
      // answered as done with 0 pages (a store has at least one), leaving an empty file.
      if (totalPages > 0) return true;
    } catch (error) {
      if (error instanceof CopyRestarting) return false;
      throw error;
    }
    await fs.promises.rm(target, { force: true });
    if (attempt >= 5) return false;
    await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
  }
}

/** better-sqlite3's own handle of an online backup (what its `backup()` drives). */
interface StepHandle {
  transfer(pages: number): { totalPages: number; remainingPages: number };
  close(): void;
}

/**
 * SQLite's online backup of `live` into `target`, a step at a time, `next` telling each step's
 * pages, 0 for a rest of {@link REST_MS}. why: better-sqlite3's `backup()` runs its next step at
 * once whatever the progress callback answers, so a copy that waits (for its pace or a sync)
 * turned the event loop over empty, a core's worth; its own backup handle, reached here, is
 * stepped the same way with rests in between. Where that handle is not found (another version of
 * the library), `backup()` itself, which rests by turning the loop over.
 */
export async function backupInSteps(
  live: SQLite.Database,
  target: string,
  next: (progress: { totalPages: number; remainingPages: number }) => number,
): Promise<{ totalPages: number; remainingPages: number }> {
  const handle = stepHandle(live, target);
  if (!handle) return live.backup(target, { progress: next });
  try {
    // why: as `backup()` does, a first step of 0 pages, which only counts them.
    let pages = 0;
    for (;;) {
      const progress = handle.transfer(pages);
      if (progress.remainingPages === 0) return progress;
      pages = Math.max(0, Math.min(0x7fffffff, Math.round(next(progress))));
      await (pages === 0 ? sleep(REST_MS) : yieldToLoop());
    }
  } finally {
    handle.close();
  }
}

/** The library's backup handle for `live` → `target`, when this version of it has one where expected. */
export function stepHandle(live: SQLite.Database, target: string): StepHandle | undefined {
  for (const symbol of Object.getOwnPropertySymbols(live)) {
    const inner = (live as unknown as Record<symbol, { backup?: unknown }>)[symbol];
    if (typeof inner?.backup !== 'function') continue;
    const backup = inner.backup as (db: unknown, name: string, file: string, isNew: boolean) => StepHandle;
    return backup.call(inner, live, 'main', target, !fs.existsSync(target));
  }
  return undefined;
}

/**
 * Syncs a file while it is written (by SQLite, on this thread or another), off the event loop,
 * one sync at a time, so that what waits to be written to disk stays small.
 */
class SyncingFile {
  /** Bytes written so far, as far as the writer says (0 when it cannot). */
  written = 0;
  /** Of those, the ones known synced. */
  synced = 0;
  readonly #file: string;
  #handle: Promise<fs.promises.FileHandle> | undefined;
  #running: Promise<void> | undefined;
  #failed: unknown;
  #timer: NodeJS.Timeout | undefined;

  constructor(file: string, everyMs?: number) {
    this.#file = file;
    if (everyMs) this.#timer = setInterval(() => this.sync(), everyMs);
  }

  /** Starts a sync of what is written so far, unless one is in flight. */
  sync(): void {
    if (this.#running || this.#failed) return;
    const mark = this.written;
    this.#running = (async () => {
      if (!fs.existsSync(this.#file)) return;
      this.#handle ??= fs.promises.open(this.#file, 'r');
      await (await this.#handle).datasync();
      this.synced = mark;
    })()
      .catch((error: unknown) => {
        this.#failed = error;
      })
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Stops, and throws what a sync failed with. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
    await (await this.#handle)?.close();
    if (this.#failed) throw this.#failed;
  }
}
