import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CHECKPOINTS_AFTER, type DbHandle, openDb } from '../src/platform/db.ts';
import { migrateToLatest } from '../src/platform/migrate.ts';

/**
 * SQLite runs with synchronous=NORMAL and syncs its WAL itself, off the event loop, before a
 * write is answered; checkpoints move to a thread of their own once the store is busy.
 */
describe('SQLite durability', () => {
  let handle: DbHandle | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (): Promise<DbHandle & { durability: NonNullable<DbHandle['durability']> }> => {
    dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-durability-'));
    handle = openDb({ dataDir });
    await migrateToLatest(handle.db);
    const { durability } = handle;
    if (!durability) throw new Error('a SQLite store has its durability');
    return { ...handle, durability };
  };

  const insertKey = (db: DbHandle['db'], name: string) =>
    db.insertInto('job_leases').values({ name, holder: 'test', expires_at: 0n }).execute();

  it('answers a write only after the WAL holding it was synced, and a read without a sync', async () => {
    const { db, durability } = await open();
    const { wal } = durability;
    const mode = await sql<{ synchronous: bigint }>`pragma synchronous`.execute(db);
    // why: 1 = NORMAL: the commit itself does not sync; the connection does.
    expect(mode.rows[0]?.synchronous).toBe(1n);

    const before = wal.syncs;
    await insertKey(db, 'one');
    // the sync was counted before the write's promise resolved
    expect(wal.syncs).toBe(before + 1);

    await db.transaction().execute(async (trx) => {
      await insertKey(trx, 'two');
      await insertKey(trx, 'three');
      // nothing is synced inside the transaction …
      expect(wal.syncs).toBe(before + 1);
    });
    // … and the commit is, once
    expect(wal.syncs).toBe(before + 2);

    await db.selectFrom('job_leases').selectAll().execute();
    await db.transaction().execute((trx) => trx.selectFrom('job_leases').selectAll().execute());
    expect(wal.syncs).toBe(before + 2);
  });

  it('keeps every acknowledged write across a close and a reopen', async () => {
    const first = await open();
    for (let i = 0; i < 25; i++) await insertKey(first.db, `lease-${i}`);
    await first.close();
    handle = undefined;

    const again = await open();
    const rows = await again.db.selectFrom('job_leases').select('name').orderBy('name').execute();
    expect(rows.map((r) => r.name)).toEqual(Array.from({ length: 25 }, (_, i) => `lease-${i}`).sort());
  });

  it('moves checkpoints to their own thread once the store is busy; the thread copies the WAL into the database', async () => {
    // why: a fresh store's migrations alone make about 200 syncs; a reopened one counts from zero.
    await (await open()).close();
    const { db, durability } = await open();
    const { wal, checkpoints } = durability;
    let inserted = 0;
    while (wal.syncs < BACKGROUND_CHECKPOINTS_AFTER - 1) {
      await insertKey(db, `k${wal.syncs}`);
      inserted++;
    }
    expect(checkpoints.running).toBe(false);
    const inline = await sql<{ wal_autocheckpoint: bigint }>`pragma wal_autocheckpoint`.execute(db);
    expect(inline.rows[0]?.wal_autocheckpoint).toBe(1000n);

    await insertKey(db, 'the last inline');
    inserted++;
    expect(wal.syncs).toBe(BACKGROUND_CHECKPOINTS_AFTER);
    expect(checkpoints.running).toBe(true);
    const fallback = await sql<{ wal_autocheckpoint: bigint }>`pragma wal_autocheckpoint`.execute(db);
    expect(fallback.rows[0]?.wal_autocheckpoint).toBe(20000n);

    // why: with the writer's own threshold at 20,000 pages, only the thread copies pages into the
    // database file: it grows as the table does, while the writer only appends to the WAL.
    const dbFile = path.join(dataDir as string, 'bourse.sqlite');
    const sizeBefore = fs.statSync(dbFile).size;
    for (let i = 0; i < 200; i++) await insertKey(db, `after-${i}-${'x'.repeat(1500)}`);
    inserted += 200;
    let grown = false;
    for (let i = 0; i < 100 && !grown; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      grown = fs.statSync(dbFile).size >= sizeBefore + 200 * 1500;
    }
    expect(grown).toBe(true);

    const count = await db.selectFrom('job_leases').select(sql<bigint>`count(*)`.as('n')).executeTakeFirst();
    expect(count?.n).toBe(BigInt(inserted));
  });

  it('keeps the WAL short under steady writes: the thread makes the writer start it over', async () => {
    const { db, durability } = await open();
    while (durability.wal.syncs < BACKGROUND_CHECKPOINTS_AFTER)
      await insertKey(db, `k${durability.wal.syncs}`);
    expect(durability.checkpoints.running).toBe(true);
    // why: 3,000 writes of a page and more each, one right after another. Were the WAL never
    // started over it would hold every one of their frames, up to the writer's 20,000-page
    // fallback (82 MB when checked); the thread restarts it once it passes 4,000 frames (16 MB)
    // and what is written until its next tick, more on a loaded machine.
    const wal = path.join(dataDir as string, 'bourse.sqlite-wal');
    let largest = 0;
    for (let i = 0; i < 3000; i++) {
      await insertKey(db, `steady-${i}-${'x'.repeat(4100)}`);
      largest = Math.max(largest, fs.statSync(wal).size);
    }
    expect(largest).toBeLessThan(40 * 1024 * 1024);
    const count = await db
      .selectFrom('job_leases')
      .select(sql<bigint>`count(*)`.as('n'))
      .where('name', 'like', 'steady-%')
      .executeTakeFirst();
    expect(count?.n).toBe(3000n);
  });

  it('stops the thread when the store closes', async () => {
    const { db, durability, close } = await open();
    while (durability.wal.syncs < BACKGROUND_CHECKPOINTS_AFTER)
      await insertKey(db, `k${durability.wal.syncs}`);
    expect(durability.checkpoints.running).toBe(true);
    await close();
    handle = undefined;
    expect(durability.checkpoints.running).toBe(false);
  });
  it('undoes a failed statement alone inside a transaction, its journal kept in memory', async () => {
    const { db } = await open();
    const mode = await sql<{ temp_store: bigint }>`pragma temp_store`.execute(db);
    // why: 2 = MEMORY: statement journals and temporary tables never become files.
    expect(mode.rows[0]?.temp_store).toBe(2n);
    // why: enough rows that the statement's journal passes the 64 KB at which SQLite would spill it.
    const rows = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `${prefix}-${i}-${'x'.repeat(900)}`,
        holder: 'test',
        expires_at: 0n,
      }));
    await db.insertInto('job_leases').values(rows('first', 300)).execute();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('job_leases').values(rows('second', 300)).execute();
      // the last row repeats a key: the whole statement fails, the transaction goes on
      await expect(
        trx
          .insertInto('job_leases')
          .values([...rows('third', 300), rows('first', 1)[0]!])
          .execute(),
      ).rejects.toThrow(/UNIQUE/);
      await trx
        .updateTable('job_leases')
        .set({ holder: 'updated' })
        .where('name', 'like', 'second-%')
        .execute();
    });
    const counts = await db
      .selectFrom('job_leases')
      .select(['holder', sql<bigint>`count(*)`.as('n')])
      .groupBy('holder')
      .orderBy('holder')
      .execute();
    expect(counts).toEqual([
      { holder: 'test', n: 300n },
      { holder: 'updated', n: 300n },
    ]);
  });

  it('stops the thread in a process with nothing else to wait for', async () => {
    // why: the thread is unref'd so it never keeps a process alive; a tool that closes its store
    // as its last step once exited in the middle of the stop, its close never settled.
    dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-durability-'));
    const script = `
      import { openDb, BACKGROUND_CHECKPOINTS_AFTER } from ${JSON.stringify(path.resolve(import.meta.dirname, '../src/platform/db.ts'))};
      import { migrateToLatest } from ${JSON.stringify(path.resolve(import.meta.dirname, '../src/platform/migrate.ts'))};
      const handle = openDb({ dataDir: ${JSON.stringify(dataDir)} });
      await migrateToLatest(handle.db);
      for (let i = 0; handle.durability.wal.syncs < BACKGROUND_CHECKPOINTS_AFTER; i++) {
        await handle.db.insertInto('job_leases').values({ name: 'k' + i, holder: 'tool', expires_at: 0n }).execute();
      }
      // why: a thread that fails at its start (it once inherited this process's --input-type and
      // died every time) reports it a moment later; five of its 50 ms rounds are past by then.
      await new Promise((resolve) => setTimeout(resolve, 250));
      console.log('thread running: ' + handle.durability.checkpoints.running);
      await handle.close();
      console.log('closed');
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 60_000,
    });
    expect(stdout.trim().split('\n')).toEqual(['thread running: true', 'closed']);
  });
  it("waits for another connection's write lock without blocking the event loop", async () => {
    const { db } = await open();
    const other = new SQLite(path.join(dataDir as string, 'bourse.sqlite'));
    try {
      other.exec('begin immediate');
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      let released = false;
      setTimeout(() => {
        other.exec("insert into job_leases (name, holder, expires_at) values ('other', 'other', 0)");
        other.exec('commit');
        released = true;
      }, 200);
      // why: SQLite's own busy handler would sleep on this thread, so the timer above could never
      // release the lock and the transaction would fail with SQLITE_BUSY after the wait.
      const seen = await db.transaction().execute(async (trx) => {
        await insertKey(trx, 'after the lock');
        return trx.selectFrom('job_leases').select('name').orderBy('name').execute();
      });
      clearInterval(timer);
      expect(released).toBe(true);
      expect(ticks).toBeGreaterThanOrEqual(10);
      expect(seen.map((r) => r.name)).toEqual(['after the lock', 'other']);
    } finally {
      other.close();
    }
  });
  it("runs a burst of writes queued behind another connection's lock, each once, once it is released", async () => {
    const { db } = await open();
    const other = new SQLite(path.join(dataDir as string, 'bourse.sqlite'));
    try {
      other.exec('begin immediate');
      setTimeout(() => other.exec('commit'), 100);
      const names = Array.from({ length: 20 }, (_, i) => `burst-${String(i).padStart(2, '0')}`);
      await Promise.all([
        ...names.slice(0, 10).map((name) => db.transaction().execute((trx) => insertKey(trx, name))),
        ...names.slice(10).map((name) => insertKey(db, name)),
      ]);
      const rows = await db.selectFrom('job_leases').select('name').orderBy('name').execute();
      expect(rows.map((r) => r.name)).toEqual(names);
    } finally {
      other.close();
    }
  });
});
