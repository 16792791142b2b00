import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKERS_SUBJECT } from '../src/modules/markets/module.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';

interface Report {
  status: string;
  checks: Record<'database' | 'bus' | 'feed' | 'ledger', { status: string; detail: string; at: number }>;
}

async function readyz(server: TestServer): Promise<{ status: number; body: Report }> {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Report };
}

describe.each(DIALECTS)('/readyz on $name', ({ name, skip }) => {
  let server: TestServer;

  beforeAll(async () => {
    if (skip) return;
    server = await startServer(name);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(skip)('reports each dependency; no index tick yet is degraded, not down', async () => {
    const { status, body } = await readyz(server);
    expect(status).toBe(200);
    expect(body.status).toBe('degraded');
    expect(body.checks.database.status).toBe('ok');
    expect(body.checks.bus.status).toBe('ok');
    expect(body.checks.bus.detail).toMatch(/^round trip in \d+\.\d ms$/);
    expect(body.checks.ledger).toMatchObject({ status: 'ok', detail: 'every invariant holds' });
    expect(body.checks.feed).toMatchObject({ status: 'degraded', detail: 'no index tick yet' });
  });

  it.skipIf(skip)('is ok once the feed ticks, and degraded again when its ticks stop', async () => {
    await server.app.ctx.bus.publish(TICKERS_SUBJECT, []);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fresh = await readyz(server);
    expect(fresh.body.checks.feed.status).toBe('ok');
    expect(fresh.body.status).toBe('ok');
    await server.clock.advance(60_000);
    const stale = await readyz(server);
    expect(stale.body.checks.feed).toMatchObject({
      status: 'degraded',
      detail: 'last tick 60 s ago (limit 10 s)',
    });
    expect(stale.status).toBe(200);
  });

  it.skipIf(skip)('shows a broken ledger after the next check', async () => {
    const db = server.app.ctx.store.db;
    // why: a stand-in for corruption outside the ledger's code: a balance nobody posted.
    await db
      .insertInto('ledger_accounts')
      .values({ owner: 'system:house', user_id: null, asset: 'USDT', kind: 'available', balance: 5n })
      .execute();
    const readiness = server.app.ctx.readiness;
    if (!readiness) throw new Error('readiness is not registered');
    const check = await readiness.checkLedger();
    expect(check.status).toBe('degraded');
    // why: no scan sums every account: an account equal to its postings and balanced entries make
    // the sums zero, so the one problem is the account itself.
    expect(check.detail).toBe('1 problem(s): account system:house USDT available: balance 5, postings 0');
    expect((await readyz(server)).body.checks.ledger.status).toBe('degraded');
  });
});
