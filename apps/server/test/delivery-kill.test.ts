import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toAtoms } from '@bourse/shared';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/platform/clock.ts';
import { callApi as call, freePort, killHard as killed, spawnServer } from './child-server.ts';
import { startServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { STAFF } from './wallet-harness.ts';

const PERIOD_SECONDS = 10;

describe('delivery settlement after the server process is killed', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-kill-'));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(children.map(killed));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('settles each contract due while the server was dead exactly once after it starts again', async () => {
    // A product with a short period, set up on the store the processes will share.
    // why: the processes below run on the wall clock, so the seed does too: demo2's trial grant
    // (valid for days) dated by the suites' fixed clock expired once that date was days past.
    const setup = await startServer('sqlite', {
      env: { DEMO: 'on' },
      reuse: { dataDir },
      build: { clock: systemClock },
    });
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      await setup.app.ctx.delivery?.backOffice.saveProduct(STAFF, {
        symbol,
        status: 'open',
        maxExposure: toAtoms('100000'),
        periods: [{ seconds: PERIOD_SECONDS, ratioBps: 8000n, min: toAtoms('10'), max: toAtoms('1000') }],
      });
    }
    await setup.close({ keepStore: true });

    const port = await freePort();
    const first = await spawnServer(dataDir, port);
    children.push(first);
    // why: demo2's identity is verified by the demo seed, so it has trial money (docs/trial-money.md).
    const login = await call(port, 'POST', '/Login/loginsubmit', { email: 'demo2', lpwd: 'demo1234' });
    expect(login.code).toBe(1000);
    const token = login.data.token as string;
    const ids: string[] = [];
    for (const direction of ['up', 'down', 'up', 'down', 'up']) {
      const placed = await call(port, 'POST', '/Contract/place', {
        // why: a trial contract beside opposite real ones on one market would be refused (a hedge).
        symbol: ids.length === 4 ? 'ETHUSDT' : 'BTCUSDT',
        direction,
        period: String(PERIOD_SECONDS),
        amount: '100',
        trial: ids.length === 4 ? '1' : '0',
        idempotency_key: randomUUID(),
        token,
      });
      expect(placed.code).toBe(1000);
      ids.push(placed.data.id);
    }
    // why: a contract opens on the next index tick; the kill must find every one open and counting down.
    let open: { status: string; expires_at: number }[] = [];
    const openBy = Date.now() + 10_000;
    while (Date.now() < openBy) {
      open = (await call(port, 'GET', '/Contract/ctbill', { token })).data.list;
      if (open.length === ids.length && open.every((c) => c.status === 'open')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(open.map((c) => c.status)).toEqual(ids.map(() => 'open'));
    const dueAt = Math.max(...open.map((c) => c.expires_at));
    // why: SIGKILL, not a shutdown: no close hook runs, whatever was in flight is cut off.
    await killed(first);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now()) + 500));

    const second = await spawnServer(dataDir, port);
    children.push(second);
    const again = await call(port, 'POST', '/Login/loginsubmit', { email: 'demo2', lpwd: 'demo1234' });
    let settled: { id: string; status: string; close_at: number; expires_at: number }[] = [];
    const deadline = Date.now() + 15_000;
    while (settled.length < ids.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const list = await call(port, 'GET', '/Contract/ctbill', {
        status: 'settled',
        token: again.data.token,
      });
      settled = list.data.list;
    }
    expect(settled.map((c) => c.id).sort()).toEqual([...ids].sort());
    for (const contract of settled) {
      expect(contract.status).toBe('settled');
      expect(contract.close_at).toBeGreaterThanOrEqual(contract.expires_at);
    }
    await killed(second);

    const check = await startServer('sqlite', { env: { DEMO: 'on' }, reuse: { dataDir } });
    try {
      const entries = await check.app.ctx.store.db
        .selectFrom('journal_entries')
        .select(['ref', sql<bigint>`count(*)`.as('count')])
        .where('type', '=', 'delivery.settle')
        .groupBy('ref')
        .execute();
      expect(entries.map((e) => [e.ref, Number(e.count)]).sort()).toEqual(
        ids.map((id) => [`contract:${id}`, 1]).sort(),
      );
      await expectLedgerInvariants(check);
    } finally {
      await check.close({ keepStore: true });
    }
  }, 90_000);
});
