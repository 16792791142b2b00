import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionConflictRetries } from '../src/platform/db.ts';
import { indexTick, newTrader } from './delivery-harness.ts';
import { type ApiAnswer, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { ADDRESSES, saveAddress } from './wallet-harness.ts';

/**
 * PostgreSQL under the money paths of the same users at once (issue: "no deadlocks between money
 * paths"): conversions, spot orders, withdrawals and contracts in parallel loops, and a deadlock
 * forced through two transactions that lock in opposite orders. On SQLite there is one writer,
 * so nothing here can happen there.
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
if (postgres.skip)
  console.info('pg-conflicts: skipped, no PostgreSQL reachable (TEST_PG_URL / DATABASE_URL)');

describe.skipIf(postgres.skip)('PostgreSQL conflicts between money paths', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('postgres', {
      env: {
        DEMO: 'on',
        LIMIT_REGISTER_PER_IP: '1000/3600',
        LOG_LEVEL: process.env.PG_CONFLICTS_LOG ?? 'silent',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await expectLedgerInvariants(server);
    await server?.close();
  });

  it('runs a transaction again when PostgreSQL aborts it for a deadlock, and both commit', async () => {
    const db = server.app.ctx.store.db;
    await sql`create table conflict_probe (id int primary key, hits int not null)`.execute(db);
    await sql`insert into conflict_probe values (1, 0), (2, 0)`.execute(db);
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open, opened };
    };
    const firstHeld = gate();
    const secondHeld = gate();
    const runs = { first: 0, second: 0 };
    const retriesBefore = transactionConflictRetries();
    // why: the test hook: each transaction takes one row, waits until the other has taken the
    // other row, then asks for it: the textbook deadlock, which PostgreSQL breaks by aborting one.
    const lockBoth = (name: 'first' | 'second', mine: number, theirs: number) =>
      db.transaction().execute(async (trx) => {
        runs[name] += 1;
        await sql`update conflict_probe set hits = hits + 1 where id = ${mine}`.execute(trx);
        (name === 'first' ? firstHeld : secondHeld).open();
        await (name === 'first' ? secondHeld : firstHeld).opened;
        await sql`update conflict_probe set hits = hits + 1 where id = ${theirs}`.execute(trx);
      });
    await Promise.all([lockBoth('first', 1, 2), lockBoth('second', 2, 1)]);
    expect(transactionConflictRetries() - retriesBefore).toBe(1);
    expect(runs.first + runs.second).toBe(3);
    const { rows } = await sql<{
      id: number;
      hits: number;
    }>`select id, hits from conflict_probe order by id`.execute(db);
    // Each committed once: two updates of each row, none from the aborted attempt.
    expect(rows.map((row) => ({ id: Number(row.id), hits: Number(row.hits) }))).toEqual([
      { id: 1, hits: 2 },
      { id: 2, hits: 2 },
    ]);
    await sql`drop table conflict_probe`.execute(db);
  }, 30_000);

  it('answers no 500 and fails no batch while the same users convert, trade, withdraw and open contracts for 10 s', async () => {
    await indexTick(server, 'BTCUSDT', '50000');
    await indexTick(server, 'ETHUSDT', '3000');
    const users = [];
    for (let i = 0; i < 3; i += 1) {
      const user = await newTrader(server);
      const set = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-1234', repaypassword: 'pay-1234' },
        { token: user.token },
      );
      expect(set.code).toBe(1000);
      const addressId = await saveAddress(server, user.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      users.push({ ...user, addressId });
    }
    const answers: ApiAnswer[] = [];
    const acceptedOn = new Map<string, number>();
    const deadline = Date.now() + 10_000;
    const loop = async (step: () => Promise<ApiAnswer>) => {
      while (Date.now() < deadline) answers.push(await step());
    };
    const call = async (token: string, path: string, fields: Record<string, string | number>) => {
      const answer = await server.call(
        'POST',
        path,
        { idempotency_key: randomUUID(), ...fields },
        { token, lang: 'en-us' },
      );
      if (answer.code === 1000) acceptedOn.set(path, (acceptedOn.get(path) ?? 0) + 1);
      return { ...answer, path } as ApiAnswer;
    };
    const loops: Promise<void>[] = [];
    for (const user of users) {
      const { token } = user;
      loops.push(
        loop(() => call(token, '/Finance/zhuanhua', { from: 'USDT', to: 'ETH', amount: '5' })),
        loop(() => call(token, '/Finance/zhuanhua', { from: 'ETH', to: 'USDT', amount: '0.001' })),
        loop(() =>
          call(token, '/Trade/place', {
            symbol: 'ETHUSDT',
            side: 'buy',
            type: 'limit',
            price: '3000',
            qty: '0.01',
          }),
        ),
        loop(() =>
          call(token, '/Trade/place', {
            symbol: 'ETHUSDT',
            side: 'sell',
            type: 'limit',
            price: '3000',
            qty: '0.01',
          }),
        ),
        loop(() =>
          call(token, '/Finance/tbhandle', {
            coin: 'USDT',
            address_id: user.addressId,
            amount: '20',
            paypassword: 'pay-1234',
          }),
        ),
        loop(() =>
          call(token, '/Contract/place', { symbol: 'BTCUSDT', direction: 'up', period: 60, amount: '10' }),
        ),
      );
    }
    await Promise.all(loops);
    const failures = answers.filter((answer) => answer.status >= 500 || answer.code === 1006);
    const accepted = answers.filter((answer) => answer.code === 1000).length;
    console.info(
      `pg conflicts: ${answers.length} requests in 10 s, ${accepted} accepted, ` +
        `${failures.length} failed, ${transactionConflictRetries()} transactions run again`,
    );
    expect(failures).toEqual([]);
    // why: the loops must have run the money paths, not been refused before reaching the store.
    for (const path of ['/Finance/zhuanhua', '/Trade/place', '/Finance/tbhandle', '/Contract/place'])
      expect(acceptedOn.get(path) ?? 0, path).toBeGreaterThan(0);
  }, 60_000);
});
