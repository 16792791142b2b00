// The SQLite store's read thread: a read-only connection of its own that runs the statements the
// main thread sends it (`readerOf` in `db.ts`) and posts back their rows. The long reads (the
// ledger check, the reserves snapshot's balances) then run on another core: better-sqlite3 runs
// a statement synchronously on the thread that calls it, and on the main thread the check's
// statements took most of the event loop's time while they ran, so order entry fell behind.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

export type ReadAnswer =
  | { id: number; rows: unknown[] }
  | { id: number; error: { message: string; code?: string } };

const { file } = workerData as { file: string };
// why: the long reads are background work: order entry goes first for the processor. On Linux
// a thread has its own priority, and 0 names this thread; elsewhere it would name the process.
if (process.platform === 'linux') os.setPriority(0, 10);
const sqlite = new SQLite(file, { readonly: true });
sqlite.defaultSafeIntegers(true);
// why: starting a read can meet the writer's checkpoint for a moment (WAL); this thread may wait.
sqlite.pragma('busy_timeout = 1000');
sqlite.pragma('cache_size = -16384');
const statements = new Map<string, SQLite.Statement>();

parentPort?.on('message', (message: ReadRequest | 'stop') => {
  if (message === 'stop') {
    sqlite.close();
    parentPort?.close();
    return;
  }
  let answer: ReadAnswer;
  try {
    let statement = statements.get(message.sql);
    if (!statement) {
      if (statements.size >= 500) statements.delete(statements.keys().next().value as string);
      statement = sqlite.prepare(message.sql);
      statements.set(message.sql, statement);
    }
    // why: `begin`, `commit` and `rollback` return no rows; everything else here is a read.
    let rows: unknown[] = [];
    if (statement.reader) rows = statement.all(...message.parameters);
    else statement.run(...message.parameters);
    answer = { id: message.id, rows };
  } catch (error) {
    const { message: text, code } = error as { message: string; code?: string };
    answer = { id: message.id, error: { message: text, code } };
  }
  parentPort?.postMessage(answer);
});
