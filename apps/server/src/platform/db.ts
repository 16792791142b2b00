import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type QueryResult,
  SqliteDialect,
  SqliteDriver,
  type Transaction,
  type TransactionBuilder,
} from 'kysely';
import type pg from 'pg';
import { ReadThreadDialect } from './read-thread-dialect.ts';
import type { Database } from './schema.ts';
import { startStoreThread, stopStoreThread } from './store-thread.ts';

/**
 * A handle on the store for one unit of work: the database itself or a transaction opened on it.
 * Repository functions take one and never open transactions themselves; the service that runs a
 * use case opens the transaction and passes it down.
 */
export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
  /** SQLite only: how its writes are made durable and its WAL checkpointed. */
  durability?: SqliteDurability;
}

export interface SqliteDurability {
  sqlite: SQLite.Database;
  wal: WalSync;
  checkpoints: BackgroundCheckpoints;
}

// why: every integer the store returns is a bigint on both dialects, so money, ids, times and
// sequence numbers never pass through a double. pg returns int8 as a string by default and
// int2/int4 as numbers; better-sqlite3 returns numbers unless safe integers are on.
const PG_INTEGER_OIDS = [20, 21, 23] as const;

/** The PostgreSQL client. why: loaded only on that dialect, not at every start on SQLite. */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

