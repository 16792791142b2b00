import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERP_MAKER_USERNAME } from '../src/modules/perpetual/maker.ts';
import { indexTick, newTrader, signInOwner } from './delivery-harness.ts';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

type Trader = Awaited<ReturnType<typeof newTrader>>;

/**
 * The demo's perpetual maker and the mark clamp setting (perpetual.md §1 Mark, §4b.1), through the
 * real API on a real store: the maker's ladder stands on the index whatever the mark and the last
 * trade say, is withdrawn while the index is stale, and past its inventory cap widens the side that
 * would add instead of following; staff set a market's clamp, audited and bounded by its tiers.
 */
describe.each(DIALECTS)('perpetual maker and mark clamp on $name', ({ name: dialect, skip }) => {
  let server: TestServer;
  let makerId: bigint;

  const perp = () => server.app.ctx.perpetual!;
  const db = () => server.app.ctx.store.db;
  const place = (user: Trader, symbol: string, fields: Record<string, string>) =>
    server.call(
      'POST',
      '/Perp/place',
      { symbol, idempotency_key: randomUUID(), ...fields },
      { token: user.token, lang: 'en-us' },
    );
  const depth = async (symbol: string) => {
    const answer = await server.call('GET', '/Perp/depth', { symbol, levels: 20 });
    expect(answer.code).toBe(1000);
    return { bids: answer.data.bids as [string, string][], asks: answer.data.asks as [string, string][] };
  };
  const makerOrderIds = async (symbol: string) =>
    (
      await db()
        .selectFrom('perp_orders')
        .select('id')
        .where('user_id', '=', makerId)
        .where('symbol', '=', symbol)
        .where('state', 'in', ['new', 'partial'])
        .orderBy('id')
        .execute()
    ).map((o) => o.id);
  const makerPosition = async (symbol: string) =>
    (
      await db()
        .selectFrom('perp_positions')
        .select('qty')
        .where('user_id', '=', makerId)
        .where('symbol', '=', symbol)
        .executeTakeFirst()
    )?.qty ?? 0n;

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
    const maker = await db()
      .selectFrom('users')
      .select('id')
      .where('username', '=', PERP_MAKER_USERNAME)
      .executeTakeFirstOrThrow();
    makerId = maker.id;
  }, 120_000);

  afterAll(async () => {
    if (skip) return;
    await expectLedgerInvariants(server);
    await server.close();
  });

  it.skipIf(skip)(
    'centres its ladder on the index while the mark and the last trade stray, and requotes only when the index moves',
    async () => {
      await indexTick(server, 'BTCUSDT', '60000');
      await perp().pricing.tick('BTCUSDT');
      // why: a trade 2.5 % under the index prints `last`; then the mark is dragged 3 % under it,
      // as two accounts did through a thin book (the sequencer takes the mark it is sent).
      const a = await newTrader(server);
      const b = await newTrader(server);
      expect(
        (await place(b, 'BTCUSDT', { side: 'sell', type: 'limit', price: '58500', qty: '0.01' })).code,
      ).toBe(1000);
      expect((await place(a, 'BTCUSDT', { side: 'buy', type: 'market', qty: '0.01' })).code).toBe(1000);
      await perp().send('BTCUSDT', { kind: 'mark', mark: 582_000n, index: 6_000_000_000_000n });
      // why: at least 0.5 % under the index (in ticks of 0.1), whatever clamp the clearing may apply.
      const figures = perp().local('BTCUSDT')!.clearing.figures;
      expect(figures.mark).toBeLessThanOrEqual(597_000n);
      expect(figures.last).toBe(585_000n);

      await perp().maker.runOnce();
      expect(await depth('BTCUSDT')).toEqual({
        bids: [
          ['59970.00000000', '0.20000000'],
          ['59940.00000000', '0.20000000'],
          ['59910.00000000', '0.20000000'],
          ['59880.00000000', '0.20000000'],
          ['59850.00000000', '0.20000000'],
        ],
        asks: [
          ['60030.00000000', '0.20000000'],
          ['60060.00000000', '0.20000000'],
          ['60090.00000000', '0.20000000'],
          ['60120.00000000', '0.20000000'],
          ['60150.00000000', '0.20000000'],
        ],
      });

      // the mark moving does not move the ladder; nor does the index within 5 bps
      const quoted = await makerOrderIds('BTCUSDT');
      expect(quoted).toHaveLength(10);
      await perp().send('BTCUSDT', { kind: 'mark', mark: 590_000n, index: 6_000_000_000_000n });
      await indexTick(server, 'BTCUSDT', '60030');
      await perp().maker.runOnce();
      expect(await makerOrderIds('BTCUSDT')).toEqual(quoted);

      // the index moving past 5 bps does
      await indexTick(server, 'BTCUSDT', '60200');
      await perp().maker.runOnce();
      const moved = await depth('BTCUSDT');
      expect(moved.bids.map(([price]) => price)).toEqual([
        '60169.90000000',
        '60139.80000000',
        '60109.70000000',
        '60079.60000000',
        '60049.50000000',
      ]);
      expect(moved.asks.map(([price]) => price)).toEqual([
        '60230.10000000',
        '60260.20000000',
        '60290.30000000',
        '60320.40000000',
        '60350.50000000',
      ]);
    },
  );

  it.skipIf(skip)(
    'withdraws its quotes while the index is stale and quotes again once it is fresh',
    async () => {
      await indexTick(server, 'BTCUSDT', '60000');
      await perp().maker.runOnce();
      expect(await makerOrderIds('BTCUSDT')).toHaveLength(10);
      await server.clock.advance(server.config.indexStaleMs + 1000);
      await perp().maker.runOnce();
      expect(await makerOrderIds('BTCUSDT')).toEqual([]);
      expect(await depth('BTCUSDT')).toEqual({ bids: [], asks: [] });
      await indexTick(server, 'BTCUSDT', '60000');
      await perp().maker.runOnce();
      expect((await depth('BTCUSDT')).bids[0]).toEqual(['59970.00000000', '0.20000000']);
    },
  );

  it.skipIf(skip)(
    'past its inventory cap keeps both sides and moves the adding one away from the index, further the more it holds',
    async () => {
      // why: ETH at 100 USDT keeps a cap of 50 ETH (5 000 lots) within one customer's means.
      await indexTick(server, 'ETHUSDT', '100');
      await perp().pricing.tick('ETHUSDT');
      const seller = await newTrader(server);
      const asks = ['100.05000000', '100.10000000', '100.15000000', '100.20000000', '100.25000000'];
      const prices = (side: [string, string][]) => side.map(([price]) => price);
      /** One round: the maker quotes, the customer sells its whole bid ladder (10 ETH). */
      const sellTheBids = async () => {
        await perp().maker.runOnce();
        const sold = await place(seller, 'ETHUSDT', { side: 'sell', type: 'market', qty: '10' });
        expect(sold.data[0]).toMatchObject({ state: 'filled', filled_qty: '10.00000000' });
      };
      for (let round = 0; round < 5; round += 1) await sellTheBids();
      expect(await makerPosition('ETHUSDT')).toBe(5_000_000_000n);

      // at the cap: the ladder as usual
      await perp().maker.runOnce();
      let book = await depth('ETHUSDT');
      expect(prices(book.bids)).toEqual([
        '99.95000000',
        '99.90000000',
        '99.85000000',
        '99.80000000',
        '99.75000000',
      ]);
      expect(prices(book.asks)).toEqual(asks);

      // 10 ETH over (a fifth of the cap): the bids 1 % further from the index, the asks where they were
      await place(seller, 'ETHUSDT', { side: 'sell', type: 'market', qty: '10' });
      expect(await makerPosition('ETHUSDT')).toBe(6_000_000_000n);
      await perp().maker.runOnce();
      book = await depth('ETHUSDT');
      expect(prices(book.bids)).toEqual([
        '98.95000000',
        '98.90000000',
        '98.85000000',
        '98.80000000',
        '98.75000000',
      ]);
      expect(book.bids.every(([, qty]) => qty === '2.00000000')).toBe(true);
      expect(prices(book.asks)).toEqual(asks);

      // 20 ETH over: 2 %; selling more to the maker costs the customer more each time
      await place(seller, 'ETHUSDT', { side: 'sell', type: 'market', qty: '10' });
      expect(await makerPosition('ETHUSDT')).toBe(7_000_000_000n);
      await perp().maker.runOnce();
      book = await depth('ETHUSDT');
      expect(prices(book.bids)).toEqual([
        '97.95000000',
        '97.90000000',
        '97.85000000',
        '97.80000000',
        '97.75000000',
      ]);
      expect(prices(book.asks)).toEqual(asks);

      // buying from the maker (its asks never moved) brings it back under the cap, and its bids back
      const buyer = await newTrader(server);
      for (let round = 0; round < 3; round += 1) {
        await perp().maker.runOnce();
        const bought = await place(buyer, 'ETHUSDT', { side: 'buy', type: 'market', qty: '10' });
        expect(bought.data[0]).toMatchObject({ state: 'filled', filled_qty: '10.00000000' });
      }
      expect(await makerPosition('ETHUSDT')).toBe(4_000_000_000n);
      await perp().maker.runOnce();
      expect(prices((await depth('ETHUSDT')).bids)[0]).toBe('99.95000000');
    },
  );

  it.skipIf(skip)(
    'lets the owner set a market’s mark clamp within its tiers, audited, and shows it in the public rules',
    async () => {
      const owner = await signInOwner(server, 'boss', 'owner-pass-1');
      const publicClamp = async () =>
        (await server.call('GET', '/Perp/markets')).data.find(
          (m: { symbol: string }) => m.symbol === 'BTCUSDT',
        ).mark_clamp;
      expect(await publicClamp()).toBe('0.00500000');
      const listed = await callAdmin(server, 'GET', '/perp/markets', undefined, owner);
      expect(listed.data[0]).toMatchObject({ symbol: 'BTCUSDT', markClamp: '0.00500000' });

      const edited = await callAdmin(
        server,
        'POST',
        '/perp/markets/BTCUSDT',
        { markClamp: '0.003', reason: 'tighter mark clamp' },
        owner,
      );
      expect(edited.code).toBe(1000);
      expect(edited.data).toMatchObject({ markClamp: '0.00300000', takerFee: '0.00050000' });
      expect(await publicClamp()).toBe('0.00300000');
      // why: the owner's clearing runs on the new clamp from the batch that applied it.
      expect(perp().local('BTCUSDT')!.clearing.spec.markClamp).toBe(300_000n);
      const audit = async () =>
        server.app.ctx.audit.list(db(), { target: 'perp:BTCUSDT', action: 'perp.market.edit', limit: 10 });
      const [record] = await audit();
      expect(record).toMatchObject({
        reason: 'tighter mark clamp',
        before: { markClamp: '500000', bandRate: '5000000' },
        after: { markClamp: '300000', bandRate: '5000000' },
      });

      // above tier 1's MMR / 4 (2 % / 4 = 0.5 %), zero, or not a number: refused, nothing changes
      for (const markClamp of ['0.0051', '0', '0.00000000']) {
        const refused = await callAdmin(
          server,
          'POST',
          '/perp/markets/BTCUSDT',
          { markClamp, reason: 'loosen the clamp' },
          owner,
        );
        expect(refused).toMatchObject({
          code: 7069,
          msg: "The mark clamp must be above 0 and at most a quarter of the first tier's maintenance margin rate: 0.5% for this market.",
        });
      }
      const malformed = await callAdmin(
        server,
        'POST',
        '/perp/markets/BTCUSDT',
        { markClamp: '-0.001', reason: 'loosen the clamp' },
        owner,
      );
      expect(malformed.code).toBe(1001);
      expect(await publicClamp()).toBe('0.00300000');
      expect(await audit()).toHaveLength(1);
      // the highest clamp the tiers allow is accepted
      const widest = await callAdmin(
        server,
        'POST',
        '/perp/markets/BTCUSDT',
        { markClamp: '0.005', reason: 'back to the default' },
        owner,
      );
      expect(widest.data.markClamp).toBe('0.00500000');
    },
  );
});
