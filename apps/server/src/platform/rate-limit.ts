import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type IRateLimiterStoreOptions,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
} from 'rate-limiter-flexible';
import { addPrunes, type PruneResult, pruneInSlices, type SliceOptions } from './prune.ts';

/** At most `points` events per `durationSec` seconds for one key. */
export interface LimitRule {
  points: number;
  durationSec: number;
}

/**
 * One named limit. Callers reserve before they verify: `take` atomically claims a slot before the
 * expensive check (a password hash, an account creation), so any number of concurrent requests
 * can never evaluate more than `points` of them; `giveBack` returns the slot when the attempt
 * turns out not to count (a right password, a refused sign-up).
 */
export interface Limit {
  /** Claims one slot; false when none is left in the window. */
  take(key: string): Promise<boolean>;
  /** Returns one slot claimed by `take`. */
  giveBack(key: string): Promise<void>;
  /** How many slots the key has used in its current window. */
  used(key: string): Promise<number>;
  /** Forgets the key (e.g. after a successful login). */
  clear(key: string): Promise<void>;
}

export type LimitStoreKind = 'memory' | 'sqlite' | 'postgres' | 'redis';

/** Where limits keep their counts. `memory` is per process; the others survive a restart. */
export interface LimitStore {
  readonly kind: LimitStoreKind;
  limit(name: string, rule: LimitRule): Limit;
  /**
   * Deletes, in bounded slices, the rows of this store's limits whose window ended before `nowMs`
   * (wall-clock ms, the time the counts are kept in): an ended window counts as no row, but every
   * address or account that ever hit a limit would otherwise keep one. Nothing to do in memory
   * (it forgets on its own) or Redis (keys expire).
   */
  sweepExpired(nowMs: number, slices: SliceOptions): Promise<PruneResult>;
  close(): Promise<void>;
}

export interface LimitStoreOptions {
  kind: LimitStoreKind;
  /** sqlite: the folder of `limits.sqlite` (kept apart from the ledger's file and its lock). */
  dataDir?: string;
  /** postgres: connection string. */
  databaseUrl?: string;
  /** redis: connection string, e.g. `redis://127.0.0.1:6379`. */
  redisUrl?: string;
  /** Prefix of keys and tables, so tests and tenants do not share counts. */
  prefix?: string;
}

type Flexible = RateLimiterMemory | RateLimiterSQLite | RateLimiterPostgres | RateLimiterRedis;

class FlexibleLimit implements Limit {
  readonly #limiter: Flexible;
  // why: the SQL stores create their table asynchronously from the constructor; a consume issued
  // before the table exists fails, so every call waits for it.
  readonly #ready: Promise<void>;

  constructor(limiter: Flexible, ready: Promise<void>) {
    this.#limiter = limiter;
    this.#ready = ready;
  }

