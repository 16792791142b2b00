import { AppError, fromAtoms, toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketMakerModule } from '../src/modules/mm/module.ts';
import { MAKER_USERNAME, type MakerSettings } from '../src/modules/mm/service.ts';
import type { SpotService } from '../src/modules/spot/service.ts';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const ENV = { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' };

/** 3 levels a side of 0.1 BTC, 20 bps between the best bid and ask, 10 bps between levels. */
const SETTINGS: MakerSettings = {
  symbol: 'BTCUSDT',
  enabled: true,
  levels: 3,
  spreadBps: 20n,
  stepBps: 10n,
  levelQty: toAtoms('0.1'),
  inventoryTarget: toAtoms('20'),
  maxInventoryDeviation: toAtoms('10'),
};

const level = (price: string, qty: string) => [fromAtoms(toAtoms(price)), fromAtoms(toAtoms(qty))];

describe.each(DIALECTS)('market maker and demo traders on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let mm: MarketMakerModule;
    let spot: SpotService;
    let makerId: bigint;

    const save = (changes: Partial<MakerSettings>) =>
      server.app.ctx.store.db
        .transaction()
        .execute((trx) => mm.service.saveMarket(trx, { ...SETTINGS, ...changes }));
    const depth = async () => {
      const { bids, asks } = await spot.depth('BTCUSDT', 20);
      return { bids, asks };
    };
    const holdings = async (userId: bigint) => {
      const rows = await server.app.ctx.ledger.userBalances(server.app.ctx.store.db, userId);
      const total = (asset: string) =>
        rows
          .filter((r) => r.asset === asset && (r.kind === 'available' || r.kind === 'frozen'))
          .reduce((sum, r) => sum + r.balance, 0n);
      return { usdt: total('USDT'), btc: total('BTC') };
    };
    const tick = async (price: string) => {
      await server.clock.advance(1000);
      await indexTick(server, 'BTCUSDT', price);
    };

    beforeAll(async () => {
      server = await startServer(name, { env: ENV });
      mm = server.app.ctx.marketMaker!;
      spot = server.app.ctx.spot!;
      makerId = (await mm.service.accountId(MAKER_USERNAME))!;
      await save({});
      // why: the demo's bots trade while a customer is there (DEMO_IDLE_MINUTES): a visitor opens the book.
      expect((await server.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).code).toBe(1000);
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('seeds the maker as an account nobody can log into, funded by a visible entry, with settings per market', async () => {
      expect(makerId).toBeTypeOf('bigint');
      const login = await server.call('POST', '/Login/loginsubmit', { email: MAKER_USERNAME, lpwd: '!' });
      expect(login.code).not.toBe(1000);
      expect(await holdings(makerId)).toEqual({ usdt: toAtoms('5000000'), btc: toAtoms('20') });
      // why: sign-up trial money is for customers; a bot account gets none.
      const kinds = await server.app.ctx.ledger.userBalances(server.app.ctx.store.db, makerId);
      expect(new Set(kinds.map((b) => b.kind))).toEqual(new Set(['available']));
      const { markets, demoTraders } = await mm.service.getSettings();
      expect(markets.map((m) => m.symbol)).toEqual([
        'BNBUSDT',
        'BTCUSDT',
        'DOGEUSDT',
        'ETHUSDT',
        'LTCUSDT',
        'SOLUSDT',
        'TRXUSDT',
        'XRPUSDT',
      ]);
      expect(markets.find((m) => m.symbol === 'BTCUSDT')).toEqual(SETTINGS);
      expect(demoTraders).toBe(true);
    });

    it('quotes nothing without an index', async () => {
      await mm.service.runOnce();
      expect(await depth()).toEqual({ bids: [], asks: [] });
    });

    it('quotes the configured levels on both sides around the index, and leaves them while it holds', async () => {
      await tick('50000');
      await mm.service.runOnce();
      expect(await depth()).toEqual({
        bids: [level('49950', '0.1'), level('49900', '0.1'), level('49850', '0.1')],
        asks: [level('50050', '0.1'), level('50100', '0.1'), level('50150', '0.1')],
      });
      const before = (await spot.openOrders(makerId, 'BTCUSDT')).map((o) => o.id).sort();
      await mm.service.runOnce();
      expect((await spot.openOrders(makerId, 'BTCUSDT')).map((o) => o.id).sort()).toEqual(before);
      // why: quote held for the bids, base for the asks; nothing traded.
      expect(await holdings(makerId)).toEqual({ usdt: toAtoms('5000000'), btc: toAtoms('20') });
    });

    it('leaves its ladder through a move under a quarter of the spread', async () => {
      const before = (await spot.openOrders(makerId, 'BTCUSDT')).map((o) => o.id).sort();
      await tick('50024.99');
      await mm.service.runOnce();
      expect((await spot.openOrders(makerId, 'BTCUSDT')).map((o) => o.id).sort()).toEqual(before);
      expect((await depth()).bids[0]).toEqual(level('49950', '0.1'));
    });

    it('re-quotes when the index moves', async () => {
      await tick('51000');
      await mm.service.runOnce();
      expect(await depth()).toEqual({
        bids: [level('50949', '0.1'), level('50898', '0.1'), level('50847', '0.1')],
        asks: [level('51051', '0.1'), level('51102', '0.1'), level('51153', '0.1')],
      });
      expect(await spot.openOrders(makerId, 'BTCUSDT')).toHaveLength(6);
    });

    it('stops bidding while its inventory is above its limit, and asking while below', async () => {
      await save({ inventoryTarget: toAtoms('5'), maxInventoryDeviation: toAtoms('1') });
      await mm.service.runOnce();
      expect(await depth()).toEqual({
        bids: [],
        asks: [level('51051', '0.1'), level('51102', '0.1'), level('51153', '0.1')],
      });
      await save({ inventoryTarget: toAtoms('40'), maxInventoryDeviation: toAtoms('1') });
      await mm.service.runOnce();
      expect(await depth()).toEqual({
        bids: [level('50949', '0.1'), level('50898', '0.1'), level('50847', '0.1')],
        asks: [],
      });
      await save({});
    });

    it('fills a customer market buy against its asks with exact balances', async () => {
      await tick('50000');
      await mm.service.runOnce();
      const customer = await newTrader(server);
      const makerBefore = await holdings(makerId);
      const customerBefore = await holdings(customer.userId);
      const answer = await server.call(
        'POST',
        '/Trade/place',
        { symbol: 'BTCUSDT', side: 'buy', type: 'market', quote_amount: '1001', idempotency_key: 'mm-buy-1' },
        { token: customer.token, lang: 'en-us' },
      );
      expect(answer.code).toBe(1000);
      // why: 1,001 USDT buys 0.02 BTC at 50,050; each side pays 0.1 % of what it receives.
      expect(await holdings(customer.userId)).toEqual({
        usdt: customerBefore.usdt - toAtoms('1001'),
        btc: customerBefore.btc + toAtoms('0.01998'),
      });
      expect(await holdings(makerId)).toEqual({
        usdt: makerBefore.usdt + toAtoms('999.999'),
        btc: makerBefore.btc - toAtoms('0.02'),
      });
      expect((await depth()).asks[0]).toEqual(level('50050', '0.08'));
      // why: a touched level is replaced by a whole ladder on the next round.
      await mm.service.runOnce();
      expect((await depth()).asks[0]).toEqual(level('50050', '0.1'));
    });

    it('demo traders print one trade per quoted market each round, and stop when switched off', async () => {
      const before = await spot.recentTrades('BTCUSDT', 100);
      await mm.demoTraders.runOnce();
      const after = await spot.recentTrades('BTCUSDT', 100);
      expect(after).toHaveLength(before.length + 1);
      const trade = after[0]!;
      expect(
        trade.side === 'buy'
          ? trade.price === fromAtoms(toAtoms('50050'))
          : trade.price === fromAtoms(toAtoms('49950')),
      ).toBe(true);
      const candles = await spot.candles({ symbol: 'BTCUSDT', interval: '1m', limit: 10 });
      expect(candles.length).toBeGreaterThan(0);

      await server.app.ctx.store.db.transaction().execute((trx) => mm.service.setDemoTraders(trx, false));
      await mm.demoTraders.runOnce();
      expect(await spot.recentTrades('BTCUSDT', 100)).toHaveLength(after.length);
      expect((await mm.service.getSettings()).demoTraders).toBe(false);
    });

    it('refuses bad settings and changes nothing', async () => {
      for (const bad of [{ levels: 0 }, { spreadBps: 0n }, { levelQty: 1n }, { symbol: 'NOPEUSDT' }]) {
        await expect(save(bad)).rejects.toThrow(AppError);
      }
      expect((await mm.service.getSettings()).markets.find((m) => m.symbol === 'BTCUSDT')).toEqual(SETTINGS);
    });

    it('pulls its quotes when the index goes stale', async () => {
      await server.clock.advance(server.config.indexStaleMs + 1);
      await mm.service.runOnce();
      expect(await depth()).toEqual({ bids: [], asks: [] });
    });

    it('quotes nothing once disabled, cancelling its open quotes', async () => {
      await tick('50000');
      await mm.service.runOnce();
      expect(await spot.openOrders(makerId, 'BTCUSDT')).toHaveLength(6);
      await save({ enabled: false });
      await mm.service.runOnce();
      expect(await spot.openOrders(makerId, 'BTCUSDT')).toEqual([]);
      expect(await depth()).toEqual({ bids: [], asks: [] });
    });

    it('prunes the bots’ orders revoked without a fill once they are 6 hours old, and nothing else', async () => {
      const db = server.app.ctx.store.db;
      const customer = await newTrader(server);
      const placed = await server.call(
        'POST',
        '/Trade/place',
        {
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'limit',
          price: '49000',
          qty: '0.01',
          idempotency_key: 'prune-order-1',
        },
        { token: customer.token },
      );
      expect(placed).toMatchObject({ code: 1000 });
      expect(
        (await server.call('POST', '/Trade/cancel', { id: placed.data.id }, { token: customer.token })).code,
      ).toBe(1000);
      const count = async (userId: bigint, status: 'revoked' | 'completed', unfilled: boolean) => {
        let query = db
          .selectFrom('spot_orders')
          .select((eb) => eb.fn.countAll<bigint>().as('n'))
          .where('user_id', '=', userId)
          .where('status', '=', status);
        query = unfilled ? query.where('filled_qty', '=', 0n) : query.where('filled_qty', '>', 0n);
        return Number((await query.executeTakeFirstOrThrow()).n);
      };
      const makerRevoked = await count(makerId, 'revoked', true);
      const makerFilled =
        (await count(makerId, 'revoked', false)) + (await count(makerId, 'completed', false));
      expect(makerRevoked).toBeGreaterThan(0);
      expect(makerFilled).toBeGreaterThan(0);

      expect((await mm.service.pruneBotOrders()).deleted).toBe(0);
      await server.clock.advance(6 * 60 * 60_000 + 1000);
      expect((await mm.service.pruneBotOrders()).deleted).toBe(makerRevoked);
      expect(await count(makerId, 'revoked', true)).toBe(0);
      expect((await count(makerId, 'revoked', false)) + (await count(makerId, 'completed', false))).toBe(
        makerFilled,
      );
      expect(await count(customer.userId, 'revoked', true)).toBe(1);
    });
  });
});

