import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

/**
 * Several nodes started at the same instant on one empty PostgreSQL database: each migrates and
 * runs the demo seed, yet the schema is made once and one set of demo data exists, as one node
 * alone makes it. On SQLite the store is one node's file, so there is nothing to race.
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
if (postgres.skip) console.info('first-start: skipped, no PostgreSQL reachable (TEST_PG_URL / DATABASE_URL)');

/** Tables the first start fills; their row counts are the demo's one set. */
const SEEDED_TABLES = [
  'users',
  'coins',
  'markets',
  'spot_markets',
  'wallet_coins',
  'wallet_networks',
  'delivery_products',
  'trial_grant_plans',
  'trial_grants',
  'market_maker_settings',
  'lp_projects',
  'lp_records',
  'mining_products',
  'content_items',
  'terms_acceptances',
  'por_snapshots',
  'journal_entries',
  'postings',
  'staff',
  'settings',
] as const;

async function seededCounts(server: TestServer): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of SEEDED_TABLES) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(
      server.app.ctx.store.db,
    );
    counts[table] = Number(rows[0]?.n);
  }
  return counts;
}

describe.skipIf(postgres.skip)('first start of several nodes on one empty PostgreSQL database', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    // why: the last one drops the shared database, after the others have let go of it.
    const last = servers.pop();
    for (const server of servers) await server.close({ keepStore: true });
    await last?.close();
  });

  it('migrates and seeds once: all three become ready with one set of demo data', async () => {
    const env = { DEMO: 'on', ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1' };
    // why: one node alone on its own database is the set the three must make together.
    const alone = await startServer('postgres', { env });
    const expected = await seededCounts(alone);
    await alone.close();
    expect(expected.users).toBeGreaterThan(2);
    expect(expected.por_snapshots).toBe(1);

    const database = await createPostgresDatabase();
    // why: the nodes share the keys kept beside the store, as nodes of one platform are given them.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-test-'));
    const started = await Promise.allSettled(
      [0, 1, 2].map(() => startServer('postgres', { env, reuse: { dataDir, databaseUrl: database.url } })),
    );
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ready'))).toEqual(
      ['ready', 'ready', 'ready'],
    );
    for (const server of servers) {
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(200);
    }
    expect(await seededCounts(servers[0]!)).toEqual(expected);
    const { rows } = await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(
      servers[0]!.app.ctx.store.db,
    );
    const onePass = await sql<{ n: string }>`select count(distinct name) as n from kysely_migration`.execute(
      servers[0]!.app.ctx.store.db,
    );
    expect(Number(rows[0]?.n)).toBe(Number(onePass.rows[0]?.n));
    await expectLedgerInvariants(servers[0]);
  }, 120_000);
});
