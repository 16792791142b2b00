import type { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { ReadAnswer, ReadRequest } from './read-thread.ts';
import { startStoreThread, stopStoreThread } from './store-thread.ts';

/**
 * A Kysely dialect whose statements run on a thread of their own, on a read-only connection to
 * the SQLite store `file` (`read-thread.ts`). One connection: a transaction (`begin` … `commit`,
 * a snapshot of the store in WAL mode) holds it, and other reads wait for it, as Kysely's own
 * SQLite driver does.
 */
export class ReadThreadDialect implements Dialect {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new ReadThreadDriver(this.#file);
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

class ReadThreadDriver implements Driver {
  readonly #file: string;
  #worker: Worker | undefined;
  readonly #pending = new Map<number, { resolve(rows: unknown[]): void; reject(error: Error): void }>();
  #nextId = 0;
  /** The one connection's holder: each acquire waits for the one before it to be released. */
  #held: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(file: string) {
    this.#file = file;
  }

  async init(): Promise<void> {
    const worker = startStoreThread(new URL('./read-thread.ts', import.meta.url), this.#file);
    worker.on('message', (answer: ReadAnswer) => {
      const pending = this.#pending.get(answer.id);
      if (!pending) return;
      this.#pending.delete(answer.id);
      // why: the thread keeps the process alive only while a read waits for it.
      if (this.#pending.size === 0) worker.unref();
      if ('error' in answer) {
        pending.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      } else {
        pending.resolve(answer.rows);
      }
    });
    const failAll = (error: Error): void => {
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      if (this.#worker === worker) this.#worker = undefined;
    };
    worker.on('error', failAll);
    worker.on('exit', () => failAll(new Error('the read thread stopped')));
    this.#worker = worker;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#held;
    let release: () => void = () => {};
    this.#held = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
    return { executeQuery: (query) => this.#run(query), streamQuery: () => unsupported() };
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    await stopStoreThread(worker);
  }

  #run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const worker = this.#worker;
    if (!worker) return Promise.reject(new Error('the read thread is not running'));
    const id = ++this.#nextId;
    const request: ReadRequest = { id, sql: query.sql, parameters: query.parameters };
    const rows = new Promise<unknown[]>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    worker.ref();
    worker.postMessage(request);
    return rows.then((list) => ({ rows: list as R[] }));
  }
}

function unsupported(): never {
  throw new Error('the read thread does not stream');
}
