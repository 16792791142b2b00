// How `npm run seed:year` writes rows: straight into a store the platform itself created and
// migrated, in the tables' own columns, as fast as each dialect takes them. SQLite gets one
// prepared statement per table in long transactions; PostgreSQL gets multi-row inserts. The
// secondary indexes of the tables it fills are dropped while it writes and built again at the
// end (from their own definitions, so indexes added by later migrations come back too).
import pg from 'pg';
import { openDb } from '../../apps/server/src/platform/db.ts';

type Cell = string | number | bigint | null;

/** The tables written, parents before children, with the columns given (the rest keep their defaults). */
export const SEED_TABLES = {
  users: [
    'id',
    'username',
    'username_key',
    'password_hash',
    'invite_code',
    'reg_ip',
    'last_login_at',
    'last_login_ip',
    'locale',
    'created_at',
  ],
  sessions: ['id', 'user_id', 'token_hash', 'device', 'ip', 'created_at', 'last_used_at', 'revoked_at'],
  login_logs: ['id', 'user_id', 'account', 'success', 'reason', 'ip', 'device', 'created_at'],
  ledger_accounts: ['id', 'owner', 'user_id', 'asset', 'kind', 'balance'],
  journal_entries: ['id', 'type', 'ref', 'memo', 'created_by', 'created_at'],
  postings: ['id', 'entry_id', 'account_id', 'amount', 'balance_after'],
  spot_orders: [
    'id',
    'symbol',
    'user_id',
    'side',
    'type',
    'tif',
    'price',
    'qty',
    'filled_qty',
    'filled_quote',
    'fee',
    'fee_bps',
    'hold_asset',
    'held',
    'status',
    'revoke_reason',
    'seq',
    'idempotency_key',
    'created_at',
    'updated_at',
  ],
  spot_trades: [
    'id',
    'symbol',
    'seq',
    'price',
    'qty',
    'quote',
    'maker_order_id',
    'maker_user_id',
    'taker_order_id',
    'taker_user_id',
    'taker_side',
    'maker_fee',
    'taker_fee',
    'at',
  ],
  delivery_contracts: [
    'id',
    'user_id',
    'symbol',
    'direction',
    'period',
    'amount',
    'funding',
    'ratio_bps',
    'open_price',
    'open_price_at',
    'open_source',
    'opened_at',
    'expires_at',
    'status',
    'result',
    'close_price',
    'close_at',
    'close_source',
    'payout',
    'profit',
    'settled_at',
    'idempotency_key',
  ],
  deposits: [
    'id',
    'user_id',
    'coin',
    'network',
    'address',
    'amount',
    'credited_amount',
    'tx_hash',
    'voucher',
    'status',
    'reason',
    'reviewed_by',
    'created_at',
    'reviewed_at',
  ],
  withdrawals: [
    'id',
    'user_id',
    'coin',
    'network',
    'type',
    'destination',
    'amount',
    'fee',
    'status',
    'reason',
    'idempotency_key',
    'reviewed_by',
    'created_at',
    'reviewed_at',
    'notified_at',
  ],
  audit_log: ['id', 'actor', 'action', 'target', 'reason', 'ip', 'created_at'],
  index_ticks: ['symbol', 'at', 'price', 'source'],
  index_candles: ['symbol', 'interval', 't', 'o', 'h', 'l', 'c'],
} as const;

export type SeedTable = keyof typeof SEED_TABLES;
const TABLE_NAMES = Object.keys(SEED_TABLES) as SeedTable[];
/** Tables with a generated `id` whose counter must follow the ids written here. */
const ID_TABLES = TABLE_NAMES.filter((t) => (SEED_TABLES[t] as readonly string[]).includes('id'));

