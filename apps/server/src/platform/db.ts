import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

/**
 * A handle on the store for one unit of work: the database itself or a transaction opened on it.
 * Repository functions take one and never open transactions themselves; the service that runs a
 * use case opens the transaction and passes it down.
 */
export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

// why: every integer the store returns is a bigint on both dialects, so money, ids, times and
// sequence numbers never pass through a double. pg returns int8 as a string by default and
// int2/int4 as numbers; better-sqlite3 returns numbers unless safe integers are on.
const PG_INTEGER_OIDS = [20, 21, 23] as const;

function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if ((PG_INTEGER_OIDS as readonly number[]).includes(oid) && format !== 'binary') {
        return (value: string) => BigInt(value);
      }
      return pg.types.getTypeParser(oid, format as 'text');
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * SQLite's driver with write transactions that take the write lock at BEGIN: a deferred `begin`
 * upgrades its lock at the first write and can fail with SQLITE_BUSY halfway through a use case
 * when another process writes; `begin immediate` waits (busy_timeout) before doing anything.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * Opens the store: PostgreSQL when `databaseUrl` is a postgres URL, else a SQLite file in `dataDir`.
 * SQLite runs in WAL mode with synchronous=FULL so an acknowledged write survives a power cut.
 */
export function openDb(options: { databaseUrl?: string; dataDir: string; poolSize?: number }): DbHandle {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes(),
    });
    // why: an idle connection that PostgreSQL ends (restart, failover, an administrator) makes the
    // pool emit 'error'; unheard, that event would crash the process. The pool has already dropped
    // the connection and opens a new one for the next query.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'bourse.sqlite');
  const sqlite = new SQLite(file);
  sqlite.defaultSafeIntegers(true);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: reusingStatements(sqlite) }),
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Most prepared statements kept per SQLite connection. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * The SQLite connection as Kysely sees it, with its prepared statements kept and reused: Kysely
 * prepares every query anew, and preparing costs about as much as running a small statement
 * (measured with `npm run bench:http-orders` under a CPU profile). better-sqlite3 runs statements
 * synchronously, so a cached statement is never in use twice at once; streaming (`iterate`),
 * which would keep one busy, is not used.
 */
function reusingStatements(sqlite: SQLite.Database): {
  close(): void;
  prepare(sql: string): SQLite.Statement;
} {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        // why: queries with inlined values would fill the cache with one-offs; drop the oldest.
        if (statements.size >= STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value as string);
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Whether `error` is a unique-constraint violation, told by the driver's code, not its message. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3: SQLITE_CONSTRAINT_UNIQUE (a unique index) or _PRIMARYKEY; PostgreSQL: 23505.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