function pgTypes(client: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if ((PG_INTEGER_OIDS as readonly number[]).includes(oid) && format !== 'binary') {
        return (value: string) => BigInt(value);
      }
      return client.types.getTypeParser(oid, format as 'text');
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * Makes SQLite's commits durable without blocking the event loop. The connection runs with
 * `synchronous=NORMAL`, under which a WAL commit writes its frames but does not sync them; this
 * syncs the WAL file (`fdatasync` in libuv's thread pool) before the statement that ended the
 * write is answered. What an answer promises is the same as under FULL, where SQLite makes the
 * same sync inside `commit`, on the event loop (about 1 ms each on the disks measured, time in
 * which no request could be parsed). The connection is held until the sync is done, so no other
 * query sees a commit before it is on disk. Checkpoints still sync the WAL and the database
 * themselves, as under FULL.
 */
export class WalSync {
  readonly #file: string;
  #handle: Promise<fs.promises.FileHandle> | undefined;
  /** A statement that writes has run since the last sync. */
  written = false;
  /** Syncs so far (what the tests count). */
  syncs = 0;

  constructor(walFile: string) {
    this.#file = walFile;
  }

  async sync(): Promise<void> {
    this.written = false;
    this.#handle ??= fs.promises.open(this.#file, 'r+');
    try {
      await (await this.#handle).datasync();
    } catch (error) {
      // why: after a failed sync the kernel may have dropped the unwritten pages and reports the
      // failure once; a retry could then succeed without the data. Nothing may be acknowledged
      // past it: stop the process, as PostgreSQL does, and recover from what reached the disk.
      setImmediate(() => {
        throw error;
      });
      throw error;
    }
    this.syncs += 1;
  }

  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await (await handle)?.close();
  }
}

/** SQLite's default: the writer checkpoints once the WAL holds this many pages. */
const INLINE_CHECKPOINT_PAGES = 1000;
/** With the checkpointer's thread running, the writer checkpoints itself only past this many. */
const FALLBACK_CHECKPOINT_PAGES = 20_000;
/**
 * Syncs after which checkpoints move to their thread (a store this busy gains from it). Until
 * then the writer checkpoints inline every 1,000 pages: at 1,000 syncs, under `bench:http-orders`
 * that was the first 4–5 s of load, with a stall of 10–20 ms every tenth batch.
 */
export const BACKGROUND_CHECKPOINTS_AFTER = 200;

/**
 * Checkpoints on a thread of their own. A checkpoint copies the WAL's pages back into the
 * database file and syncs both; run by the writer (SQLite's default, inside the commit that
 * passes 1,000 pages) it stalls the event loop for milliseconds, and every request waiting on it
 * (measured: commits over 2 ms were nearly half of all commit time under `bench:http-orders`).
 * The thread's own connection checkpoints every 50 ms without taking the write lock; the writer
 * keeps a fallback at 20,000 pages should the thread stop. It starts once the store has been
 * busy ({@link BACKGROUND_CHECKPOINTS_AFTER} syncs), so short-lived stores (tests, tools) never
 * pay for a thread.
 */
export class BackgroundCheckpoints {
  readonly #sqlite: SQLite.Database;
  #worker: Worker | undefined;

  constructor(sqlite: SQLite.Database) {
    this.#sqlite = sqlite;
  }

  /** Whether the thread is running (the writer then checkpoints only past the fallback). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  start(): void {
    if (this.#worker) return;
    let worker: Worker;
    try {
      worker = startStoreThread(new URL('./checkpointer.ts', import.meta.url), this.#sqlite.name);
    } catch {
      // why: a thread that cannot start leaves the writer checkpointing inline, as before.
      return;
    }
    // why: should the thread fail, the writer checkpoints inline again, as before it started.
    const fallBack = (): void => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      if (this.#sqlite.open) this.#sqlite.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    };
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
    this.#worker = worker;
    this.#sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  }

  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    await stopStoreThread(worker);
  }
}

/** How long a statement waits for another connection's write lock before it fails (SQLITE_BUSY). */
export const BUSY_WAIT_MS = 5000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * The one SQLite connection, answering a write only once the WAL holding it is synced, and
 * waiting for another connection's lock without blocking the event loop.
 */
class DurableConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #sqlite: SQLite.Database;
  readonly #wal: WalSync;
  readonly #checkpoints: BackgroundCheckpoints;

  constructor(inner: DatabaseConnection, durable: SqliteDurability) {
    this.#inner = inner;
    this.#sqlite = durable.sqlite;
    this.#wal = durable.wal;
    this.#checkpoints = durable.checkpoints;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#waitingOutBusy(() => this.#inner.executeQuery<R>(query));
    // why: outside a transaction a write has been committed (a `commit`, or a statement on its own).
    if (this.#wal.written && !this.#sqlite.inTransaction) {
      await this.#wal.sync();
      if (this.#wal.syncs === BACKGROUND_CHECKPOINTS_AFTER) this.#checkpoints.start();
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>(query, chunkSize);
  }

  /**
   * Runs a statement, trying again every millisecond while another connection holds the lock it
   * needs, up to {@link BUSY_WAIT_MS}. SQLite's own busy handler (`busy_timeout`) would sleep on
   * the event loop instead: each time the checkpointer's thread restarted the WAL, the next
   * `begin immediate` slept 1, 2, 5, 10 ms… (2 % of batches under `bench:http-orders`, up to
   * 28 ms), and no request could be read meanwhile. Only a statement outside a transaction is
   * tried again (a `begin`, or a statement on its own): one that failed had no effect. Inside a
   * transaction begun with `begin immediate` this connection already holds the write lock.
   */
  async #waitingOutBusy<T>(run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    for (;;) {
      try {
        return await run();
      } catch (error) {
        if (!isBusy(error) || this.#sqlite.inTransaction || performance.now() - started >= BUSY_WAIT_MS) {
          throw error;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

/**
 * SQLite's driver with write transactions that take the write lock at BEGIN: a deferred `begin`
 * upgrades its lock at the first write and can fail with SQLITE_BUSY halfway through a use case
 * when another process writes; `begin immediate` waits (BUSY_WAIT_MS) before doing anything.
 * Its connection answers writes once they are durable ({@link WalSync}).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #durable: SqliteDurability;
  #connection: DurableConnection | undefined;

  constructor(config: ConstructorParameters<typeof SqliteDriver>[0], durable: SqliteDurability) {
    super(config);
    this.#durable = durable;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    this.#connection ??= new DurableConnection(inner, this.#durable);
    return this.#connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async destroy(): Promise<void> {
    await this.#durable.checkpoints.stop();
    await super.destroy();
    await this.#durable.wal.close();
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  readonly #durable: SqliteDurability;

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], durable: SqliteDurability) {
    super(config);
    this.#config = config;
    this.#durable = durable;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#durable);
  }
}

/**
 * Opens the store: PostgreSQL when `databaseUrl` is a postgres URL, else a SQLite file in `dataDir`.
 * SQLite runs in WAL mode, and every write is synced to disk before it is answered ({@link WalSync}),
 * so an acknowledged write survives a power cut.
 */
export function openDb(options: { databaseUrl?: string; dataDir: string; poolSize?: number }): DbHandle {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    const client = loadPg();
    const pool = new client.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes(client),
    });
    // why: an idle connection that PostgreSQL ends (restart, failover, an administrator) makes the
    // pool emit 'error'; unheard, that event would crash the process. The pool has already dropped
    // the connection and opens a new one for the next query.
    pool.on('error', () => {});
    // why: a connection in use (a transaction between two statements, the start lock) emits its
    // 'error' on its own client, where the pool does not listen: a PostgreSQL restart then killed
    // the process. The statement that was running, or the next one, fails instead, and the pool
    // drops the connection when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = new RetryingKysely({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'bourse.sqlite');
  const sqlite = new SQLite(file);
  sqlite.defaultSafeIntegers(true);
  sqlite.pragma('journal_mode = WAL');
  // why: NORMAL leaves the commit's sync to WalSync, which makes it off the event loop.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // why: never sleep in SQLite's busy handler on the event loop; the connection waits instead
  // (DurableConnection, BUSY_WAIT_MS).
  sqlite.pragma('busy_timeout = 0');
  // why: SQLite's default page cache is 2 MB; the hot pages (the newest orders of every user,
  // every account's latest postings, their indexes) outgrow it as soon as the store has some
  // history, and every miss is a read. 64 MB took 11–17 % less CPU per order in
  // `bench:http-orders` (paired runs); pages are allocated only as they are used.
  sqlite.pragma('cache_size = -65536');
  // why: a statement that changes several rows inside a transaction keeps the pages it changes in
  // a statement journal, to undo itself alone should it fail. Past 64 KB SQLite spills that
  // journal to a temporary file, which it creates and deletes each time: a batch of orders did
  // so in every transaction, 80 system calls of its 190 (`strace` under `bench:http-orders`).
  // In memory it costs a copy of each page.
  sqlite.pragma('temp_store = MEMORY');
  const durable: SqliteDurability = {
    sqlite,
    wal: new WalSync(`${file}-wal`),
    checkpoints: new BackgroundCheckpoints(sqlite),
  };
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: reusingStatements(sqlite, durable.wal) }, durable),
  });
  const key = path.resolve(file);
  openSqlite.set(key, sqlite);
  let reader: Kysely<Database> | undefined;
  readers.set(db, () => {
    reader ??= new Kysely<Database>({ dialect: new ReadThreadDialect(file) });
    return reader;
  });
  const close = async (): Promise<void> => {
    if (openSqlite.get(key) === sqlite) openSqlite.delete(key);
    await reader?.destroy();
    await db.destroy();
  };
  return { db, dialect: 'sqlite', close, durability: durable };
}

/** The read-only second connection of each SQLite store `openDb` opened, made on first use. */
const readers = new WeakMap<Db, () => Db>();

/**
 * Where the long reads of `db` go (the ledger check, the reserves snapshot's balances). On SQLite
 * a second, read-only connection on a thread of its own (`read-thread.ts`): its statements run on
 * another core, and its read transaction is a snapshot of the store (WAL) that never holds the
 * one connection order entry writes through. On a year's store the check's statements, run on
 * the main thread, took most of its time and order entry fell behind (p99 255 ms against 3 ms).
 * On PostgreSQL, and inside a transaction, `db` itself: a pool gives each transaction a
 * connection of its own.
 */
export function readerOf(db: Db): Db {
  if (db.isTransaction) return db;
  return readers.get(db)?.() ?? db;
}

/** The SQLite connections `openDb` has open in this process, by their file's absolute path. */
const openSqlite = new Map<string, SQLite.Database>();

/**
 * This process's open connection to the SQLite store `file`, if it has one. why: a backup made
 * in the server's process copies through the server's own connection, which carries the
 * server's writes into the copy as they happen; copied through another connection, each write
 * would start the copy over.
 */
export function openSqliteConnection(file: string): SQLite.Database | undefined {
  const sqlite = openSqlite.get(path.resolve(file));
  return sqlite?.open ? sqlite : undefined;
}

/** Most prepared statements kept per SQLite connection. */
const STATEMENT_CACHE_SIZE = 1000;
/** Longest list `repeated` keeps (a spot batch holds at most a few hundred commands). */
const BATCH_LIST_CACHE_MAX = 1000;

/**
 * The SQLite connection as Kysely sees it, with its prepared statements kept and reused: Kysely
 * prepares every query anew, and preparing costs about as much as running a small statement
 * (measured with `npm run bench:http-orders` under a CPU profile). better-sqlite3 runs statements
 * synchronously, so a cached statement is never in use twice at once; streaming (`iterate`),
 * which would keep one busy, is not used.
 */
function reusingStatements(
  sqlite: SQLite.Database,
  wal: WalSync,
): {
  close(): void;
  prepare(sql: string): SQLite.Statement;
} {
  const statements = new Map<string, { statement: SQLite.Statement; writes: boolean }>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let cached = statements.get(sql);
      if (!cached) {
        // why: queries with inlined values would fill the cache with one-offs; drop the oldest.
        if (statements.size >= STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value as string);
        const statement = sqlite.prepare(sql);
        // why: `begin immediate` takes the write lock, so SQLite counts it as writing; it writes
        // nothing, and a transaction that only reads needs no sync.
        cached = { statement, writes: !statement.readonly && !/^\s*begin\b/i.test(sql) };
        statements.set(sql, cached);
      }
      // why: the connection syncs the WAL once the write this statement starts is committed.
      if (cached.writes) wal.written = true;
      return cached.statement;
    },
  };
}

