import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killHard } from './child-server.ts';
import { startServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const KILLS = 10;
const DRIVER = path.join(import.meta.dirname, 'perp-crash-driver.ts');

/** Starts the driver on `dataDir`; resolves once it has begun its rounds. */
function startDriver(dataDir: string): Promise<{ child: ChildProcess; rounds: () => number }> {
  const child = spawn(process.execPath, [DRIVER, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let rounds = 0;
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') resolve({ child, rounds: () => rounds });
        if (line.startsWith('round ')) rounds += 1;
      }
    });
    child.once('exit', (code) => reject(new Error(`driver exited with ${code} before it was ready`)));
  });
}

/**
 * SIGKILL during liquidations and funding events (perpetual.md: every event is one batch, one
 * transaction): a driver process opens 5x longs, pays funding and liquidates them round after
 * round; it is killed at a random moment ten times. After each kill the store, opened again, has
 * every liquidation once (one record per position), every funding event whole (one per market and
 * time, with exactly its payments), the ledger's invariants (holds and margins equal orders and
 * positions) and the five invariants of §5.
 */
describe('perpetual liquidations and funding when the process is killed', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-perp-kill-'));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(children.map(killHard));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps each liquidation and funding event exactly once and every invariant', async () => {
    let liquidations = 0;
    let fundings = 0;
    for (let round = 0; round < KILLS; round += 1) {
      const { child } = await startDriver(dataDir);
      children.push(child);
      // why: rounds take tens of milliseconds, so a kill lands inside one: mid-liquidation,
      // mid-funding or mid-order, wherever it falls.
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1200));
      await killHard(child);

      const check = await startServer('sqlite', { env: { DEMO: 'on' }, reuse: { dataDir } });
      try {
        const db = check.app.ctx.store.db;
        const records = await db
          .selectFrom('perp_liquidations')
          .select(['symbol', 'lot_no'])
          .where('kind', '=', 'liquidation')
          .execute();
        expect(new Set(records.map((r) => `${r.symbol}:${r.lot_no}`)).size).toBe(records.length);
        const events = await db.selectFrom('perp_fundings').selectAll().execute();
        const payments = await db.selectFrom('perp_funding_payments').selectAll().execute();
        for (const event of events) {
          const mine = payments.filter((p) => p.symbol === event.symbol && p.funding_at === event.funding_at);
          expect(BigInt(mine.length)).toBe(event.positions);
          expect(mine.filter((p) => p.amount < 0n).reduce((sum, p) => sum - p.amount, 0n)).toBe(event.paid);
          expect(mine.filter((p) => p.amount > 0n).reduce((sum, p) => sum + p.amount, 0n)).toBe(
            event.received,
          );
        }
        const health = await check.app.ctx.perpetual!.backOffice.health();
        expect(health.markets.flatMap((m) => m.invariants.filter((i) => !i.ok))).toEqual([]);
        await expectLedgerInvariants(check);
        expect(records.length).toBeGreaterThanOrEqual(liquidations);
        expect(events.length).toBeGreaterThanOrEqual(fundings);
        liquidations = records.length;
        fundings = events.length;
      } finally {
        await check.close({ keepStore: true });
      }
    }
    expect(liquidations).toBeGreaterThan(0);
    expect(fundings).toBeGreaterThan(0);
  }, 240_000);
});
