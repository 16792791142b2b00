// The SQLite store's read thread (`readerOf`): what the ledger check and the reserves snapshot
// rely on. SQLite alone: on PostgreSQL `readerOf` is the pool itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDb, readerOf } from '../src/platform/db.ts';

describe("the store's read thread", () => {
  let store: DbHandle;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-read-thread-'));
    store = openDb({ dataDir });
    await sql`create table t (id integer primary key, amount integer not null)`.execute(store.db);
    await sql`insert into t (id, amount) values (1, 9007199254740993)`.execute(store.db);
  });
  afterAll(async () => {
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads on a connection of its own, as bigints, and answers errors with their code', async () => {
    const reader = readerOf(store.db);
    expect(reader).not.toBe(store.db);
    // why: 2^53 + 1 would come back rounded as a number.
    expect((await sql<{ amount: bigint }>`select amount from t`.execute(reader)).rows).toEqual([
      { amount: 9007199254740993n },
    ]);
    await expect(sql`insert into t (id, amount) values (2, 1)`.execute(reader)).rejects.toMatchObject({
      code: 'SQLITE_READONLY',
    });
    await expect(sql`select * from nowhere`.execute(reader)).rejects.toThrow(/no such table/);
  });

  it('holds one snapshot through a transaction while the writer commits', async () => {
    const reader = readerOf(store.db);
    const seen = await reader.transaction().execute(async (trx) => {
      const before = (await sql<{ n: bigint }>`select count(*) as n from t`.execute(trx)).rows[0]?.n;
      await sql`insert into t (id, amount) values (3, 5)`.execute(store.db);
      const after = (await sql<{ n: bigint }>`select count(*) as n from t`.execute(trx)).rows[0]?.n;
      return [before, after];
    });
    expect(seen).toEqual([1n, 1n]);
    expect((await sql<{ n: bigint }>`select count(*) as n from t`.execute(reader)).rows[0]?.n).toBe(2n);
  });

  it('is the transaction itself inside one', async () => {
    await store.db.transaction().execute(async (trx) => {
      expect(readerOf(trx)).toBe(trx);
    });
  });
});
