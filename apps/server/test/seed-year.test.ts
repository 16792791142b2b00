import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_ACCOUNT, type SeedYearReport, seedYear } from '../../../scripts/lib/seed-year.ts';
import { createPostgresDatabase, DIALECTS, startServer, type TestServer } from './harness.ts';

// A tiny year (scale 0.001: 200 customers, 2,200 orders, about 12,000 postings) seeded straight into
// the schema must read as the platform's own books do: its ledger check passes, and every
// posting's balance_after is its account's running total.
const SCALE = 0.001;

describe.each(DIALECTS)('seed:year on $name', ({ name, skip }) => {
  let server: TestServer | undefined;
  let report: SeedYearReport;

  beforeAll(async () => {
    if (skip) return;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-seed-year-'));
    const databaseUrl = name === 'postgres' ? (await createPostgresDatabase()).url : undefined;
    report = await seedYear({ scale: SCALE, dataDir, databaseUrl });
    server = await startServer(name, { reuse: { dataDir, databaseUrl } });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(skip)('passes the platform’s ledger check', async () => {
    const result = await server!.app.ctx.ledger.checkInvariants();
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.skipIf(skip)('writes every posting’s balance_after as its account’s running total', async () => {
    const { db } = server!.app.ctx.store;
    const { rows } = await sql<{ wrong: string | number | bigint }>`
      select count(*) as wrong from (
        select balance_after, sum(amount) over (partition by account_id order by id) as running
        from postings) as p
      where running <> balance_after`.execute(db);
    expect(Number(rows[0]!.wrong)).toBe(0);
    const { rows: last } = await sql<{ wrong: string | number | bigint }>`
      select count(*) as wrong from ledger_accounts a
      where a.balance <> coalesce((select p.balance_after from postings p where p.account_id = a.id
                                   order by p.id desc limit 1), 0)`.execute(db);
    expect(Number(last[0]!.wrong)).toBe(0);
  });

  it.skipIf(skip)('writes the year’s rows at the scale asked for', async () => {
    const { db } = server!.app.ctx.store;
    const count = async (table: string, where = sql`1 = 1`) => {
      const { rows } = await sql<{ n: string | number | bigint }>`
        select count(*) as n from ${sql.table(table)} where ${where}`.execute(db);
      return Number(rows[0]!.n);
    };
    const expected = {
      spot_orders: 2_200,
      spot_trades: 1_000,
      delivery_contracts: 500,
      withdrawals: 100,
      sessions: 600,
      login_logs: 600,
    };
    for (const [table, n] of Object.entries(expected)) {
      expect(report.counts[table], table).toBe(n);
      expect(await count(table), table).toBe(n);
    }
    expect(await count('spot_orders', sql`status = 'entrusted'`)).toBe(100);
    expect(await count('users', sql`username like 'year%'`)).toBe(200);
    expect(report.counts.deposits).toBeGreaterThanOrEqual(400);
    expect(report.counts.postings).toBe(
      (await count('postings', sql`entry_id >= 0`)) - (await demoPostings(db)),
    );
    expect(report.counts.active_postings).toBeGreaterThan(300);
  });

  it.skipIf(skip)('lets the active account sign in and read its bills', async () => {
    const login = await server!.call('POST', '/Login/loginsubmit', {
      email: ACTIVE_ACCOUNT.username,
      lpwd: ACTIVE_ACCOUNT.password,
    });
    expect(login.code).toBe(1000);
    const bills = await server!.call('GET', '/user/mybill', {}, { token: login.data.token });
    expect(bills.code).toBe(1000);
  });
});

/** Postings the platform's demo seed wrote before the year's (those of entries the seed did not write). */
async function demoPostings(db: TestServer['app']['ctx']['store']['db']): Promise<number> {
  const { rows } = await sql<{ n: string | number | bigint }>`
    select count(*) as n from postings p join journal_entries e on e.id = p.entry_id
    where e.type not in ('spot.batch', 'deposit.credit', 'withdrawal.freeze', 'withdrawal.complete',
                         'withdrawal.reject', 'delivery.place', 'delivery.settle')`.execute(db);
  return Number(rows[0]!.n);
}