export interface SeedWriter {
  readonly dialect: 'sqlite' | 'postgres';
  /** Queues or writes one row; `row` follows the table's columns in {@link SEED_TABLES}. */
  add(table: SeedTable, row: Cell[]): void;
  /** Lets a buffered writer send what has gathered once there is enough of it. */
  maybeFlush(): Promise<void>;
  /** One statement without parameters, after every row queued before it. */
  run(sql: string): Promise<void>;
  /** A read: every value comes back as text or null, whatever the dialect. */
  select(sql: string): Promise<Record<string, string | null>[]>;
  /** Sets the stored balance of each account (id, balance) once its postings are written. */
  setBalances(rows: [number, bigint][]): Promise<void>;
  /** Writes what is left, builds the dropped indexes again, moves id counters, analyses. */
  finish(log: (line: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** Opens the writer on the store at `dataDir` (SQLite) or `databaseUrl` (PostgreSQL). */
export async function openSeedWriter(target: { dataDir: string; databaseUrl?: string }): Promise<SeedWriter> {
  return target.databaseUrl ? postgresWriter(target.databaseUrl) : sqliteWriter(target.dataDir);
}

function columnsOf(table: SeedTable): readonly string[] {
  return SEED_TABLES[table];
}

function sqliteWriter(dataDir: string): SeedWriter {
  const handle = openDb({ dataDir });
  const sqlite = handle.durability?.sqlite;
  if (!sqlite) throw new Error('no SQLite connection');
  // why: a store being built that nobody else uses: a crash leaves a store to throw away, never
  // a half-true one, so the syncs and the foreign-key look-ups (the rows come parents first) are
  // skipped for the hour it takes.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma('cache_size = -262144');
  const dropped = sqlite
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and sql is not null
        and tbl_name in (${TABLE_NAMES.map((t) => `'${t}'`).join(', ')})`,
    )
    .all() as { name: string; sql: string }[];
  for (const index of dropped) sqlite.exec(`drop index "${index.name}"`);
  const statements = new Map(
    TABLE_NAMES.map((table) => {
      const columns = columnsOf(table);
      return [
        table,
        sqlite.prepare(
          `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        ),
      ];
    }),
  );
  let written = 0;
  sqlite.exec('begin');
  return {
    dialect: 'sqlite',
    add(table, row) {
      statements.get(table)!.run(row);
      if (++written % 500_000 === 0) sqlite.exec('commit; begin');
    },
    maybeFlush: () => Promise.resolve(),
    async run(sql) {
      sqlite.exec(sql);
    },
    async select(sql) {
      const rows = sqlite.prepare(sql).all() as Record<string, unknown>[];
      return rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? null : String(v)])),
      );
    },
    async setBalances(rows) {
      const update = sqlite.prepare('update ledger_accounts set balance = ? where id = ?');
      for (const [id, balance] of rows) update.run(balance, id);
    },
    async finish(log) {
      sqlite.exec('commit');
      for (const index of dropped) {
        const started = Date.now();
        sqlite.exec(index.sql);
        log(`  index ${index.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      sqlite.exec('analyze');
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    },
    close: () => handle.close(),
  };
}

/** Rows per PostgreSQL statement (one array per column, so the statement stays small). */
const PG_ROWS = 20_000;
/** Rows gathered, over every table, before they are sent. */
const PG_BUFFERED = 60_000;

async function postgresWriter(databaseUrl: string): Promise<SeedWriter> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('set synchronous_commit = off');
  // why: rows come parents first, so the foreign-key checks (and the audit log's append-only
  // trigger, which refuses no insert) can be left out where the role may; elsewhere they run.
  await client.query('set session_replication_role = replica').catch(() => {});
  const { rows: dropped } = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = any($1)
        and indexname not in (select conname from pg_constraint)`,
    [TABLE_NAMES],
  );
  for (const index of dropped) await client.query(`drop index "${index.indexname}"`);
  // why: one array per column (`unnest`) instead of a parameter per value: PostgreSQL parses a
  // short statement once per chunk, which took a third of the time of multi-row VALUES.
  const { rows: types } = await client.query<{ table_name: string; column_name: string; udt_name: string }>(
    `select table_name, column_name, udt_name from information_schema.columns
      where table_schema = current_schema() and table_name = any($1)`,
    [TABLE_NAMES],
  );
  const typeOf = new Map(types.map((t) => [`${t.table_name}.${t.column_name}`, t.udt_name]));
  const texts = new Map(
    TABLE_NAMES.map((table) => {
      const columns = columnsOf(table);
      const arrays = columns.map((c, i) => `$${i + 1}::${typeOf.get(`${table}.${c}`) ?? 'text'}[]`);
      return [
        table,
        `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) select * from unnest(${arrays.join(', ')})`,
      ];
    }),
  );
  const buffers = new Map<SeedTable, Cell[][]>(TABLE_NAMES.map((t) => [t, []]));
  let buffered = 0;
  const flush = async () => {
    for (const table of TABLE_NAMES) {
      const rows = buffers.get(table)!;
      if (rows.length === 0) continue;
      const width = columnsOf(table).length;
      for (let i = 0; i < rows.length; i += PG_ROWS) {
        const chunk = rows.slice(i, i + PG_ROWS);
        const columns: (string | number | null)[][] = Array.from({ length: width }, () => []);
        for (const row of chunk)
          for (let c = 0; c < width; c++) {
            const v = row[c] ?? null;
            columns[c]!.push(typeof v === 'bigint' ? v.toString() : v);
          }
        await client.query(texts.get(table)!, columns);
      }
      buffers.set(table, []);
    }
    buffered = 0;
  };
  return {
    dialect: 'postgres',
    add(table, row) {
      buffers.get(table)!.push(row);
      buffered++;
    },
    async maybeFlush() {
      if (buffered >= PG_BUFFERED) await flush();
    },
    async run(sql) {
      await flush();
      await client.query(sql);
    },
    async select(sql) {
      const { rows } = await client.query(sql);
      return rows.map((row: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? null : String(v)])),
      );
    },
    async setBalances(rows) {
      await flush();
      for (let i = 0; i < rows.length; i += 10_000) {
        const chunk = rows.slice(i, i + 10_000);
        await client.query(
          `update ledger_accounts as a set balance = v.balance
            from unnest($1::bigint[], $2::bigint[]) as v(id, balance) where a.id = v.id`,
          [chunk.map(([id]) => id), chunk.map(([, balance]) => balance.toString())],
        );
      }
    },
    async finish(log) {
      await flush();
      for (const index of dropped) {
        const started = Date.now();
        await client.query(index.indexdef);
        log(`  index ${index.indexname}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      for (const table of ID_TABLES) {
        await client.query(
          `select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from ${table}), 1))`,
        );
      }
      await client.query('analyze');
    },
    close: () => client.end(),
  };
}
