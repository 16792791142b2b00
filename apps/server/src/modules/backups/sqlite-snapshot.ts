// The parts of a SQLite backup that must not run on the server's event loop, on a thread of their
// own (started by `snapshotSqlite`, service.ts):
// - with `source` (a process that does not have the store open, e.g. `npm run backup` beside a
//   running server): the copy itself, through this thread's own connection, in one step of
//   SQLite's online backup. One step is one read transaction, so the copy is the store as of one
//   commit; in several steps, each commit of the server (another connection) would start the
//   copy over. A page copy, where `VACUUM INTO` (used before) rebuilt every table and index
//   inside its read transaction; the copy keeps the store's free pages.
// - then, always: the copy switched to the rollback journal (one self-contained file that opens
//   read-only), synced, its facts read (the ledger's totals read every account: 1.7 s on a year
//   of data) and its SHA-256 computed.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { readSqliteFacts } from './facts.ts';
import { hashFile } from './files.ts';

/** Pages in a step: all of them (better-sqlite3 caps a step's pages at this). */
const EVERY_PAGE = 0x7fffffff;
/** Attempts at a copy that found nothing to copy (a lock held at its start); see `copyInOneStep`. */
const ATTEMPTS = 5;

const { source, target } = workerData as { source?: string; target: string };

async function copyInOneStep(from: string, to: string): Promise<void> {
  const live = new SQLite(from, { fileMustExist: true });
  try {
    // why: on this thread a wait blocks nobody; a checkpoint's RESTART can hold the lock briefly.
    live.pragma('busy_timeout = 10000');
    for (let attempt = 1; ; attempt += 1) {
      // why: the first step (0 pages) only counts them; the second copies every page at once.
      const { totalPages } = await live.backup(to, { progress: () => EVERY_PAGE });
      // why: a step refused for a lock before the first page is answered as done with 0 pages
      // (a store has at least one), and leaves an empty file: start again.
      if (totalPages > 0) return;
      fs.rmSync(to, { force: true });
      if (attempt >= ATTEMPTS) throw new Error('the store stayed locked; no page could be copied');
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  } finally {
    live.close();
  }
}

try {
  if (source) await copyInOneStep(source, target);
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  // why: the manifest says the copy is there; it must be on disk first.
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const facts = await readSqliteFacts(target);
  const { sha256, bytes } = await hashFile(target);
  parentPort?.postMessage({ ok: true, facts, sha256, bytes });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: (error as Error).message });
}
