import { translateServer } from '@bourse/i18n/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HALT_CACHE_MS } from '../src/modules/halt/service.ts';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { callAs, place, placed, SPOT_ENV, type Trader } from './spot-harness.ts';
import { ADDRESSES, balanceOf, fund, newUser, saveAddress, withdraw } from './wallet-harness.ts';

/**
 * A failed ledger check halts order entry, withdrawals and conversions on every node until the
 * owner clears it, after the check passes again; cancelling and reading stay open.
 */
const ENV = {
  ...SPOT_ENV,
  ADMIN_USER: 'boss',
  ADMIN_PASSWORD: 'owner-pass-1',
  LIMIT_PASSWORD_CHECKS: '1000/900',
};
const HALTED = 1050;
const CHECK_FAILED = 1051;

/** A balance nobody posted: a stand-in for corruption outside the ledger's code. Answers the repair. */
async function breakLedger(server: TestServer): Promise<() => Promise<void>> {
  const db = server.app.ctx.store.db;
  const row = await db
    .insertInto('ledger_accounts')
    .values({ owner: 'system:house', user_id: null, asset: 'DOGE', kind: 'available', balance: 5n })
    .returning('id')
    .executeTakeFirstOrThrow();
  return async () => {
    await db.deleteFrom('ledger_accounts').where('id', '=', row.id).execute();
  };
}

function readinessOf(server: TestServer) {
  const readiness = server.app.ctx.readiness;
  if (!readiness) throw new Error('readiness is not registered');
  return readiness;
}

async function readyz(server: TestServer) {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as any };
}

async function openOrders(server: TestServer, userId: bigint): Promise<number> {
  const rows = await server.app.ctx.store.db
    .selectFrom('spot_orders')
    .select('id')
    .where('user_id', '=', userId)
    .execute();
  return rows.length;
}

type Customer = Trader & { payPassword: string; addressId: string };

/** A customer with 10,000 USDT, a withdrawal password and a saved USDT address. */
async function customer(server: TestServer): Promise<Customer> {
  const user = await newUser(server);
  await fund(server, user, 'USDT', 'TRC20', '10000');
  const addressId = await saveAddress(server, user.token, {
    coin: 'USDT',
    network: 'TRC20',
    address: ADDRESSES.trx,
  });
  return { ...(user as Trader & { payPassword: string }), addressId };
}

const withdrawUsdt = (server: TestServer, user: Customer, amount: string) =>
  withdraw(server, user.token, {
    coin: 'USDT',
    address_id: user.addressId,
    amount,
    paypassword: user.payPassword,
  });

const convert = (server: TestServer, user: Trader, lang = 'en-us') =>
  server.call(
    'POST',
    '/Finance/zhuanhua',
    { from: 'USDT', to: 'BTC', amount: '10', idempotency_key: crypto.randomUUID() },
    { token: user.token, lang },
  );

