import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, isUniqueViolation, openDb } from '../src/platform/db.ts';
import { migrateToLatest } from '../src/platform/migrate.ts';
import { createPostgresDatabase, DIALECTS, terminatePostgresBackends } from './harness.ts';

const MAX_INT8 = 2n ** 63n - 1n;
const ABOVE_DOUBLE = 2n ** 53n + 1n;

describe.each(DIALECTS)('the store on $name', ({ name, skip }) => {
  describe.skipIf(skip)('integers, unique violations, transactions', () => {
    let handle: DbHandle;
    let dataDir: string;
    let drop: (() => Promise<void>) | undefined;
    let databaseUrl: string | undefined;

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-store-'));
      const database = name === 'postgres' ? await createPostgresDatabase() : undefined;
      drop = database?.drop;
      databaseUrl = database?.url;
      handle = openDb({ databaseUrl: database?.url, dataDir });
      await migrateToLatest(handle.db);
      expect(handle.dialect).toBe(name);
    });
    afterAll(async () => {
      await handle?.close();
      await drop?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const insertUser = (username: string, createdAt = 1_795_000_000_000n) =>
      handle.db
        .insertInto('users')
        .values({
          username,
          username_key: username.toLowerCase(),
          password_hash: 'x',
          invite_code: `IC${username.toUpperCase()}`.slice(0, 16),
          reg_ip: '127.0.0.1',
          created_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

    it('writes and reads back 2^63-1 and 2^53+1 atoms exactly, as bigint', async () => {
      const db = handle.db as unknown as Kysely<any>;
      await db.schema
        .createTable('scratch_amounts')
        .addColumn('label', 'text', (c) => c.primaryKey())
        .addColumn('atoms', 'bigint', (c) => c.notNull())
        .execute();
      try {
        await db
          .insertInto('scratch_amounts')
          .values([
            { label: 'max', atoms: MAX_INT8 },
            { label: 'above_double', atoms: ABOVE_DOUBLE },
            { label: 'negative', atoms: -MAX_INT8 },
          ])
          .execute();
        const rows = await db
          .selectFrom('scratch_amounts')
          .select(['label', 'atoms'])
          .orderBy('label')
          .execute();
        expect(rows.map((row) => typeof row.atoms)).toEqual(['bigint', 'bigint', 'bigint']);
        expect(rows).toEqual([
          { label: 'above_double', atoms: ABOVE_DOUBLE },
          { label: 'max', atoms: MAX_INT8 },
          { label: 'negative', atoms: -MAX_INT8 },
        ]);
        // why: 2^53+1 is the first integer a double cannot hold; as a number it reads 2^53.
        expect(rows[0]!.atoms).not.toBe(2n ** 53n);

        // arithmetic in the store stays exact too. why the cast: PostgreSQL's sum(int8) is numeric,
        // which the driver hands over as a string; cast aggregates of money back to bigint.
        const sum = await sql<{ total: bigint }>`
          select cast(sum(atoms) as bigint) as total from scratch_amounts
          where label in ('above_double', 'negative')`.execute(db);
        expect(sum.rows[0]!.total).toBe(ABOVE_DOUBLE - MAX_INT8);
        const bumped = await db
          .updateTable('scratch_amounts')
          .set({ atoms: sql`atoms + 1` })
          .where('label', '=', 'above_double')
          .returning('atoms')
          .executeTakeFirstOrThrow();
        expect(bumped.atoms).toBe(ABOVE_DOUBLE + 1n);
      } finally {
        await db.schema.dropTable('scratch_amounts').ifExists().execute();
      }
    });

    it('reads ids, flags and times of the tables as bigint', async () => {
      const { id } = await insertUser('store_bigint_1');
      expect(typeof id).toBe('bigint');
      const user = await handle.db
        .selectFrom('users')
        .select(['id', 'created_at', 'level', 'withdraw_blocked_until'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(user).toEqual({ id, created_at: 1_795_000_000_000n, level: 1n, withdraw_blocked_until: 0n });
      expect([typeof user.id, typeof user.created_at, typeof user.level]).toEqual([
        'bigint',
        'bigint',
        'bigint',
      ]);
      const counted = await handle.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(typeof counted.n).toBe('bigint');
    });

    it('recognises a real unique violation by its driver code, and nothing else', async () => {
      await insertUser('store_unique_1');
      const duplicate = await insertUser('STORE_UNIQUE_1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(duplicate).toBeInstanceOf(Error);
      expect((duplicate as { code?: string }).code).toBe(
        name === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE',
      );
      expect(isUniqueViolation(duplicate)).toBe(true);

      // a NOT NULL violation is an integrity error, but not a unique one
      const notNull = await handle.db
        .insertInto('users')
        .values({
          username: 'store_unique_2',
          username_key: 'store_unique_2',
          password_hash: null as unknown as string,
          invite_code: 'ICSTOREU2',
          reg_ip: '',
          created_at: 1n,
        })
        .execute()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(notNull).toBeInstanceOf(Error);
      expect(isUniqueViolation(notNull)).toBe(false);
      // a foreign key violation neither
      const foreign = await handle.db
        .insertInto('sessions')
        .values({
          user_id: 987_654_321n,
          token_hash: 'h',
          device: '',
          ip: '',
          created_at: 1n,
          last_used_at: 1n,
        })
        .execute()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(foreign).toBeInstanceOf(Error);
      expect(isUniqueViolation(foreign)).toBe(false);
      // the message alone decides nothing
      expect(isUniqueViolation(new Error('UNIQUE constraint failed: users.username_key'))).toBe(false);
      expect(
        isUniqueViolation(
          new Error('duplicate key value violates unique constraint "users_username_key_key"'),
        ),
      ).toBe(false);
      expect(isUniqueViolation(null)).toBe(false);
      expect(isUniqueViolation(undefined)).toBe(false);
    });

    it.runIf(name === 'postgres')('makes the ids and the references to them int8', async () => {
      const { rows } = await sql<{ table_name: string; column_name: string; udt_name: string }>`
        select table_name, column_name, udt_name from information_schema.columns
        where table_schema = current_schema()
          and table_name in ('users', 'sessions', 'login_logs', 'withdraw_addresses')
          and (column_name = 'id' or column_name in ('user_id', 'referrer_id'))
        order by table_name, column_name`.execute(handle.db);
      expect(rows.map((row) => `${row.table_name}.${row.column_name} ${row.udt_name}`)).toEqual([
        'login_logs.id int8',
        'login_logs.user_id int8',
        'sessions.id int8',
        'sessions.user_id int8',
        'users.id int8',
        'users.referrer_id int8',
        'withdraw_addresses.id int8',
        'withdraw_addresses.user_id int8',
      ]);
      const { rows: sequences } = await sql<{ sequence_name: string; data_type: string }>`
        select sequence_name, data_type from information_schema.sequences
        where sequence_schema = current_schema()
          and sequence_name in ('users_id_seq', 'sessions_id_seq', 'login_logs_id_seq', 'withdraw_addresses_id_seq')
        order by sequence_name`.execute(handle.db);
      expect(sequences).toEqual([
        { sequence_name: 'login_logs_id_seq', data_type: 'bigint' },
        { sequence_name: 'sessions_id_seq', data_type: 'bigint' },
        { sequence_name: 'users_id_seq', data_type: 'bigint' },
        { sequence_name: 'withdraw_addresses_id_seq', data_type: 'bigint' },
      ]);
    });

    it.runIf(name === 'postgres')('outlives a PostgreSQL backend that goes away while idle', async () => {
      await sql`select 1`.execute(handle.db);
      const terminated = await terminatePostgresBackends(databaseUrl as string);
      expect(terminated).toBeGreaterThan(0);
      // why: the pool's idle clients see the termination asynchronously; give it a moment to arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await sql<{ one: bigint }>`select 1 as one`.execute(handle.db);
      expect(rows).toEqual([{ one: 1n }]);
    });

    it.runIf(name === 'postgres')(
      'outlives a backend that goes away inside a transaction: the transaction fails, the process stays',
      async () => {
        const outcome = handle.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          // why: the connection is checked out and between statements, as a batch's is while the
          // engine runs; a restart ends it there.
          expect(await terminatePostgresBackends(databaseUrl as string)).toBeGreaterThan(0);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`select 1`.execute(trx);
        });
        await expect(outcome).rejects.toThrow();
        const { rows } = await sql<{ one: bigint }>`select 1 as one`.execute(handle.db);
        expect(rows).toEqual([{ one: 1n }]);
      },
    );

    it.runIf(name === 'sqlite')(
      'holds the write lock from the start of a transaction (BEGIN IMMEDIATE)',
      async () => {
        const other = new SQLite(path.join(dataDir, 'bourse.sqlite'), { timeout: 0 });
        try {
          other.pragma('busy_timeout = 0');
          const tryBeginImmediate = (): string => {
            try {
              other.exec('begin immediate');
              other.exec('rollback');
              return 'began';
            } catch (error) {
              return (error as { code?: string }).code ?? String(error);
            }
          };
          expect(tryBeginImmediate()).toBe('began');

          let seenInside: string | undefined;
          await handle.db.transaction().execute(async (trx) => {
            // only a read so far: a deferred BEGIN would hold no write lock yet
            await trx.selectFrom('users').select('id').limit(1).execute();
            seenInside = tryBeginImmediate();
          });
          expect(seenInside).toBe('SQLITE_BUSY');
          expect(tryBeginImmediate()).toBe('began');

          // a transaction that rolls back releases the lock as well
          await handle.db
            .transaction()
            .execute(async () => {
              seenInside = tryBeginImmediate();
              throw new Error('roll back');
            })
            .catch(() => {});
          expect(seenInside).toBe('SQLITE_BUSY');
          expect(tryBeginImmediate()).toBe('began');
        } finally {
          other.close();
        }
      },
    );
  });
});
