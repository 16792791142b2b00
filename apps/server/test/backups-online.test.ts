// The SQLite copy a backup makes, both ways: through the process's own open connection in small
// steps (the server's scheduled backups) and through a connection of its own in one step
// (`npm run backup`), each while that connection writes, and the first step meeting an open
// write transaction. The full backup and restore, under orders, is in backups.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createBackup, readSqliteFacts, SQLITE_FILE } from '../src/modules/backups/service.ts';
import { backupInSteps, stepHandle } from '../src/modules/backups/sqlite-copy.ts';
import { type DbHandle, openDb } from '../src/platform/db.ts';
import { migrateToLatest } from '../src/platform/migrate.ts';

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-backup-online-'));
  temporary.push(dir);
  return dir;
}

/** A migrated store with a table of about 40 MB, so the copy takes many steps. */
async function storeWithRows(): Promise<{ handle: DbHandle; dataDir: string }> {
  const dataDir = tempDir();
  const handle = openDb({ dataDir });
  await migrateToLatest(handle.db);
  await sql`create table filler (id integer primary key, bytes blob not null)`.execute(handle.db);
  await handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 20; i++) {
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000)
        insert into filler (bytes) select randomblob(2000) from n`.execute(trx);
    }
  });
  return { handle, dataDir };
}

/** Inserts a row every millisecond through `handle` until stopped; answers the rows committed. */
function keepWriting(handle: DbHandle): { stop(): Promise<number> } {
  let written = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await sql`insert into filler (bytes) values (randomblob(2000))`.execute(handle.db);
      written += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return written;
    },
  };
}

/** The copy in a backup: whole, and its rows ids 1..n with no gap (a snapshot of one moment). */
function inspectCopy(dir: string): { rows: number; integrity: string } {
  const copy = new SQLite(path.join(dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true }) as string;
    const { rows, last } = copy.prepare('select count(*) as rows, max(id) as last from filler').get() as {
      rows: number;
      last: number;
    };
    expect(last).toBe(rows);
    return { rows, integrity };
  } finally {
    copy.close();
  }
}

describe('the SQLite copy of a backup', () => {
  for (const useOpenConnection of [true, false]) {
    it(`is one moment of the store while it is written, ${useOpenConnection ? "through the process's own connection, in steps" : 'through a connection of its own, in one step'}`, async () => {
      const { handle, dataDir } = await storeWithRows();
      try {
        const writer = keepWriting(handle);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const before = Number(
          (await sql<{ n: bigint }>`select count(*) as n from filler`.execute(handle.db)).rows[0]?.n,
        );
        const created = await createBackup({
          dataDir,
          backupDir: tempDir(),
          now: Date.now(),
          useOpenConnection,
        });
        const written = await writer.stop();
        expect(written).toBeGreaterThan(0);
        const { rows, integrity } = inspectCopy(created.dir);
        expect(integrity).toBe('ok');
        // why: every row committed before the backup started is in the copy.
        expect(rows).toBeGreaterThanOrEqual(before);
        expect(rows).toBeLessThanOrEqual(20_000 + written);
        const facts = await readSqliteFacts(path.join(created.dir, SQLITE_FILE));
        expect(created.manifest.schemaVersion).toBe(facts.schemaVersion);
        expect(facts.schemaVersion).not.toBe('');
      } finally {
        await handle.close();
      }
    });
  }

  it('copies every page when its first step meets a write transaction on the connection', async () => {
    const { handle, dataDir } = await storeWithRows();
    try {
      const sqlite = handle.durability?.sqlite as SQLite.Database;
      sqlite.exec('begin immediate');
      sqlite.exec('insert into filler (bytes) values (randomblob(10))');
      setTimeout(() => sqlite.exec('commit'), 30);
      const created = await createBackup({ dataDir, backupDir: tempDir(), now: Date.now() });
      const { rows, integrity } = inspectCopy(created.dir);
      expect(integrity).toBe('ok');
      expect(rows).toBe(20_001);
    } finally {
      await handle.close();
    }
  });

  it("steps the library's own backup handle, resting whenever it is told 0 pages", async () => {
    const { handle } = await storeWithRows();
    try {
      const sqlite = handle.durability?.sqlite as SQLite.Database;
      // why: without it the copy could not rest but by turning the event loop over (a core's worth).
      const probe = stepHandle(sqlite, path.join(tempDir(), 'probe.sqlite'));
      expect(probe).toBeDefined();
      probe?.close();
      const target = path.join(tempDir(), 'copy.sqlite');
      const asked: number[] = [];
      const done = await backupInSteps(sqlite, target, ({ remainingPages }) => {
        asked.push(remainingPages);
        return asked.length % 2 === 0 ? 0 : 500;
      });
      expect(done.remainingPages).toBe(0);
      // why: a rest copies nothing, so each rest is answered with the same pages remaining.
      for (let i = 1; i < asked.length - 1; i += 2) expect(asked[i + 1]).toBe(asked[i]);
      const copy = new SQLite(target, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.prepare('select count(*) as n from filler').get()).toEqual({ n: 20_000 });
      } finally {
        copy.close();
      }
    } finally {
      await handle.close();
    }
  });
});
