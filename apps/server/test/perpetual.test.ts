import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolStaff, newTrader, signInOwner } from './delivery-harness.ts';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectHistoryPaging, newestFirst } from './history-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { markAt as perpMarkAt } from './perp-harness.ts';

type Trader = Awaited<ReturnType<typeof newTrader>>;

/**
 * Perpetual contracts through the real API on a real store: the demo's BTC market, the mark
 * driven by index ticks through the pricing loop, orders, positions, liquidation and funding;
 * the ledger's invariants (margins and holds equal positions and orders) after the suite.
 */
describe.each(DIALECTS)('perpetual contracts on $name', ({ name: dialect, skip }) => {
  let server: TestServer;

  const call = (user: Trader, method: 'GET' | 'POST', path: string, fields: Record<string, string> = {}) =>
    server.call(method, path, fields, { token: user.token, lang: 'en-us' });
  const place = (user: Trader, fields: Record<string, string>) =>
    call(user, 'POST', '/Perp/place', { symbol: 'BTCUSDT', idempotency_key: randomUUID(), ...fields });
  const perp = () => server.app.ctx.perpetual!;
  /** The index at `price`, then one second of the market's pricing loop (the mark follows). */
  const markAt = (price: string) => perpMarkAt(server, 'BTCUSDT', price);

  beforeAll(async () => {
    if (skip) return;
    server = await startServer(dialect, {
      env: {
        DEMO: 'on',
        LIMIT_REGISTER_PER_IP: '1000/3600',
        ADMIN_USER: 'boss',
        ADMIN_PASSWORD: 'owner-pass-1',
      },
    });
  }, 120_000);

  afterAll(async () => {
    if (skip) return;
    await expectLedgerInvariants(server);
    await server.close();
  });

  it.skipIf(skip)('lists BTC and ETH perpetuals and publishes the mark from the index', async () => {
    const markets = await server.call('GET', '/Perp/markets');
    expect(markets.data.map((m: { symbol: string }) => m.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(markets.data[0]).toMatchObject({
      tick_size: '0.10000000',
      lot_size: '0.00100000',
      max_leverage: 5,
      maker_fee: '0.00020000',
      taker_fee: '0.00050000',
    });
    await markAt('60000');
    const ticker = await server.call('GET', '/Perp/ticker', { symbol: 'BTCUSDT' });
    expect(ticker.data).toMatchObject({ mark: '60000.00000000', index: '60000.00000000', frozen: false });
  });

  it.skipIf(skip)(
    'opens a 5x long with the figures of perpetual.md, refuses what the rules refuse, and liquidates at the bankruptcy price',
    async () => {
      const a = await newTrader(server);
      const b = await newTrader(server);
      await markAt('60000');
      expect((await place(b, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(1000);
      const opened = await place(a, { side: 'buy', type: 'market', qty: '0.1' });
      expect(opened.code).toBe(1000);
      expect(opened.data[0]).toMatchObject({
        state: 'filled',
        filled_qty: '0.10000000',
        fee: '3.00000000',
        avg_price: '60000.00000000',
      });
      const account = await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' });
      expect(account.data).toMatchObject({ leverage: 5, leverage_locked: true, available: '8797.00000000' });
      expect(account.data.position).toMatchObject({
        side: 'long',
        qty: '0.10000000',
        entry_price: '60000.00000000',
        margin: '1200.00000000',
        liquidation_price: '48979.50000000',
        bankruptcy_price: '48000.00000000',
        unrealised_pnl: '0.00000000',
      });
      expect((await call(a, 'POST', '/Perp/leverage', { symbol: 'BTCUSDT', leverage: '3' })).msg).toMatch(
        /Leverage cannot be changed/,
      );
      expect((await place(a, { side: 'buy', type: 'limit', price: '63000.1', qty: '0.1' })).code).toBe(7017);
      expect((await place(a, { side: 'buy', type: 'limit', price: '60000.05', qty: '0.1' })).code).toBe(7011);
      expect(
        (await place(b, { side: 'buy', type: 'limit', price: '59000', qty: '0.2', reduce_only: 'true' }))
          .code,
      ).toBe(7062);

      // why: the last trade (60 000) weighs in the mark for a minute; after it only the index does.
      server.clock.advance(61_000);
      await markAt('63000');
      const up = await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' });
      expect(up.data.position).toMatchObject({ unrealised_pnl: '300.00000000', roe: '0.25000000' });

      await markAt('48950');
      const after = await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' });
      expect(after.data.position).toBeNull();
      expect(after.data.available).toBe('8797.00000000');
      const records = await call(a, 'GET', '/Perp/liquidations');
      expect(records.data.list).toMatchObject([
        {
          kind: 'liquidation',
          side: 'long',
          qty: '0.10000000',
          entry_price: '60000.00000000',
          margin: '1200.00000000',
          mark: '48950.00000000',
          price: '48000.00000000',
          pnl: '-1200.00000000',
        },
      ]);
    },
  );

  it.skipIf(skip)(
    'leaves no pricing loop running after a market is taken and handed back at once',
    async () => {
      const pricing = perp().pricing;
      const sequencer = { market: { funding_interval_ms: 28_800_000n } } as unknown as Parameters<
        typeof pricing.own
      >[1];
      // why: the hand-back arrives while the take still reads the market's last funding time.
      const taking = pricing.own('LEAKUSDT', sequencer);
      await pricing.own('LEAKUSDT', undefined);
      await taking;
      expect(pricing.pricedMarkets()).not.toContain('LEAKUSDT');
      expect(pricing.pricedMarkets()).toContain('BTCUSDT');
    },
  );

  it.skipIf(skip)('pays funding once per funding time, even when asked twice', async () => {
    const a = await newTrader(server);
    const b = await newTrader(server);
    await markAt('60000');
    expect((await place(b, { side: 'sell', type: 'limit', price: '60000', qty: '0.5' })).code).toBe(1000);
    expect((await place(a, { side: 'buy', type: 'market', qty: '0.5' })).code).toBe(1000);
    const at = BigInt(Math.floor(server.clock.now() / 28_800_000) * 28_800_000 + 28_800_000);
    const mark = server.app.ctx.perpetual!.local('BTCUSDT')!.clearing.figures.mark;
    for (let i = 0; i < 2; i += 1) await perp().send('BTCUSDT', { kind: 'fund', rate: 10_000n, mark, at });
    const paid = await call(a, 'GET', '/Perp/funding');
    expect(paid.data.list).toMatchObject([
      { side: 'long', qty: '0.50000000', rate: '0.00010000', amount: '-3.00000000' },
    ]);
    const received = await call(b, 'GET', '/Perp/funding');
    expect(received.data.list).toMatchObject([{ side: 'short', amount: '3.00000000' }]);
  });

  it.skipIf(skip)(
    'holds a burst of orders against one balance: exactly as many as it covers are accepted',
    async () => {
      const a = await newTrader(server);
      await markAt('60000');
      // why: each holds 0.15 × 59 000 / 5 + the taker fee = 1 774.425 USDT; 10 000 covers five.
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          place(a, { side: 'buy', type: 'limit', price: '59000', qty: '0.15' }),
        ),
      );
      expect(answers.filter((x) => x.code === 1000)).toHaveLength(5);
      expect(answers.filter((x) => x.code === 3004)).toHaveLength(5);
      const account = await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' });
      expect(account.data.available).toBe('1127.87500000');
      for (const order of account.data.orders) {
        expect((await call(a, 'POST', '/Perp/cancel', { id: order.id })).code).toBe(1000);
      }
      expect((await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' })).data.available).toBe(
        '10000.00000000',
      );
    },
  );

  it.skipIf(skip)(
    'moves margin once per key and closes once per key, however often the same request comes',
    async () => {
      const a = await newTrader(server);
      const b = await newTrader(server);
      await markAt('60000');
      expect((await place(b, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(1000);
      expect((await place(a, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      const add = { symbol: 'BTCUSDT', direction: 'add', amount: '100', idempotency_key: randomUUID() };
      const answers = await Promise.all([1, 2, 3].map(() => call(a, 'POST', '/Perp/margin', add)));
      expect(answers.map((x) => x.code)).toEqual([1000, 1000, 1000]);
      const account = await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' });
      expect(account.data.position.margin).toBe('1300.00000000');
      expect(account.data.available).toBe('8697.00000000');
      await place(b, { side: 'buy', type: 'limit', price: '60000', qty: '0.1' });
      const close = { symbol: 'BTCUSDT', idempotency_key: randomUUID() };
      const first = await call(a, 'POST', '/Perp/close', close);
      const again = await call(a, 'POST', '/Perp/close', close);
      expect(first.code).toBe(1000);
      expect(again.data.map((o: { id: string }) => o.id)).toEqual(
        first.data.map((o: { id: string }) => o.id),
      );
      expect((await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' })).data.position).toBeNull();
    },
  );

  it.skipIf(skip)(
    'freezes the market while the index is out: no mark, no liquidation, only orders that reduce',
    async () => {
      const a = await newTrader(server);
      const b = await newTrader(server);
      await markAt('60000');
      expect((await place(b, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(1000);
      expect((await place(a, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      // why: no index tick for longer than the index may be old: the next second of pricing freezes.
      server.clock.advance(server.config.indexStaleMs + 1000);
      await perp().pricing.tick('BTCUSDT');
      const ticker = await server.call('GET', '/Perp/ticker', { symbol: 'BTCUSDT' });
      expect(ticker.data.frozen).toBe(true);
      const refused = await place(a, { side: 'buy', type: 'limit', price: '59000', qty: '0.1' });
      expect(refused).toMatchObject({ code: 7065, msg: expect.stringMatching(/only orders that reduce/) });
      const reducing = await place(a, {
        side: 'sell',
        type: 'limit',
        price: '61000',
        qty: '0.05',
        reduce_only: 'true',
      });
      expect(reducing.code).toBe(1000);
      expect(
        (await call(a, 'POST', '/Perp/margin', { symbol: 'BTCUSDT', direction: 'remove', amount: '1' })).code,
      ).toBe(7064);
      await markAt('60000');
      expect((await server.call('GET', '/Perp/ticker', { symbol: 'BTCUSDT' })).data.frozen).toBe(false);
      expect((await call(a, 'POST', '/Perp/cancel', { id: reducing.data[0].id })).code).toBe(1000);
    },
  );

  it.skipIf(skip)(
    'lets staff read markets, funds, liquidations and the invariants; only the owner changes them, audited',
    async () => {
      const owner = await signInOwner(server, 'boss', 'owner-pass-1');
      expect(
        (
          await callAdmin(
            server,
            'POST',
            '/staff',
            { username: 'finance1', password: 'initial-pass', role: 'finance' },
            owner,
          )
        ).code,
      ).toBe(1000);
      const finance = await enrolStaff(server, 'finance1', 'initial-pass', 'finance-pass-2');
      const markets = await callAdmin(server, 'GET', '/perp/markets', undefined, finance);
      expect(markets.data.map((m: { symbol: string }) => m.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
      expect(markets.data[0]).toMatchObject({
        insurance: expect.any(String),
        maxLeverage: 5,
        status: 'open',
        owner: server.config.nodeId,
      });
      const health = await callAdmin(server, 'GET', '/perp/health', undefined, finance);
      expect(health.data.markets).toHaveLength(2);
      for (const market of health.data.markets) {
        expect(market.invariants.map((i: { name: string; ok: boolean }) => [i.name, i.ok])).toEqual([
          ['fund_zero', true],
          ['settlement', true],
          ['open_interest', true],
          ['margins', true],
          ['no_negative', true],
        ]);
      }
      const liquidations = await callAdmin(
        server,
        'GET',
        '/perp/liquidations',
        { symbol: 'BTCUSDT' },
        finance,
      );
      expect(liquidations.data.items[0]).toMatchObject({
        side: 'long',
        qty: '0.10000000',
        bankruptcyPrice: '48000.00000000',
        remainder: '0.00000000',
      });
      // the first test's short still holds 0.1, and the fund's lot (long 0.1) pays its share too
      expect(
        (await callAdmin(server, 'GET', '/perp/funding', undefined, finance)).data.items[0],
      ).toMatchObject({
        rate: '0.00010000',
        paid: '3.00000000',
        received: '3.60000000',
        residual: '0.00000000',
        positions: 3,
      });

      // finance reads; only the owner changes a market or funds the insurance
      const refused = await callAdmin(
        server,
        'POST',
        '/perp/markets/BTCUSDT',
        { takerFee: '0.0006', reason: 'fees review' },
        finance,
      );
      expect(refused.code).toBe(6002);
      const before = toAtoms(markets.data[0].insurance);
      const funded = await callAdmin(
        server,
        'POST',
        '/perp/markets/BTCUSDT/insurance',
        { amount: '2500', reason: 'top up after review' },
        owner,
      );
      expect(funded.code).toBe(1000);
      expect(toAtoms(funded.data.insurance) - before).toBe(250_000_000_000n);
      const edited = await callAdmin(
        server,
        'POST',
        '/perp/markets/BTCUSDT',
        { takerFee: '0.0006', reason: 'fees review' },
        owner,
      );
      expect(edited.data).toMatchObject({ takerFee: '0.00060000' });
      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        target: 'perp:BTCUSDT',
        limit: 10,
      });
      expect(audit.map((a) => [a.action, a.reason])).toEqual([
        ['perp.market.edit', 'fees review'],
        ['perp.insurance.fund', 'top up after review'],
      ]);
      const moves = await callAdmin(server, 'GET', '/perp/insurance', { symbol: 'BTCUSDT' }, finance);
      expect(moves.data.items[0]).toMatchObject({ kind: 'topup', amount: '2500.00000000' });
      // the new fee applies to the next fill
      const a = await newTrader(server);
      const b = await newTrader(server);
      await markAt('60000');
      await place(b, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' });
      const filled = await place(a, { side: 'buy', type: 'market', qty: '0.1' });
      expect(filled.data[0]).toMatchObject({ fee: '3.60000000' });
    },
  );

  it.skipIf(skip)(
    'pages the caller’s orders, funding payments and liquidations by `before`, and shows no one else’s',
    async () => {
      const [mine, other] = [
        await newTrader(server, { usdt: false }),
        await newTrader(server, { usdt: false }),
      ];
      const db = server.app.ctx.store.db;
      const at = BigInt(server.clock.now());
      // why: ended records written straight to the store, on the market no other test here trades:
      // the lists are what is tested, and none of these rows holds money.
      const symbol = 'ETHUSDT';
      let written = 0;
      const inserted = (row: { id: bigint }) => String(row.id);
      const order = async (user: Trader, state: 'filled' | 'cancelled' | 'expired') =>
        inserted(
          await db
            .insertInto('perp_orders')
            .values({
              symbol,
              // why: below every order number the market's engine gives (from 1 up).
              order_no: -BigInt(++written),
              user_id: user.userId,
              side: 'buy',
              type: 'limit',
              price: 3_000n * 100_000_000n,
              qty: 100_000_000n,
              filled_qty: state === 'filled' ? 100_000_000n : 0n,
              filled_value: state === 'filled' ? 3_000n * 100_000_000n : 0n,
              fee: 0n,
              hold: 0n,
              leverage: 2n,
              reduce_only: 0n,
              close_position: 0n,
              post_only: 0n,
              ioc: 0n,
              trigger_kind: null,
              trigger_price: null,
              trigger_ref: null,
              trigger_condition: null,
              price_protect: 0n,
              oco: null,
              state,
              end_reason: state === 'filled' ? null : 'user',
              seq: 0n,
              idempotency_key: null,
              request_fingerprint: null,
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        );
      const payment = async (user: Trader) =>
        inserted(
          await db
            .insertInto('perp_funding_payments')
            .values({
              symbol,
              user_id: user.userId,
              funding_at: at,
              qty: 100_000_000n,
              rate: 10_000n,
              mark: 3_000n * 100_000_000n,
              amount: -30_000_000n,
              created_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        );
      const liquidation = async (user: Trader) =>
        inserted(
          await db
            .insertInto('perp_liquidations')
            .values({
              symbol,
              user_id: user.userId,
              kind: 'liquidation',
              qty: 100_000_000n,
              entry: 3_000n * 100_000_000n,
              margin: 1_500n * 100_000_000n,
              mark: 1_600n * 100_000_000n,
              price: 1_500n * 100_000_000n,
              pnl: -1_500n * 100_000_000n,
              remainder: 0n,
              lot_no: 0n,
              seq: 0n,
              created_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        );
      const orders = { mine: [] as string[], theirs: [] as string[] };
      const payments = { mine: [] as string[], theirs: [] as string[] };
      const liquidations = { mine: [] as string[], theirs: [] as string[] };
      for (let i = 0; i < 45; i++) {
        // why: the revoked tab holds several states; the caller's filled orders stay out of it.
        orders.mine.push(await order(mine, i % 2 === 0 ? 'cancelled' : 'expired'));
        if (i % 10 === 7) await order(mine, 'filled');
        payments.mine.push(await payment(mine));
        liquidations.mine.push(await liquidation(mine));
        if (i % 10 === 3) {
          orders.theirs.push(await order(other, 'cancelled'));
          payments.theirs.push(await payment(other));
          liquidations.theirs.push(await liquidation(other));
        }
      }
      const list =
        (path: string, fields: Record<string, string> = {}) =>
        (paging: Record<string, string | number>) =>
          server.call('GET', path, { ...fields, ...paging }, { token: mine.token, lang: 'en-us' });
      await expectHistoryPaging(list('/Perp/orders', { status: 'revoked' }), orders);
      await expectHistoryPaging(list('/Perp/funding'), payments);
      await expectHistoryPaging(list('/Perp/liquidations'), liquidations);
    },
  );

  it.skipIf(skip)('pages a market’s funding events by `before`, and shows no other market’s', async () => {
    const db = server.app.ctx.store.db;
    const at = BigInt(server.clock.now());
    const funding = async (symbol: string, i: number) =>
      String(
        (
          await db
            .insertInto('perp_fundings')
            .values({
              symbol,
              // why: apart from every funding time the markets' own job records (whole hours).
              funding_at: at - 1_000_000_000n + BigInt(i) * 1_001n,
              rate: 10_000n,
              mark: 3_000n * 100_000_000n,
              paid: 0n,
              received: 0n,
              residual: 0n,
              positions: 0n,
              seq: 0n,
              created_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    // why: the events the suite's own funding runs recorded are the market's too.
    const recorded = await db
      .selectFrom('perp_fundings')
      .select('id')
      .where('symbol', '=', 'ETHUSDT')
      .execute();
    const rates = { mine: recorded.map((row) => String(row.id)), theirs: [] as string[] };
    for (let i = 0; i < 45; i++) {
      rates.mine.push(await funding('ETHUSDT', i));
      if (i % 10 === 3) rates.theirs.push(await funding('BTCUSDT', i));
    }
    const list = (paging: Record<string, string | number>) =>
      server.call('GET', '/Perp/rates', { symbol: 'ETHUSDT', ...paging }, { lang: 'en-us' });
    await expectHistoryPaging(list, rates);
    // page 1, then page 2 below the last id of page 1: exactly the next 20, newest first
    const first = await list({});
    const ids = first.data.list.map((row: { id: string }) => row.id);
    const second = await list({ before: ids.at(-1) });
    expect(second.data.list.map((row: { id: string }) => row.id)).toEqual(
      newestFirst(rates.mine).slice(20, 40),
    );
    expect(first.data.list[0]).toMatchObject({
      symbol: 'ETHUSDT',
      rate: '0.00010000',
      mark: '3000.00000000',
    });
  });
});