/** `?` placeholders turned into PostgreSQL's `$1, $2, …`, per statement text. */
const postgresTexts = new Map<string, string>();

/**
 * Runs a statement written by hand with `?` placeholders, valid on both dialects, without
 * building or compiling a query. Only for the statements every spot batch runs (the order and
 * posting inserts, the account read, the balance and order updates, the idempotency-key probe,
 * the journal entry, the users' trading statuses, the market's sequence), where Kysely building
 * and compiling the query took as long as SQLite running it; everything else goes through the
 * builder. The statement text must depend only on the number of values, never on them, so it
 * stays one prepared statement per shape.
 */
export function executeSql<R>(db: Db, text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  let statement = text;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    let converted = postgresTexts.get(text);
    if (converted === undefined) {
      let n = 0;
      converted = text.replace(/\?/g, () => `$${++n}`);
      if (postgresTexts.size >= STATEMENT_CACHE_SIZE) postgresTexts.clear();
      postgresTexts.set(text, converted);
    }
    statement = converted;
  }
  return db.executeQuery<R>(CompiledQuery.raw(statement, [...parameters]));
}

/**
 * The users a slice of work reads: ids in (after, through]. The ledger check compares reserved
 * balances with open reservations a slice of users at a time, each on its own snapshot (the
 * comparison is per user, so slices taken at different moments still compare like with like).
 */