  async take(key: string): Promise<boolean> {
    await this.#ready;
    try {
      await this.#limiter.consume(key, 1);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }

  async giveBack(key: string): Promise<void> {
    await this.#ready;
    // why: a slot taken in a window that has since ended is gone already; rewarding it would
    // open the next window with a credit of one.
    const res = await this.#limiter.get(key);
    if (res && res.consumedPoints > 0) await this.#limiter.reward(key, 1);
  }

  async used(key: string): Promise<number> {
    await this.#ready;
    const res = await this.#limiter.get(key);
    return res ? Math.max(0, res.consumedPoints) : 0;
  }

  async clear(key: string): Promise<void> {
    await this.#ready;
    await this.#limiter.delete(key);
  }
}

/** A limiter whose constructor reports table creation through a callback, with that as a promise. */
function withTable<T>(create: (done: (error?: unknown) => void) => T): { limiter: T; ready: Promise<void> } {
  let done!: (error?: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    done = (error) => (error ? reject(error) : resolve());
  });
  return { limiter: create(done), ready };
}

/** Opens the store that limits count in. Throws when the store cannot be reached. */
export async function openLimitStore(options: LimitStoreOptions): Promise<LimitStore> {
  const prefix = (options.prefix ?? 'rl').replace(/[^a-z0-9_]/gi, '_');
  const kind = options.kind;
  let close: () => Promise<void> = async () => {};
  let make: (name: string, rule: LimitRule) => { limiter: Flexible; ready: Promise<void> };

  const base = (name: string, rule: LimitRule) => ({
    keyPrefix: `${prefix}_${name}`,
    points: rule.points,
    duration: rule.durationSec,
  });
  const now = { ready: Promise.resolve() };
  // why: the SQL stores keep one table per limit; a key's expired row is overwritten in place, and
  // rows of keys never seen again are deleted by `sweepExpired` (a scheduled job), not by the
  // limiter's own timer, which would outlive close and delete in one unbounded statement.
  const sqlOptions = (name: string, rule: LimitRule, storeClient: unknown, storeType: string) =>
    ({
      ...base(name, rule),
      storeClient,
      storeType,
      tableName: `${prefix}_${name}`,
      clearExpiredByTimeout: false,
    }) as IRateLimiterStoreOptions;

  // why: the SQL stores' tables come from the limiter, without an index on the expiry; one is
  // added beside each so a sweep slice seeks to expired rows instead of scanning live ones.
  let deleteExpiredSlice: ((table: string, nowMs: number, limit: number) => Promise<number>) | undefined;
  let addExpiryIndex: (table: string) => Promise<void> = async () => {};

  switch (kind) {
    case 'memory':
      make = (name, rule) => ({ limiter: new RateLimiterMemory(base(name, rule)), ...now });
      break;
    case 'sqlite': {
      if (!options.dataDir) throw new Error('the sqlite limit store needs dataDir');
      fs.mkdirSync(options.dataDir, { recursive: true });
      const db = new SQLite(path.join(options.dataDir, 'limits.sqlite'));
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      close = async () => {
        db.close();
      };
      make = (name, rule) =>
        withTable((done) => new RateLimiterSQLite(sqlOptions(name, rule, db, 'better-sqlite3'), done));
      addExpiryIndex = async (table) => {
        db.exec(`CREATE INDEX IF NOT EXISTS "${table}_expire_idx" ON "${table}" (expire)`);
      };
      deleteExpiredSlice = async (table, nowMs, limit) =>
        db
          .prepare(
            `DELETE FROM "${table}" WHERE key IN (SELECT key FROM "${table}" WHERE expire < ? ORDER BY expire LIMIT ?)`,
          )
          .run(nowMs, limit).changes;
      break;
    }
    case 'postgres': {
      if (!options.databaseUrl) throw new Error('the postgres limit store needs databaseUrl');
      // why: the clients of the other stores are loaded only when chosen, not at every start.
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
      // why: as in db.ts, an idle connection ended by the server must not crash the process.
      pool.on('error', () => {});
      pool.on('connect', (client) => {
        client.on('error', () => {});
      });
      await pool.query('select 1');
      close = () => pool.end();
      make = (name, rule) =>
        withTable((done) => new RateLimiterPostgres(sqlOptions(name, rule, pool, 'pool'), done));
      addExpiryIndex = async (table) => {
        await pool.query(`CREATE INDEX IF NOT EXISTS "${table}_expire_idx" ON "${table}" (expire)`);
      };
      deleteExpiredSlice = async (table, nowMs, limit) => {
        const result = await pool.query(
          `DELETE FROM "${table}" WHERE key IN (SELECT key FROM "${table}" WHERE expire < $1 ORDER BY expire LIMIT $2)`,
          [nowMs, limit],
        );
        return result.rowCount ?? 0;
      };
      break;
    }
    case 'redis': {
      if (!options.redisUrl) throw new Error('the redis limit store needs redisUrl');
      const { Redis } = await import('ioredis');
      const client = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
      await client.connect();
      close = async () => {
        client.disconnect();
      };
      make = (name, rule) => ({
        limiter: new RateLimiterRedis({ ...base(name, rule), storeClient: client }),
        ...now,
      });
      break;
    }
  }

  const limits = new Map<string, Limit>();
  const pending: Promise<unknown>[] = [];
  /** Each SQL table once (limits of one name share it), and when its expiry index is in place. */
  const tables = new Map<string, Promise<void>>();
  return {
    kind,
    limit(name, rule) {
      const key = `${name}:${rule.points}:${rule.durationSec}`;
      let limit = limits.get(key);
      if (!limit) {
        const { limiter, ready } = make(name, rule);
        // why: a failed table creation surfaces at the first take; keep it from being unhandled here.
        ready.catch(() => {});
        pending.push(ready);
        limit = new FlexibleLimit(limiter, ready);
        limits.set(key, limit);
        const table = `${prefix}_${name}`;
        if (deleteExpiredSlice && !tables.has(table)) {
          const indexed = ready.then(() => addExpiryIndex(table));
          indexed.catch(() => {});
          pending.push(indexed);
          tables.set(table, indexed);
        }
      }
      return limit;
    },
    async sweepExpired(nowMs, slices) {
      const sweep = deleteExpiredSlice;
      if (!sweep) return { deleted: 0, slices: 0 };
      const results: PruneResult[] = [];
      for (const [table, indexed] of tables) {
        await indexed;
        results.push(await pruneInSlices((limit) => sweep(table, nowMs, limit), slices));
      }
      return addPrunes(...results);
    },
    async close() {
      await Promise.allSettled(pending);
      await close();
    },
  };
}