describe.each(DIALECTS)('the bots as scheduled jobs on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, { env: ENV, build: { startMarketMaker: true } });
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('quote every two feed intervals and print trades every four, on one lease each', async () => {
      const spot = server.app.ctx.spot!;
      // why: the demo's bots trade while a customer is there (DEMO_IDLE_MINUTES): a visitor opens the book.
      expect((await server.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).code).toBe(1000);
      await indexTick(server, 'BTCUSDT', '50000');
      await server.clock.advance(2 * server.config.feedIntervalMs);
      const { bids, asks } = await spot.depth('BTCUSDT', 20);
      // why: the demo defaults: 8 levels a side of 0.05 BTC, 10 bps spread, 5 bps steps.
      expect(bids[0]).toEqual(level('49975', '0.05'));
      expect(asks[0]).toEqual(level('50025', '0.05'));
      expect([bids.length, asks.length]).toEqual([8, 8]);
      await indexTick(server, 'BTCUSDT', '50000');
      await server.clock.advance(2 * server.config.feedIntervalMs);
      expect(await spot.recentTrades('BTCUSDT', 10)).toHaveLength(1);
      const leases = await server.app.ctx.store.db.selectFrom('job_leases').select('name').execute();
      // why: the demo's perpetual maker quotes on a lease of its own, at the same pace.
      expect(leases.map((l) => l.name).sort()).toEqual(['demo-traders', 'market-maker', 'perp-maker']);
    });
  });
});
