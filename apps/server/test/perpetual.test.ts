import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

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
  async function markAt(price: string) {
    await indexTick(server, 'BTCUSDT', price);
    await perp().pricing.tick('BTCUSDT');
  }

  beforeAll(async () => {
    if (skip) return;
    server = await startServer(dialect, { env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' } });
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
});