export interface UserRange {
  after: bigint;
  through: bigint;
}

/** Whether `db` runs on PostgreSQL (a transaction answers for the store it runs on). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Lists built by `repeated`, per row text and count. */
const repeatedLists = new Map<string, string[]>();

/**
 * `row` written `count` times, separated by commas: a VALUES list of `count` rows, an IN list.
 * Built once per row and count: every spot batch asks for several (1.3 % of the main thread
 * in the paced phase of `bench:http-orders` when built each time).
 */
export function repeated(row: string, count: number): string {
  let lists = repeatedLists.get(row);
  if (!lists) {
    // why: row texts are a handful of literals; a cap keeps a caller passing values from growing it.
    if (repeatedLists.size >= STATEMENT_CACHE_SIZE) repeatedLists.clear();
    lists = [];
    repeatedLists.set(row, lists);
  }
  let list = lists[count];
  if (list === undefined) {
    list = Array.from({ length: count }, () => row).join(', ');
    if (count <= BATCH_LIST_CACHE_MAX) lists[count] = list;
  }
  return list;
}

/** `(?, ?, …), (?, ?, …)`: `rows` groups of `columns` placeholders, for multi-row inserts. */
export function placeholderRows(rows: number, columns: number): string {
  return repeated(`(${repeated('?', columns)})`, rows);
}

