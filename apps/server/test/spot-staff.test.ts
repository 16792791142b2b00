import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolStaff as enrol, newTrader, signInOwner } from './delivery-harness.ts';
import { type ApiAnswer, callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { balanceOf } from './wallet-harness.ts';

const ENV = {
  DEMO: 'on',
  ADMIN_USER: 'boss',
  ADMIN_PASSWORD: 'owner-pass-1',
  LIMIT_REGISTER_PER_IP: '1000/3600',
};

type Trader = Awaited<ReturnType<typeof newTrader>>;

function place(server: TestServer, user: Trader, fields: Record<string, string>): Promise<ApiAnswer> {
  return server.call(
    'POST',
    '/Trade/place',
    { symbol: 'BTCUSDT', type: 'limit', idempotency_key: randomUUID(), ...fields },
    { token: user.token, lang: 'en-us' },
  );
}

async function order(server: TestServer, user: Trader, id: string) {
  const answer = await server.call('GET', '/Trade/billinfo', { id }, { token: user.token, lang: 'en-us' });
  expect(answer.code).toBe(1000);
  return answer.data;
}

async function balances(server: TestServer, user: Trader) {
  return {
    usdt: await balanceOf(server, user.token, 'USDT'),
    btc: await balanceOf(server, user.token, 'BTC'),
  };
}

const BTC_SETTINGS = {
  tickSize: '0.01',
  lotSize: '0.00001',
  minNotional: '5',
  makerFee: '0.001',
  takerFee: '0.001',
  band: '0.1',
};

describe.each(DIALECTS)('spot back office on $name', ({ name, skip }) => {
  describe.skipIf(skip)('markets, halts, books and user orders', () => {
    let server: TestServer;
    let owner = '';
    let finance = '';
    let compliance = '';
    let support = '';

    const admin = (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, token = owner) =>
      callAdmin(server, method, path, body, token);
    const auditOf = (action: string) =>
      server.app.ctx.audit.list(server.app.ctx.store.db, { action, limit: 200 });
    const market = async (symbol: string) =>
      (await admin('GET', '/spot/markets')).data.find((m: { symbol: string }) => m.symbol === symbol);

    beforeAll(async () => {
      server = await startServer(name, { env: ENV });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      const tokens: Record<string, string> = {};
      for (const role of ['finance', 'compliance', 'support']) {
        const created = await admin('POST', '/staff', {
          username: `${role}1`,
          password: 'initial-pass',
          role,
        });
        expect(created.code).toBe(1000);
        tokens[role] = await enrol(server, `${role}1`, 'initial-pass', `${role}-pass-2`);
      }
      ({ finance, compliance, support } = tokens as Record<'finance' | 'compliance' | 'support', string>);
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('lists the markets with settings in decimals; finance and compliance read, only the owner changes', async () => {
      const answer = await admin('GET', '/spot/markets');
      expect(answer.code).toBe(1000);
      expect(answer.data).toHaveLength(8);
      expect(await market('BTCUSDT')).toEqual({
        symbol: 'BTCUSDT',
        base: 'BTC',
        quote: 'USDT',
        tickSize: '0.01',
        lotSize: '0.00001',
        minNotional: '5.00000000',
        makerFee: '0.001',
        takerFee: '0.001',
        band: '0.1',
        priceDecimals: 2,
        qtyDecimals: 5,
        status: 'open',
        openOrders: 0,
        updatedAt: expect.any(Number),
        // why: one node alone takes every market at start, at the first epoch of a fresh store.
        owner: server.config.nodeId,
        epoch: '1',
      });
      for (const token of [finance, compliance]) {
        expect((await admin('GET', '/spot/markets', undefined, token)).code).toBe(1000);
        expect((await admin('GET', '/spot/orders', { userId: '1' }, token)).code).toBe(1000);
        const halt = await admin('POST', '/spot/markets/BTCUSDT/halt', { reason: 'no' }, token);
        expect(halt).toMatchObject({ code: 6002 });
        const edit = await admin('POST', '/spot/markets/BTCUSDT', BTC_SETTINGS, token);
        expect(edit).toMatchObject({ code: 6002 });
      }
      expect((await admin('GET', '/spot/markets', undefined, support)).code).toBe(6002);
      expect((await admin('GET', '/spot/markets/BTCUSDT/book', undefined, support)).code).toBe(6002);
      expect(
        (await admin('POST', '/spot/markets', { symbol: 'ADAUSDT', ...BTC_SETTINGS }, support)).code,
      ).toBe(6002);
      expect((await market('BTCUSDT')).status).toBe('open');
      expect(await auditOf('spot.market.halt')).toEqual([]);
    });

    it('creates a market for a listed market, audited, and refuses duplicates, unlisted symbols and inexact steps', async () => {
      await server.app.ctx.store.db.transaction().execute((trx) =>
        server.app.ctx.markets!.addListings(trx, {
          coins: [{ symbol: 'ADA', name: 'Cardano', displayDecimals: 8 }],
          markets: [{ symbol: 'ADAUSDT', base: 'ADA', quote: 'USDT', priceDecimals: 4 }],
        }),
      );
      const settings = {
        tickSize: '0.0001',
        lotSize: '0.1',
        minNotional: '5',
        makerFee: '0.0008',
        takerFee: '0.002',
        band: '0.15',
      };
      const created = await admin('POST', '/spot/markets', { symbol: 'adausdt', ...settings });
      expect(created).toMatchObject({ code: 1000 });
      const expected = {
        symbol: 'ADAUSDT',
        base: 'ADA',
        quote: 'USDT',
        tickSize: '0.0001',
        lotSize: '0.1',
        minNotional: '5.00000000',
        makerFee: '0.0008',
        takerFee: '0.002',
        band: '0.15',
        priceDecimals: 4,
        qtyDecimals: 1,
        status: 'open',
      };
      // why: nobody owns a new market before its first request reaches it.
      expect(created.data).toEqual({
        ...expected,
        openOrders: 0,
        updatedAt: expect.any(Number),
        owner: null,
        epoch: '0',
      });
      const [record] = await auditOf('spot.market.create');
      expect(record).toMatchObject({ actor: expect.stringMatching(/^staff:\d+$/), target: 'spot:ADAUSDT' });
      expect(record?.before).toBeNull();
      expect(record?.after).toEqual(expected);

      const spot = await server.call('GET', '/Market/spot');
      expect(spot.data.find((m: { symbol: string }) => m.symbol === 'ADAUSDT')).toMatchObject({
        tick_size: '0.0001',
        maker_fee: '0.0008',
        status: 'open',
      });

      const again = await admin('POST', '/spot/markets', { symbol: 'ADAUSDT', ...settings });
      expect(again).toMatchObject({ code: 7018, msg: 'This spot market already exists.' });
      const unlisted = await admin('POST', '/spot/markets', { symbol: 'ZZZUSDT', ...settings });
      expect(unlisted).toMatchObject({ code: 7001 });
      const inexact = await admin('POST', '/spot/markets', {
        symbol: 'ZZZUSDT',
        ...settings,
        tickSize: '0.00000001',
        lotSize: '0.00000001',
      });
      expect(inexact.code).toBe(1001);
      for (const bad of [{ makerFee: '0.5' }, { band: '0' }, { tickSize: '0' }, { takerFee: '0.00001' }]) {
        expect((await admin('POST', '/spot/markets', { symbol: 'ZZZUSDT', ...settings, ...bad })).code).toBe(
          1001,
        );
      }
      expect(
        (await admin('POST', '/spot/markets', { symbol: 'ZZZUSDT', ...settings, minNotional: '-1' })).code,
      ).toBe(6007);
      expect(await auditOf('spot.market.create')).toHaveLength(1);
      expect((await admin('GET', '/spot/markets')).data).toHaveLength(9);
    });

    it('edits fees at once but refuses new steps while orders are open, explaining why', async () => {
      const trader = await newTrader(server);
      const resting = await place(server, trader, { side: 'buy', price: '40000', qty: '0.01' });
      expect(resting.code).toBe(1000);
      expect((await market('BTCUSDT')).openOrders).toBe(1);

      const steps = await admin('POST', '/spot/markets/BTCUSDT', { ...BTC_SETTINGS, tickSize: '0.1' });
      expect(steps).toMatchObject({
        code: 7019,
        msg: 'Tick and lot size cannot change while the market has open orders: they rest on the current price and quantity steps. Halt the market first (halting revokes its open orders), then change them.',
      });
      expect((await market('BTCUSDT')).tickSize).toBe('0.01');
      expect(await auditOf('spot.market.edit')).toEqual([]);

      const fees = await admin('POST', '/spot/markets/btcusdt', { ...BTC_SETTINGS, takerFee: '0.002' });
      expect(fees).toMatchObject({
        code: 1000,
        data: { takerFee: '0.002', tickSize: '0.01', openOrders: 1 },
      });
      const [record] = await auditOf('spot.market.edit');
      expect(record).toMatchObject({ target: 'spot:BTCUSDT' });
      expect(record?.before).toMatchObject({ takerFee: '0.001', tickSize: '0.01', status: 'open' });
      expect(record?.after).toMatchObject({ takerFee: '0.002', tickSize: '0.01', status: 'open' });
      // the next taker pays the new ratio
      const taker = await newTrader(server);
      const took = await place(server, taker, { side: 'sell', price: '40000', qty: '0.01' });
      expect(took.data).toMatchObject({ status: 'completed', fee_ratio: '0.002', fee: '0.80000000' });

      const unknown = await admin('POST', '/spot/markets/NOPEUSDT', BTC_SETTINGS);
      expect(unknown.code).toBe(7001);
      const back = await admin('POST', '/spot/markets/BTCUSDT', BTC_SETTINGS);
      expect(back.code).toBe(1000);
    });

    it('halts: revokes every open order with reason halt, returns the holds exactly, refuses customers; resume opens again', async () => {
      const buyer = await newTrader(server);
      const seller = await newTrader(server);
      const before = { buyer: await balances(server, buyer), seller: await balances(server, seller) };
      const buys = await Promise.all(
        ['41000', '41001', '41002'].map((price) => place(server, buyer, { side: 'buy', price, qty: '0.01' })),
      );
      const sell = await place(server, seller, { side: 'sell', price: '60000', qty: '0.2' });
      expect([...buys, sell].map((a) => a.code)).toEqual([1000, 1000, 1000, 1000]);
      expect((await balances(server, buyer)).usdt.frozen).toBe('1230.03000000');
      expect((await balances(server, seller)).btc.frozen).toBe('0.20000000');
      expect((await market('BTCUSDT')).openOrders).toBe(4);

      const halted = await admin('POST', '/spot/markets/BTCUSDT/halt', { reason: 'exchange maintenance' });
      expect(halted).toMatchObject({ code: 1000, data: { revoked: 4 } });
      for (const [user, answer] of [...buys.map((b) => [buyer, b] as const), [seller, sell] as const]) {
        expect(await order(server, user, answer.data.id)).toMatchObject({
          status: 'revoked',
          revoke_reason: 'halt',
          filled_qty: '0.00000000',
        });
      }
      expect(await balances(server, buyer)).toEqual(before.buyer);
      expect(await balances(server, seller)).toEqual(before.seller);
      const depth = await server.call('GET', '/Market/depth', { symbol: 'BTCUSDT' });
      expect(depth.data).toMatchObject({ bids: [], asks: [] });
      expect(await market('BTCUSDT')).toMatchObject({ status: 'halted', openOrders: 0 });

      const refused = await place(server, buyer, { side: 'buy', price: '41000', qty: '0.01' });
      expect(refused).toMatchObject({ code: 7001, msg: 'This market is not open.' });
      const [record] = await auditOf('spot.market.halt');
      expect(record).toMatchObject({ target: 'spot:BTCUSDT', reason: 'exchange maintenance' });
      expect(record?.before).toMatchObject({ status: 'open' });
      expect(record?.after).toMatchObject({ status: 'halted', tickSize: '0.01' });

      // with no open order the steps may change; the book takes the new grid
      const steps = await admin('POST', '/spot/markets/BTCUSDT', { ...BTC_SETTINGS, tickSize: '0.1' });
      expect(steps).toMatchObject({
        code: 1000,
        data: { tickSize: '0.1', priceDecimals: 1, status: 'halted' },
      });

      const resumed = await admin('POST', '/spot/markets/BTCUSDT/resume', { reason: 'maintenance done' });
      expect(resumed).toMatchObject({ code: 1000, data: { status: 'open', tickSize: '0.1' } });
      const [resume] = await auditOf('spot.market.resume');
      expect(resume).toMatchObject({ target: 'spot:BTCUSDT', reason: 'maintenance done' });
      expect(resume?.after).toMatchObject({ status: 'open' });
      const offGrid = await place(server, buyer, { side: 'buy', price: '41000.05', qty: '0.01' });
      expect(offGrid.code).toBe(7011);
      const onGrid = await place(server, buyer, { side: 'buy', price: '41000.1', qty: '0.01' });
      expect(onGrid).toMatchObject({ code: 1000, data: { status: 'entrusted', price: '41000.10000000' } });
      const book = await admin('GET', '/spot/markets/BTCUSDT/book', { limit: '5' }, finance);
      expect(book.data).toMatchObject({
        symbol: 'BTCUSDT',
        bids: [['41000.10000000', '0.01000000']],
        asks: [],
      });
      await server.call('POST', '/Trade/cancelall', {}, { token: buyer.token });
      expect((await admin('POST', '/spot/markets/BTCUSDT', BTC_SETTINGS)).code).toBe(1000);
    });

    it('a halt racing a burst of orders leaves none open and every hold returned', async () => {
      const traders = await Promise.all(Array.from({ length: 4 }, () => newTrader(server)));
      const before = await Promise.all(traders.map((t) => balances(server, t)));
      const answers = await Promise.all([
        ...traders.flatMap((t, i) => [
          place(server, t, { side: 'buy', price: String(40000 + i), qty: '0.01' }),
          place(server, t, { side: 'sell', price: String(45000 + i), qty: '0.01' }),
        ]),
        admin('POST', '/spot/markets/BTCUSDT/halt', { reason: 'burst' }),
        ...traders.map((t, i) => place(server, t, { side: 'buy', price: String(39000 + i), qty: '0.01' })),
      ]);
      const halt = answers[8];
      const places = answers.filter((a) => a !== halt);
      expect(places.every((a) => a.code === 1000 || a.code === 7001)).toBe(true);
      const accepted = places.filter((a) => a.code === 1000);
      expect(halt?.data.revoked).toBe(accepted.length);
      expect((await market('BTCUSDT')).openOrders).toBe(0);
      for (const [i, t] of traders.entries()) expect(await balances(server, t)).toEqual(before[i]);
      expect((await admin('POST', '/spot/markets/BTCUSDT/resume', { reason: '' })).code).toBe(1000);
    });

    it("shows a market's book and trades and a user's orders with what they hold", async () => {
      const maker = await newTrader(server);
      const taker = await newTrader(server);
      const ask = await place(server, maker, { side: 'sell', price: '50000', qty: '0.05' });
      await place(server, taker, { side: 'buy', price: '50000', qty: '0.02' });

      const book = await admin('GET', '/spot/markets/BTCUSDT/book', undefined, compliance);
      expect(book.data).toMatchObject({ bids: [], asks: [['50000.00000000', '0.03000000']] });
      const trades = await admin('GET', '/spot/markets/BTCUSDT/trades', { limit: '1' });
      expect(trades.data).toEqual([
        {
          id: expect.any(String),
          price: '50000.00000000',
          qty: '0.02000000',
          side: 'buy',
          at: expect.any(Number),
        },
      ]);
      expect((await admin('GET', '/spot/markets/NOPEUSDT/book')).code).toBe(7001);

      const orders = await admin('GET', '/spot/orders', { userId: String(maker.userId) }, finance);
      expect(orders.data).toEqual({
        list: [
          expect.objectContaining({
            id: ask.data.id,
            userId: String(maker.userId),
            symbol: 'BTCUSDT',
            side: 'sell',
            price: '50000.00000000',
            qty: '0.05000000',
            filledQty: '0.02000000',
            held: '0.03000000',
            holdCoin: 'BTC',
            feeCoin: 'USDT',
            status: 'entrusted',
            revokeReason: null,
          }),
        ],
        page: 1,
        hasMore: false,
      });
      const revoked = await admin('GET', '/spot/orders', { userId: String(maker.userId), status: 'revoked' });
      expect(revoked.data.list).toEqual([]);
      expect((await admin('GET', '/spot/orders', { userId: 'abc' })).code).toBe(1001);
      expect((await admin('GET', '/spot/orders', {})).code).toBe(1002);
      await server.call('POST', '/Trade/cancelall', {}, { token: maker.token });
    });

    it("reads and saves the market maker's settings and the demo traders' switch, audited", async () => {
      const read = await admin('GET', '/spot/market-maker', undefined, finance);
      expect(read.code).toBe(1000);
      expect(read.data.demoTraders).toBe(true);
      const btc = read.data.markets.find((m: { symbol: string }) => m.symbol === 'BTCUSDT');
      expect(btc).toMatchObject({ symbol: 'BTCUSDT', enabled: true });

      const settings = {
        enabled: false,
        levels: 7,
        spread: '0.003',
        step: '0.0005',
        levelQty: '0.02',
        inventoryTarget: '1.5',
        maxInventoryDeviation: '0.5',
      };
      expect((await admin('POST', '/spot/market-maker/BTCUSDT', settings, finance)).code).toBe(6002);
      const offLot = await admin('POST', '/spot/market-maker/BTCUSDT', { ...settings, levelQty: '0.000001' });
      expect(offLot.code).toBe(1001);
      const tooWide = await admin('POST', '/spot/market-maker/BTCUSDT', { ...settings, spread: '0.5' });
      expect(tooWide.code).toBe(1001);
      expect(await auditOf('spot.maker.save')).toEqual([]);

      const saved = await admin('POST', '/spot/market-maker/btcusdt', settings);
      expect(saved.code).toBe(1000);
      const after = {
        symbol: 'BTCUSDT',
        enabled: false,
        levels: 7,
        spread: '0.003',
        step: '0.0005',
        levelQty: '0.02000000',
        inventoryTarget: '1.50000000',
        maxInventoryDeviation: '0.50000000',
      };
      expect(saved.data.markets.find((m: { symbol: string }) => m.symbol === 'BTCUSDT')).toEqual(after);
      const [record] = await auditOf('spot.maker.save');
      expect(record).toMatchObject({ target: 'spot:BTCUSDT' });
      expect(record?.before).toEqual(btc);
      expect(record?.after).toEqual(after);

      const off = await admin('POST', '/spot/demo-traders', { on: false });
      expect(off).toMatchObject({ code: 1000, data: { demoTraders: false } });
      const [switched] = await auditOf('spot.demo_traders.set');
      expect(switched?.before).toEqual({ demoTraders: true });
      expect(switched?.after).toEqual({ demoTraders: false });
      expect((await admin('POST', '/spot/demo-traders', { on: true }, compliance)).code).toBe(6002);
    });
  });
});
