import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, killHard, spawnServer } from './child-server.ts';
import { newTrader } from './delivery-harness.ts';
import { startServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const DAY_MS = 86_400_000;
const ORDERS = 80;
const DAYS = 240;
const STAFF = { staffId: 1n, actor: 'staff:1', ip: '127.0.0.1' };

/** Counts rows in the store a killed (or running) server left, read-only. */
function count(dataDir: string, query: string): number {
  const db = new SQLite(path.join(dataDir, 'bourse.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare(query).get() as { n: number | bigint }).n);
  } finally {
    db.close();
  }
}

describe('the mining midnight job after the server process is killed in the middle of it', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-mining-kill-'));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(children.map(killHard));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('accrues each order-day exactly once after it starts again', async () => {
    // 80 machines bought, their 240 days long past: the first run has 240 days × 80 orders to pay.
    const setup = await startServer('sqlite', {
      env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' },
      reuse: { dataDir },
    });
    const mining = setup.app.ctx.mining!;
    const id = await mining.createProduct(STAFF, {
      name: 'Kill test',
      type: 'sole',
      feeHashrate: 100n * 100_000_000n,
      feeElectricityDay: 0n,
      feeManagement: 0n,
      coin: 'BNB',
      incomeType: 'constant',
      dailyQ: 1_000_000n,
      dailyValue: 0n,
      days: DAYS,
      capacity: ORDERS,
      minShareBp: 10_000,
      stepBp: 10_000,
      holdCoin: 'USDT',
      minHold: 0n,
      minReferrals: 0,
      maxOrders: 1,
      releaseDelayDays: 1,
    });
    await mining.setStatus(STAFF, id, 'normal');
    await mining.fundPool(STAFF, 'BNB', 1000n * 100_000_000n, 'kill-test');
    for (let i = 0; i < ORDERS; i++) {
      const trader = await newTrader(setup);
      const bought = await setup.call(
        'POST',
        '/Orepool/buy',
        { id: String(id), idempotency_key: randomUUID() },
        { token: trader.token },
      );
      expect(bought.code).toBe(1000);
    }
    // why: the orders' days are moved into the past so the real clock of the processes below has
    // every one of them to pay at once (the test cannot wait for real midnights).
    const today = Date.now() - (Date.now() % DAY_MS);
    const start = today - (DAYS + 5) * DAY_MS;
    await setup.app.ctx.store.db
      .updateTable('mining_orders')
      .set({ start_at: BigInt(start), expire_at: BigInt(start + DAYS * DAY_MS) })
      .execute();
    await setup.close({ keepStore: true });

    const port = await freePort();
    // SIGKILL once the job is part-way through (some days recorded, not all), which may be before
    // the process reports ready: it is watched from the moment it is spawned.
    let first: ChildProcess | undefined;
    const starting = spawnServer(dataDir, port, { MINING_JOB_SECONDS: '1' }, (child) => {
      first = child;
      children.push(child);
    }).catch(() => undefined);
    const deadline = Date.now() + 30_000;
    while (count(dataDir, "select count(*) as n from mining_days where coin = 'BNB'") < 3) {
      if (Date.now() > deadline) throw new Error('the job did not start');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await killHard(first as ChildProcess);
    await starting;
    const daysBefore = count(dataDir, "select count(*) as n from mining_days where coin = 'BNB'");
    expect(daysBefore).toBeLessThan(DAYS + 5);
    // what was committed is whole: every recorded day has all 40 revenues, no day has a part
    expect(count(dataDir, 'select count(*) as n from mining_revenues')).toBe(
      count(
        dataDir,
        "select count(*) as n from mining_days where coin = 'BNB' and status = 'paid' and needed > 0",
      ) * ORDERS,
    );

    const second = await spawnServer(dataDir, port, { MINING_JOB_SECONDS: '1' });
    children.push(second);
    const until = Date.now() + 120_000;
    while (
      count(dataDir, 'select count(*) as n from mining_revenues') < ORDERS * DAYS &&
      Date.now() < until
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await killHard(second);

    expect(count(dataDir, 'select count(*) as n from mining_revenues')).toBe(ORDERS * DAYS);
    expect(
      count(
        dataDir,
        'select count(*) as n from (select order_id, day from mining_revenues group by order_id, day having count(*) > 1)',
      ),
    ).toBe(0);
    expect(count(dataDir, "select count(*) as n from journal_entries where type = 'mining.output'")).toBe(
      ORDERS * DAYS,
    );
    const check = await startServer('sqlite', { env: { DEMO: 'on' }, reuse: { dataDir } });
    try {
      await expectLedgerInvariants(check);
      const pool = await check.app.ctx.ledger.balance(
        check.app.ctx.store.db,
        { system: 'mining_pool:BNB' },
        'BNB',
        'available',
      );
      expect(pool).toBe(1000n * 100_000_000n - BigInt(ORDERS * DAYS) * 1_000_000n);
    } finally {
      await check.close({ keepStore: true });
    }
  }, 300_000);
});