/** Whether `error` is a unique-constraint violation, told by the driver's code, not its message. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3: SQLITE_CONSTRAINT_UNIQUE (a unique index) or _PRIMARYKEY; PostgreSQL: 23505.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** How many times a transaction is run at most when PostgreSQL aborts it for a conflict. */
export const TRANSACTION_ATTEMPTS = 5;
let conflictRetries = 0;

/** Transactions run again after a conflict since the process started (tests and metrics read it). */
export function transactionConflictRetries(): number {
  return conflictRetries;
}

/**
 * Whether PostgreSQL aborted a transaction for a conflict with another one, so that running the
 * whole transaction again is safe and will likely succeed: deadlock_detected (40P01) and
 * serialization_failure (40001).
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Whether the store refused what a transaction wrote (its data, not the connection): a data
 * exception (SQLSTATE class 22), an integrity constraint (23), a raised exception (P0) on
 * PostgreSQL, or a constraint on SQLite. A lost connection, a server shutting down or a
 * transaction ended for idling is not a refusal: writing the same again later may well succeed.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^(22|23|P0)[0-9A-Z]{3}$/.test(code) || code.startsWith('SQLITE_CONSTRAINT');
}

/**
 * Runs `attempt` until it does not fail for a conflict, at most {@link TRANSACTION_ATTEMPTS}
 * times, with a short random pause between (so the two sides of a deadlock do not meet again).
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransactionConflict(error) || tries >= TRANSACTION_ATTEMPTS) throw error;
      conflictRetries += 1;
      await new Promise((resolve) => setTimeout(resolve, tries * (5 + Math.random() * 20)));
    }
  }
}

/**
 * PostgreSQL's Kysely, whose transactions are run again, whole, when PostgreSQL aborts them for a
 * deadlock or a serialization failure: every use case gets the retry, and a conflict never reaches
 * a customer as a 500. A transaction's callback must therefore change nothing outside the
 * database before it commits (persist, then publish); a caller that does (the spot sequencer's
 * engine) uses {@link transactionOnce} and undoes its memory before it tries again.
 */
class RetryingKysely extends Kysely<Database> {
  override transaction(): TransactionBuilder<Database> {
    return retrying(super.transaction());
  }

  /** A transaction that is not run again on a conflict. */
  transactionOnce(): TransactionBuilder<Database> {
    return super.transaction();
  }
}

function retrying(builder: TransactionBuilder<Database>): TransactionBuilder<Database> {
  return new Proxy(builder, {
    get(target, property) {
      if (property === 'execute')
        return <T>(callback: (trx: Transaction<Database>) => Promise<T>) =>
          retryOnConflict(() => target.execute(callback));
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      // why: the builder's setters answer a new builder, which must retry too.
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result && typeof result === 'object' && 'execute' in result
          ? retrying(result as TransactionBuilder<Database>)
          : result;
      };
    },
  });
}

/**
 * A transaction that PostgreSQL's conflicts are not retried for: the caller changes memory in it
 * and must undo that before running it again (the spot sequencer rebuilds its book).
 */
export function transactionOnce(db: Db): TransactionBuilder<Database> {
  return db instanceof RetryingKysely ? db.transactionOnce() : db.transaction();
}