describe.each(DIALECTS)('platform halt on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    let finance: string;
    beforeAll(async () => {
      server = await startServer(name, { env: ENV });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      ({ finance } = await signInStaffRoles(server, owner, ['finance']));
    }, 60_000);
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('a failed check refuses places, withdrawals and conversions until the owner clears it once the ledger is whole', async () => {
      const user = await customer(server);
      const resting = await placed(server, user, { side: 'buy', price: '40000', qty: '0.01' });
      const before = await balanceOf(server, user.token, 'USDT');
      const ordersBefore = await openOrders(server, user.userId);

      const repair = await breakLedger(server);
      expect((await readinessOf(server).checkLedger()).status).toBe('degraded');

      // why: a burst while the halt holds: every one refused, none reaches the book.
      const burst = await Promise.all(
        Array.from({ length: 30 }, () => place(server, user, { side: 'buy', price: '40000', qty: '0.01' })),
      );
      for (const answer of burst) {
        expect(answer).toMatchObject({
          code: HALTED,
          msg: translateServer('en-US', 'errors.PLATFORM_HALTED'),
        });
      }
      const japanese = await server.call(
        'POST',
        '/Trade/place',
        {
          symbol: 'BTCUSDT',
          type: 'limit',
          side: 'buy',
          price: '40000',
          qty: '0.01',
          idempotency_key: crypto.randomUUID(),
        },
        { token: user.token, lang: 'ja-jp' },
      );
      expect(japanese).toMatchObject({
        code: HALTED,
        msg: translateServer('ja-JP', 'errors.PLATFORM_HALTED'),
      });
      expect((await withdrawUsdt(server, user, '100')).code).toBe(HALTED);
      expect((await convert(server, user)).code).toBe(HALTED);
      expect(await openOrders(server, user.userId)).toBe(ordersBefore);
      expect(await balanceOf(server, user.token, 'USDT')).toEqual(before);

      // why: customers can still take their orders off the book and read.
      const cancelled = await callAs(server, user, 'POST', '/Trade/cancel', { id: resting.id });
      expect(cancelled.code).toBe(1000);
      expect(
        (await server.call('GET', '/Finance/getmoney', { coin: 'USDT' }, { token: user.token })).code,
      ).toBe(1000);

      const ready = await readyz(server);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.halt.status).toBe('degraded');
      expect(ready.body.checks.halt.detail).toMatch(
        /^halted since .+ \(ledger\): 1 problem\(s\): account system:house DOGE available: balance 5, postings 0$/,
      );
      const dashboard = await callAdmin(server, 'GET', '/dashboard', undefined, owner);
      expect(dashboard.data.halt).toMatchObject({ reason: 'ledger', haltedAt: server.clock.now() });
      expect(dashboard.data.halt.detail).toMatch(/DOGE/);
      expect(dashboard.data.health.checks.halt.status).toBe('degraded');

      // why: only the owner clears, with a reason, and only once the check passes again.
      expect((await callAdmin(server, 'POST', '/platform/resume', { reason: 'fixed' }, finance)).code).toBe(
        6002,
      );
      expect((await callAdmin(server, 'POST', '/platform/resume', { reason: '' }, owner)).code).toBe(1002);
      const stillBroken = await callAdmin(
        server,
        'POST',
        '/platform/resume',
        { reason: 'looks fine' },
        owner,
      );
      expect(stillBroken).toMatchObject({
        code: CHECK_FAILED,
        msg: translateServer('en-US', 'errors.LEDGER_CHECK_FAILED'),
      });
      expect((await place(server, user, { side: 'buy', price: '40000', qty: '0.01' })).code).toBe(HALTED);

      await repair();
      // why: a double click, or two staff at once: four clears at the same moment clear it once.
      const clears = await Promise.all(
        [1, 2, 3, 4].map(() =>
          callAdmin(server, 'POST', '/platform/resume', { reason: 'stray DOGE row removed' }, owner),
        ),
      );
      expect(clears.map((c) => c.code).sort()).toEqual([1000, 1003, 1003, 1003]);
      const cleared = clears.find((c) => c.code === 1000);
      expect(cleared).toMatchObject({ code: 1000, data: { reason: 'ledger' } });
      const audit = await server.app.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'reason'])
        .where('action', 'in', ['platform.halt', 'platform.resume'])
        .orderBy('id')
        .execute();
      expect(audit).toEqual([
        { actor: 'system', action: 'platform.halt', reason: '' },
        {
          actor: expect.stringMatching(/^staff:\d+$/),
          action: 'platform.resume',
          reason: 'stray DOGE row removed',
        },
      ]);
      const again = await callAdmin(server, 'POST', '/platform/resume', { reason: 'twice' }, owner);
      expect(again.code).toBe(1003);

      expect((await place(server, user, { side: 'buy', price: '40000', qty: '0.01' })).code).toBe(1000);
      expect((await withdrawUsdt(server, user, '100')).code).toBe(1000);
      expect((await convert(server, user)).code).toBe(1000);
      expect((await readyz(server)).body.checks.halt).toMatchObject({ status: 'ok', detail: 'not halted' });
      expect((await callAdmin(server, 'GET', '/dashboard', undefined, owner)).data).toMatchObject({
        halt: null,
        ledger: { ok: true },
      });
      await callAs(server, user, 'POST', '/Trade/cancelall');
    });
  });
});

const postgres = DIALECTS.find((d) => d.name === 'postgres')!;

describe.skipIf(postgres.skip)('platform halt across two nodes on one PostgreSQL database', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startServer('postgres', { env: ENV });
    second = await startServer('postgres', { env: ENV, reuse: first.store });
  }, 60_000);
  afterAll(async () => {
    await second?.close({ keepStore: true });
    await first?.close();
  });

  it('a halt recorded on one node refuses orders on the other within the cache time', async () => {
    const user = await customer(first);
    // why: the second node has read "running" and trusts it for up to its cache time.
    expect((await place(second, user, { side: 'buy', price: '40000', qty: '0.01' })).code).toBe(1000);
    const repair = await breakLedger(first);
    await readinessOf(first).checkLedger();
    await new Promise((resolve) => setTimeout(resolve, HALT_CACHE_MS + 100));
    expect((await place(second, user, { side: 'buy', price: '40000', qty: '0.01' })).code).toBe(HALTED);
    expect((await withdrawUsdt(second, user, '100')).code).toBe(HALTED);
    expect((await readyz(second)).body.checks.halt.status).toBe('degraded');
    await repair();
    const owner = await signInOwner(first, 'boss', 'owner-pass-1');
    expect((await callAdmin(first, 'POST', '/platform/resume', { reason: 'repaired' }, owner)).code).toBe(
      1000,
    );
    await new Promise((resolve) => setTimeout(resolve, HALT_CACHE_MS + 100));
    expect((await place(second, user, { side: 'buy', price: '40000', qty: '0.01' })).code).toBe(1000);
    await callAs(second, user, 'POST', '/Trade/cancelall');
    await expectLedgerInvariants(first);
  });
});
