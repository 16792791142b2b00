import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/platform/clock.ts';
import { type DbHandle, openDb } from '../src/platform/db.ts';
import { DbLeaseStore } from '../src/platform/job-leases.ts';
import { migrateToLatest } from '../src/platform/migrate.ts';
import { type JobRun, Scheduler } from '../src/platform/scheduler.ts';
import { createPostgresDatabase, DIALECTS, type DialectName } from './harness.ts';

const START = Date.UTC(2026, 10, 23, 10, 0, 0);

describe('Scheduler on a ManualClock', () => {
  it('runs a job once at its time, seeing the clock at that time', async () => {
    const clock = new ManualClock(START);
    const scheduler = new Scheduler({ clock });
    const seen: number[] = [];
    scheduler.runAt('once', START + 2500, () => void seen.push(clock.now()));
    await clock.advance(2499);
    expect(seen).toEqual([]);
    await clock.advance(1);
    expect(seen).toEqual([START + 2500]);
    await clock.advance(60_000);
    expect(seen).toEqual([START + 2500]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('runs a job every interval on multiples of the interval, awaiting each run', async () => {
    const clock = new ManualClock(START + 300);
    const scheduler = new Scheduler({ clock });
    const runs: { at: number; now: number; isNewHolder: boolean }[] = [];
    scheduler.runEvery('tick', 1000, async (run: JobRun) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      runs.push({ at: run.scheduledAt, now: clock.now(), isNewHolder: run.isNewHolder });
    });
    await clock.advance(3700);
    expect(runs).toEqual([
      { at: START + 1000, now: START + 1000, isNewHolder: true },
      { at: START + 2000, now: START + 2000, isNewHolder: false },
      { at: START + 3000, now: START + 3000, isNewHolder: false },
      { at: START + 4000, now: START + 4000, isNewHolder: false },
    ]);
    expect(clock.now()).toBe(START + 4000);
    await scheduler.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('reports a failing run and keeps the schedule', async () => {
    const clock = new ManualClock(START);
    const errors: [string, string][] = [];
    const scheduler = new Scheduler({
      clock,
      onError: (error, job) => errors.push([job, (error as Error).message]),
    });
    let n = 0;
    scheduler.runEvery('flaky', 1000, () => {
      n++;
      if (n === 2) throw new Error('second run failed');
    });
    await clock.advance(4000);
    expect(n).toBe(4);
    expect(errors).toEqual([['flaky', 'second run failed']]);
  });

  it('stops a cancelled job, refuses a second job of the same name and anything after stop', async () => {
    const clock = new ManualClock(START);
    const scheduler = new Scheduler({ clock });
    let n = 0;
    const job = scheduler.runEvery('count', 1000, () => void n++);
    expect(() => scheduler.runEvery('count', 1000, () => {})).toThrow('already scheduled');
    expect(() => scheduler.runEvery('bad', 0, () => {})).toThrow('positive');
    expect(() => scheduler.runEvery('leased', 1000, () => {}, { lease: true })).toThrow('lease store');
    await clock.advance(2000);
    job.cancel();
    await clock.advance(5000);
    expect(n).toBe(2);
    scheduler.runEvery('count', 1000, () => void n++);
    await clock.advance(1000);
    expect(n).toBe(3);
    await scheduler.stop();
    expect(() => scheduler.runAt('later', START, () => {})).toThrow('stopped');
    await clock.advance(5000);
    expect(n).toBe(3);
  });
});

/**
 * Waits until PostgreSQL has ended the connections of a database: a pool's `end` resolves before
 * its clients' sockets close, and dropping the database at that moment would kill them mid-goodbye.
 */
async function waitForBackendsToEnd(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(`/${name}`, '/postgres') });
  await admin.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await admin.end();
  }
}

/** One store and as many handles on it as nodes need (separate connections, like separate processes). */
async function openSharedStore(dialect: DialectName) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-sched-'));
  const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
  const handles: DbHandle[] = [];
  const open = () => {
    const handle = openDb({ databaseUrl: database?.url, dataDir });
    handles.push(handle);
    return handle;
  };
  await migrateToLatest(open().db);
  return {
    open,
    close: async () => {
      for (const handle of handles) await handle.close();
      if (database) await waitForBackendsToEnd(database.url);
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(DIALECTS)('leased jobs on $name', ({ name, skip }) => {
  let store: Awaited<ReturnType<typeof openSharedStore>> | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it.skipIf(skip)('two schedulers on one database run a leased job once per interval', async () => {
    store = await openSharedStore(name);
    const clock = new ManualClock(START);
    const runs: { holder: string; at: number; isNewHolder: boolean }[] = [];
    const node = (holder: string) => {
      const scheduler = new Scheduler({ clock, holder, leases: new DbLeaseStore(store!.open().db) });
      scheduler.runEvery(
        'index-feed',
        1000,
        (run) => void runs.push({ holder, at: run.scheduledAt, ...run }),
        {
          lease: true,
        },
      );
      return scheduler;
    };
    const a = node('node-a');
    const b = node('node-b');
    await clock.advance(10_000);
    expect(runs.map((r) => r.at)).toEqual(Array.from({ length: 10 }, (_, i) => START + (i + 1) * 1000));
    expect(new Set(runs.map((r) => r.holder))).toEqual(new Set(['node-a']));
    expect(runs.filter((r) => r.isNewHolder)).toHaveLength(1);

    // a graceful stop gives the lease up: node b runs from the very next interval
    await a.stop();
    runs.length = 0;
    await clock.advance(3000);
    expect(runs.map((r) => [r.holder, r.at, r.isNewHolder])).toEqual([
      ['node-b', START + 11_000, true],
      ['node-b', START + 12_000, false],
      ['node-b', START + 13_000, false],
    ]);
    await b.stop();
  });

  it.skipIf(skip)('a node that dies keeps the lease until it expires, then another takes over', async () => {
    store = await openSharedStore(name);
    const clock = new ManualClock(START);
    const runs: [string, number][] = [];
    const schedulers = ['node-a', 'node-b'].map((holder) => {
      const scheduler = new Scheduler({ clock, holder, leases: new DbLeaseStore(store!.open().db) });
      const job = scheduler.runEvery('settle', 1000, (run) => void runs.push([holder, run.scheduledAt]), {
        lease: true,
        leaseMs: 2500,
      });
      return { scheduler, job };
    });
    await clock.advance(2000);
    // node a dies: its timer stops without giving the lease up (expires at START + 2000 + 2500)
    schedulers[0]!.job.cancel();
    await clock.advance(4000);
    expect(runs).toEqual([
      ['node-a', START + 1000],
      ['node-a', START + 2000],
      ['node-b', START + 5000],
      ['node-b', START + 6000],
    ]);
    await schedulers[1]!.scheduler.stop();
  });

  it.skipIf(skip)('gives a lease to exactly one of many racing holders', async () => {
    store = await openSharedStore(name);
    const stores = Array.from({ length: 4 }, () => new DbLeaseStore(store!.open().db));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % 4]!.acquire('race', `holder-${i}`, START, 10_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = `holder-${results.indexOf(true)}`;
    // the winner renews; others still cannot take it before it expires, and can after
    expect(await stores[0]!.acquire('race', winner, START + 5000, 10_000)).toBe(true);
    expect(await stores[1]!.acquire('race', 'late', START + 14_999, 10_000)).toBe(false);
    expect(await stores[1]!.acquire('race', 'late', START + 15_000, 10_000)).toBe(true);
    await stores[2]!.release('race', winner);
    expect(await stores[3]!.acquire('race', 'third', START + 15_001, 10_000)).toBe(false);
    await stores[2]!.release('race', 'late');
    expect(await stores[3]!.acquire('race', 'third', START + 15_001, 10_000)).toBe(true);
  });
});
