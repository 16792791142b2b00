import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { indexTick, newTrader, placeOpen } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { balanceOf } from './wallet-harness.ts';

const ENV = { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600', SESSION_IDLE_MINUTES: '100000' };

describe.each(DIALECTS)('delivery settlement across a restart on $name', ({ name, skip }) => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(skip)('settles every contract due at the crash exactly once after the restart', async () => {
    server = await startServer(name, { env: ENV });
    const user = await newTrader(server);
    await indexTick(server, 'BTCUSDT', '1000');
    const opened = server.clock.now() + 1;
    const ids: string[] = [];
    for (const [direction, amount] of [
      ['up', '100'],
      ['down', '200'],
      ['up', '300'],
      ['down', '400'],
    ] as const) {
      const answer = await placeOpen(server, user.token, { direction, amount }, '1000');
      expect(answer.code).toBe(1000);
      ids.push(answer.data.id);
    }
    // the closing tick is recorded; the server stops before its settlement job runs
    await indexTick(server, 'BTCUSDT', '1001', opened + 60_000);
    const store = server.store;
    await server.close({ keepStore: true });

    server = await startServer(name, { env: ENV, reuse: store, build: { startSettlement: true } });
    // why: the new server's clock starts where the first one did; the job runs every second on the way.
    await server.clock.advance(65_000);
    await server.clock.advance(5_000);
    const db = server.app.ctx.store.db;
    const entries = await db
      .selectFrom('journal_entries')
      .select(['ref', sql<bigint>`count(*)`.as('count')])
      .where('type', '=', 'delivery.settle')
      .groupBy('ref')
      .execute();
    expect(entries.map((e) => [e.ref, Number(e.count)]).sort()).toEqual(
      ids.map((id) => [`contract:${id}`, 1]).sort(),
    );
    const login = await server.call('POST', '/Login/loginsubmit', {
      email: user.username,
      lpwd: user.password,
    });
    const token = login.data.token as string;
    const settled = await server.call('GET', '/Contract/ctbill', { status: 'settled' }, { token });
    expect(settled.data.list.map((c: { result: string }) => c.result).sort()).toEqual([
      'loss',
      'loss',
      'win',
      'win',
    ]);
    // 10,000 − 1,000 staked + (100 + 300) × 1.80 won
    expect(await balanceOf(server, token, 'USDT')).toEqual({
      available: '9720.00000000',
      frozen: '0.00000000',
    });
    // a further run, as another node might do, changes nothing
    expect(await server.app.ctx.delivery?.service.runSettlement()).toEqual({
      opened: 0,
      settled: 0,
      closed: 0,
      expired: 0,
    });
    await expectLedgerInvariants(server);
  });
});
