import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { callApi, exited, freePort, killHard, spawnServer } from './child-server.ts';
import { startServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const BURST = 60;

describe('SIGTERM under load', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-sigterm-'));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child) await killHard(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('drains what it accepted, says going away to WebSockets, exits 0, and loses no acknowledged work', async () => {
    const port = await freePort();
    child = await spawnServer(dataDir, port);
    const login = await callApi(port, 'POST', '/Login/loginsubmit', { email: 'demo', lpwd: 'demo1234' });
    expect(login.code).toBe(1000);
    const token = login.data.token as string;

    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

    // A burst of contract placements; SIGTERM arrives while they are in flight.
    const answers = Array.from({ length: BURST }, (_, i) =>
      callApi(port, 'POST', '/Contract/place', {
        symbol: 'BTCUSDT',
        direction: 'up',
        period: '60',
        amount: '10',
        idempotency_key: `sigterm-${i}-${randomUUID()}`,
        token,
      }).catch((error: Error) => ({ code: -1, msg: error.message, data: null })),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    child.kill('SIGTERM');
    const results = await Promise.all(answers);
    const exit = await exited(child);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await closed).toBe(1001);

    const acknowledged = results.filter((r) => r.code === 1000).map((r) => String(r.data.id));
    // why: the burst must have straddled the stop for the test to mean anything.
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length + results.filter((r) => r.code !== 1000).length).toBe(BURST);

    const check = await startServer('sqlite', { env: { DEMO: 'on' }, reuse: { dataDir } });
    try {
      const db = check.app.ctx.store.db;
      const stored = await db.selectFrom('delivery_contracts').select('id').execute();
      const storedIds = stored.map((row) => String(row.id));
      // every acknowledged contract was kept …
      for (const id of acknowledged) expect(storedIds).toContain(id);
      // … and nothing stored is half-written: each contract has exactly its placement entry
      const entries = await db
        .selectFrom('journal_entries')
        .select(['ref', sql<bigint>`count(*)`.as('count')])
        .where('type', '=', 'delivery.place')
        .groupBy('ref')
        .execute();
      expect(entries.map((e) => [e.ref, Number(e.count)]).sort()).toEqual(
        storedIds.map((id) => [`contract:${id}`, 1]).sort(),
      );
      await expectLedgerInvariants(check);
    } finally {
      await check.close({ keepStore: true });
    }
  }, 60_000);
});
