import { fromAtoms, toAtoms } from '@bourse/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { bal, balances, callAs, orderDetail, place, placed, SPOT_ENV } from './spot-harness.ts';
import { connect, on } from './ws-client.ts';

/** A demo trader's untouched coins: 10,000 USDT and 0.5 BTC. */
const START = { usdt: bal('10000.00000000'), btc: bal('0.50000000') };

/** A trade at `price` between two fresh traders (a resting sell of 0.01 and a buy that takes it). */
async function tradeAt(server: TestServer, price: string) {
  const seller = await newTrader(server);
  const buyer = await newTrader(server);
  await placed(server, seller, { side: 'sell', type: 'limit', price, qty: '0.01' });
  return { seller, buyer, fields: { side: 'buy', type: 'limit', price, qty: '0.01' } };
}

describe.each(DIALECTS)('spot trigger orders over HTTP on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer | undefined;

    async function fresh(): Promise<TestServer> {
      server = await startServer(name, { env: SPOT_ENV });
      // why: the band (10 %) and, before the first trade, the would-fire check look at the index.
      await indexTick(server, 'BTCUSDT', '50000');
      return server;
    }

    afterEach(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
      server = undefined;
    });

    it('stop-limit buy: waits with its funds held, fires when the last price rises to it, fills exactly', async () => {
      const s = await fresh();
      const trader = await newTrader(s);
      const maker = await newTrader(s);
      const stop = await placed(s, trader, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50050',
        price: '50100',
        qty: '0.05',
      });
      expect(stop).toMatchObject({
        type: 'stop_limit',
        side: 'buy',
        tif: 'gtc',
        price: '50100.00000000',
        qty: '0.05000000',
        status: 'entrusted',
        trigger_price: '50050.00000000',
        trigger_condition: 'gte',
        triggered_at: null,
      });
      expect(await balances(s, trader)).toEqual({
        usdt: bal('7495.00000000', '2505.00000000'),
        btc: START.btc,
      });
      // waiting, not in the book; listed among the open orders
      expect((await s.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).data.bids).toEqual([]);
      const open = await callAs(s, trader, 'GET', '/Trade/openorders');
      expect(open.data.map((o: { id: string }) => o.id)).toEqual([stop.id]);

      await placed(s, maker, { side: 'sell', type: 'limit', price: '50100', qty: '0.1' });
      // a trade below the trigger does not fire it
      const below = await tradeAt(s, '50040');
      await placed(s, below.buyer, below.fields);
      expect((await orderDetail(s, trader, stop.id)).triggered_at).toBeNull();

      const socket = await connect(s);
      socket.send({ op: 'auth', token: trader.token });
      expect(await socket.next(() => true)).toEqual({ op: 'authed' });
      socket.send({ op: 'subscribe', channel: 'orders' });
      expect((await socket.next(on('orders'))).data).toMatchObject([{ id: stop.id, triggered_at: null }]);

      const at = await tradeAt(s, '50050');
      s.clock.advance(1000);
      await placed(s, at.buyer, at.fields);
      const fired = await orderDetail(s, trader, stop.id);
      // the orders channel pushes the fired order as billinfo shows it
      const { fills: _fills, ...pushed } = fired;
      expect((await socket.next(on('orders'))).data).toEqual([pushed]);
      socket.socket.close();
      expect(fired).toMatchObject({
        status: 'completed',
        triggered_at: s.clock.now(),
        filled_qty: '0.05000000',
        turnover: '2505.00000000',
        avg_price: '50100.00000000',
        fee: '0.00005000',
        trigger_price: '50050.00000000',
        trigger_condition: 'gte',
      });
      expect(fired.fills).toMatchObject([{ role: 'taker', price: '50100.00000000', qty: '0.05000000' }]);
      expect(await balances(s, trader)).toEqual({ usdt: bal('7495.00000000'), btc: bal('0.54995000') });
      expect(await balances(s, maker)).toEqual({
        usdt: bal('12502.49500000'),
        btc: bal('0.40000000', '0.05000000'),
      });
      expect((await callAs(s, trader, 'GET', '/Trade/openorders')).data).toEqual([]);
    });

    it('stop-limit sell: fires when the last price falls to it and rests what it cannot fill', async () => {
      const s = await fresh();
      const trader = await newTrader(s);
      const maker = await newTrader(s);
      const stop = await placed(s, trader, {
        side: 'sell',
        type: 'stop_limit',
        trigger_price: '49950',
        price: '49800',
        qty: '0.05',
      });
      expect(stop).toMatchObject({ trigger_condition: 'lte', status: 'entrusted' });
      expect(await balances(s, trader)).toEqual({ usdt: START.usdt, btc: bal('0.45000000', '0.05000000') });
      await placed(s, maker, { side: 'buy', type: 'limit', price: '49800', qty: '0.03' });

      const at = await tradeAt(s, '49900');
      await placed(s, at.buyer, at.fields);
      const fired = await orderDetail(s, trader, stop.id);
      expect(fired).toMatchObject({
        status: 'entrusted',
        triggered_at: s.clock.now(),
        filled_qty: '0.03000000',
        turnover: '1494.00000000',
        fee: '1.49400000',
      });
      // 0.03 sold at 49,800 (less 0.1 %); the other 0.02 rests at 49,800, still held
      expect(await balances(s, trader)).toEqual({
        usdt: bal('11492.50600000'),
        btc: bal('0.45000000', '0.02000000'),
      });
      const book = (await s.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).data;
      expect(book).toMatchObject({ bids: [], asks: [['49800.00000000', '0.02000000']] });
      const cancelled = await callAs(s, trader, 'POST', '/Trade/cancel', { id: stop.id });
      expect(cancelled.data).toMatchObject({ status: 'revoked', revoke_reason: 'user' });
      expect((await balances(s, trader)).btc).toEqual(bal('0.47000000'));
    });

    it('stop-market: a sell by quantity and a buy by quote amount, each filled at market when fired', async () => {
      const s = await fresh();
      const seller = await newTrader(s);
      const buyer = await newTrader(s);
      const maker = await newTrader(s);
      const sell = await placed(s, seller, {
        side: 'sell',
        type: 'stop_market',
        trigger_price: '49950',
        qty: '0.02',
      });
      const buy = await placed(s, buyer, {
        side: 'buy',
        type: 'stop_market',
        trigger_price: '50050',
        quote_amount: '1000',
      });
      expect(sell).toMatchObject({ trigger_condition: 'lte', tif: 'ioc', price: null, qty: '0.02000000' });
      expect(buy).toMatchObject({ trigger_condition: 'gte', qty: null, quote_amount: '1000.00000000' });
      expect(await balances(s, seller)).toEqual({ usdt: START.usdt, btc: bal('0.48000000', '0.02000000') });
      expect(await balances(s, buyer)).toEqual({
        usdt: bal('9000.00000000', '1000.00000000'),
        btc: START.btc,
      });
      await placed(s, maker, { side: 'buy', type: 'limit', price: '49900', qty: '0.05' });
      await placed(s, maker, { side: 'sell', type: 'limit', price: '50100', qty: '0.05' });

      // a market sell of 0.01 trades at 49,900: the stop sell fires and sells at 49,900 too
      const down = await newTrader(s);
      await placed(s, down, { side: 'sell', type: 'market', qty: '0.01' });
      expect(await orderDetail(s, seller, sell.id)).toMatchObject({
        status: 'completed',
        triggered_at: s.clock.now(),
        filled_qty: '0.02000000',
        turnover: '998.00000000',
        fee: '0.99800000',
      });
      expect(await balances(s, seller)).toEqual({ usdt: bal('10997.00200000'), btc: bal('0.48000000') });

      // a market buy of 0.01 trades at 50,100: the stop buy fires and spends up to 1,000 USDT:
      // 0.01996 BTC for 999.996 USDT; the rest of its hold comes back
      const up = await newTrader(s);
      await placed(s, up, { side: 'buy', type: 'market', quote_amount: '501' });
      expect(await orderDetail(s, buyer, buy.id)).toMatchObject({
        status: 'completed',
        filled_qty: '0.01996000',
        turnover: '999.99600000',
        fee: '0.00001996',
      });
      expect(await balances(s, buyer)).toEqual({ usdt: bal('9000.00400000'), btc: bal('0.51994004') });
    });

    it('take-profit: a sell fires when the price rises to it, a buy when it falls to it', async () => {
      const s = await fresh();
      const trader = await newTrader(s);
      const sell = await placed(s, trader, {
        side: 'sell',
        type: 'take_profit',
        trigger_price: '50050',
        qty: '0.02',
      });
      const buy = await placed(s, trader, {
        side: 'buy',
        type: 'take_profit',
        trigger_price: '49950',
        quote_amount: '499',
      });
      expect([sell.trigger_condition, buy.trigger_condition]).toEqual(['gte', 'lte']);
      expect(await balances(s, trader)).toEqual({
        usdt: bal('9501.00000000', '499.00000000'),
        btc: bal('0.48000000', '0.02000000'),
      });
      const bidder = await newTrader(s);
      await placed(s, bidder, { side: 'buy', type: 'limit', price: '50000', qty: '0.02' });

      // a trade at 50,050 fires the take-profit sell, which sells into the bid at 50,000
      const up = await tradeAt(s, '50050');
      await placed(s, up.buyer, up.fields);
      expect(await orderDetail(s, trader, sell.id)).toMatchObject({
        status: 'completed',
        filled_qty: '0.02000000',
        turnover: '1000.00000000',
      });
      // the last price is now 50,000: the take-profit buy at 49,950 still waits
      expect(await orderDetail(s, trader, buy.id)).toMatchObject({ status: 'entrusted', triggered_at: null });

      const asker = await newTrader(s);
      await placed(s, asker, { side: 'sell', type: 'limit', price: '49900', qty: '0.02' });
      const down = await newTrader(s);
      s.clock.advance(1000);
      await placed(s, down, { side: 'buy', type: 'limit', price: '49900', qty: '0.001' });
      expect(await orderDetail(s, trader, buy.id)).toMatchObject({
        status: 'completed',
        triggered_at: s.clock.now(),
        filled_qty: '0.01000000',
        turnover: '499.00000000',
        fee: '0.00001000',
      });
      expect(await balances(s, trader)).toEqual({ usdt: bal('10500.00000000'), btc: bal('0.48999000') });
    });

    it('refuses a trigger the last price (or, before any trade, the index) has reached, and bad trigger prices', async () => {
      const s = await fresh();
      const trader = await newTrader(s);
      const wouldFire = {
        code: 7041,
        msg: 'The last price has already reached this trigger price; choose one it has not reached yet.',
      };
      const invalid = { code: 7040, msg: 'Enter a valid trigger price.' };
      const cases: [Record<string, string>, { code: number; msg: string }][] = [
        // no trade yet: the index (50,000) is the reference
        [{ side: 'buy', type: 'stop_limit', trigger_price: '49000', price: '49000', qty: '0.01' }, wouldFire],
        [{ side: 'sell', type: 'stop_market', trigger_price: '51000', qty: '0.01' }, wouldFire],
        [{ side: 'sell', type: 'take_profit', trigger_price: '50000', qty: '0.01' }, wouldFire],
        [{ side: 'buy', type: 'take_profit', trigger_price: '51000', quote_amount: '100' }, wouldFire],
        [{ side: 'buy', type: 'stop_limit', price: '50000', qty: '0.01' }, invalid],
        [{ side: 'buy', type: 'stop_limit', trigger_price: '0', price: '50000', qty: '0.01' }, invalid],
        [
          { side: 'buy', type: 'stop_limit', trigger_price: '50100.001', price: '50000', qty: '0.01' },
          invalid,
        ],
        [{ side: 'buy', type: 'stop_limit', trigger_price: 'abc', price: '50000', qty: '0.01' }, invalid],
        [{ side: 'sell', type: 'stop_market', trigger_price: '-5', qty: '0.01' }, invalid],
      ];
      for (const [fields, expected] of cases) {
        const answer = await place(s, trader, fields);
        expect({ fields, code: answer.code, msg: answer.msg }).toEqual({ fields, ...expected });
      }
      // what a market order of the side takes: a stop-market buy needs its quote amount
      const noAmount = await place(s, trader, {
        side: 'buy',
        type: 'stop_market',
        trigger_price: '51000',
        qty: '0.01',
      });
      expect(noAmount.code).toBe(3005);

      // after a trade at 50,020 the last price is the reference, not the index
      const at = await tradeAt(s, '50020');
      await placed(s, at.buyer, at.fields);
      const reached = await place(s, trader, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50010',
        price: '50010',
        qty: '0.01',
      });
      expect(reached.code).toBe(7041);
      expect(await balances(s, trader)).toEqual(START);
      expect((await callAs(s, trader, 'GET', '/Trade/openorders')).data).toEqual([]);
    });

    it('revokes a trigger that fires outside the band around the index, releasing its hold', async () => {
      const s = await fresh();
      const limitTrader = await newTrader(s);
      const marketTrader = await newTrader(s);
      // a stop-limit's price is checked when it fires, not when it is placed
      const far = await placed(s, limitTrader, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50050',
        price: '56000',
        qty: '0.01',
      });
      expect(await balances(s, limitTrader)).toEqual({
        usdt: bal('9440.00000000', '560.00000000'),
        btc: START.btc,
      });
      const stop = await placed(s, marketTrader, {
        side: 'sell',
        type: 'stop_market',
        trigger_price: '49950',
        qty: '0.01',
      });

      const up = await tradeAt(s, '50050');
      s.clock.advance(1000);
      await placed(s, up.buyer, up.fields);
      expect(await orderDetail(s, limitTrader, far.id)).toMatchObject({
        status: 'revoked',
        revoke_reason: 'trigger_out_of_band',
        triggered_at: s.clock.now(),
        filled_qty: '0.00000000',
        fills: [],
      });
      expect(await balances(s, limitTrader)).toEqual(START);

      // a market trigger: the last price that fires it must be in the band; the index falls to
      // 45,000 and a trade at 49,900 (more than 10 % above) fires the stop sell
      const bidder = await newTrader(s);
      await placed(s, bidder, { side: 'buy', type: 'limit', price: '49900', qty: '0.01' });
      s.clock.advance(1000);
      await indexTick(s, 'BTCUSDT', '45000');
      const seller = await newTrader(s);
      await placed(s, seller, { side: 'sell', type: 'market', qty: '0.01' });
      expect(await orderDetail(s, marketTrader, stop.id)).toMatchObject({
        status: 'revoked',
        revoke_reason: 'trigger_out_of_band',
        triggered_at: s.clock.now(),
      });
      expect(await balances(s, marketTrader)).toEqual(START);
    });

    it('cancels waiting triggers one by one, all at once, and when staff halt the market', async () => {
      const s = await fresh();
      const trader = await newTrader(s);
      const stopLimit = await placed(s, trader, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50050',
        price: '50050',
        qty: '0.01',
      });
      const stopMarket = await placed(s, trader, {
        side: 'sell',
        type: 'stop_market',
        trigger_price: '49950',
        qty: '0.01',
      });
      const limit = await placed(s, trader, { side: 'buy', type: 'limit', price: '49000', qty: '0.01' });
      expect(await balances(s, trader)).toEqual({
        usdt: bal('9009.50000000', '990.50000000'),
        btc: bal('0.49000000', '0.01000000'),
      });
      const open = (await callAs(s, trader, 'GET', '/Trade/openorders')).data;
      expect(open.map((o: { id: string }) => o.id)).toEqual([limit.id, stopMarket.id, stopLimit.id]);
      expect(open[1]).toMatchObject({
        trigger_price: '49950.00000000',
        trigger_condition: 'lte',
        triggered_at: null,
      });
      expect(open[0]).toMatchObject({ trigger_price: null, trigger_condition: null, triggered_at: null });

      const cancelled = await callAs(s, trader, 'POST', '/Trade/cancel', { id: stopMarket.id });
      expect(cancelled.data).toMatchObject({ status: 'revoked', revoke_reason: 'user', triggered_at: null });
      expect((await balances(s, trader)).btc).toEqual(START.btc);
      const again = await callAs(s, trader, 'POST', '/Trade/cancel', { id: stopMarket.id });
      expect(again.code).not.toBe(1000);

      const halt = await s.app.ctx.spot?.setMarketStatus('BTCUSDT', 'halted');
      expect(halt?.revoked).toBe(2);
      expect(await orderDetail(s, trader, stopLimit.id)).toMatchObject({
        status: 'revoked',
        revoke_reason: 'halt',
      });
      expect(await orderDetail(s, trader, limit.id)).toMatchObject({
        status: 'revoked',
        revoke_reason: 'halt',
      });
      expect(await balances(s, trader)).toEqual(START);
      const refused = await place(s, trader, {
        side: 'sell',
        type: 'stop_market',
        trigger_price: '49950',
        qty: '0.01',
      });
      expect(refused.code).toBe(7001);
      await s.app.ctx.spot?.setMarketStatus('BTCUSDT', 'open');

      await placed(s, trader, { side: 'sell', type: 'stop_market', trigger_price: '49950', qty: '0.01' });
      await placed(s, trader, {
        side: 'buy',
        type: 'take_profit',
        trigger_price: '49950',
        quote_amount: '100',
      });
      const all = await callAs(s, trader, 'POST', '/Trade/cancelall', { symbol: 'BTCUSDT' });
      expect(all.data).toEqual({ cancelled: 2 });
      expect(await balances(s, trader)).toEqual(START);
    });

    it('keeps waiting triggers and the last price across a restart, and fires them after it', async () => {
      let s = await fresh();
      const trader = await newTrader(s);
      const maker = await newTrader(s);
      const stop = await placed(s, trader, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50050',
        price: '50100',
        qty: '0.01',
      });
      await placed(s, maker, { side: 'sell', type: 'limit', price: '50100', qty: '0.05' });
      // this one fires at 50,020 and rests at its limit: after the restart it is in the book
      const rester = await newTrader(s);
      const rests = await placed(s, rester, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50010',
        price: '50010',
        qty: '0.01',
      });
      const at = await tradeAt(s, '50020');
      await placed(s, at.buyer, at.fields);
      const firedAt = s.clock.now();

      await s.close({ keepStore: true });
      server = undefined;
      s = await startServer(name, { env: SPOT_ENV, reuse: s.store });
      server = s;
      s.clock.advance(60_000);
      await indexTick(s, 'BTCUSDT', '50000');

      const open = (await callAs(s, trader, 'GET', '/Trade/openorders')).data;
      expect(open).toMatchObject([
        { id: stop.id, status: 'entrusted', trigger_price: '50050.00000000', triggered_at: null },
      ]);
      expect(await balances(s, trader)).toEqual({
        usdt: bal('9499.00000000', '501.00000000'),
        btc: START.btc,
      });
      // the last price (50,020) came back from the store: 50,010 has been reached, though the index has not
      const reached = await place(s, trader, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50010',
        price: '50010',
        qty: '0.01',
      });
      expect(reached.code).toBe(7041);
      expect(await orderDetail(s, rester, rests.id)).toMatchObject({
        status: 'entrusted',
        triggered_at: firedAt,
      });
      expect((await s.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).data).toMatchObject({
        bids: [['50010.00000000', '0.01000000']],
        asks: [['50100.00000000', '0.05000000']],
      });

      const up = await tradeAt(s, '50050');
      await placed(s, up.buyer, up.fields);
      expect(await orderDetail(s, trader, stop.id)).toMatchObject({
        status: 'completed',
        triggered_at: s.clock.now(),
        filled_qty: '0.01000000',
        turnover: '501.00000000',
      });
      expect(await balances(s, trader)).toEqual({ usdt: bal('9499.00000000'), btc: bal('0.50999000') });
    });

    it('fires a burst of 50 triggers from five users in one batch, in arrival order, with exact outcomes', async () => {
      const s = await fresh();
      const users = await Promise.all([1, 2, 3, 4, 5].map(() => newTrader(s)));
      const [first, second, third] = await Promise.all([1, 2, 3].map(() => newTrader(s)));
      // why: concurrent places, so arrival order is the server's; order ids give it back.
      const stops = await Promise.all(
        users.flatMap((user) =>
          Array.from({ length: 10 }, async () => ({
            user,
            order: await placed(s, user, {
              side: 'sell',
              type: 'stop_limit',
              trigger_price: '49950',
              price: '49000',
              qty: '0.01',
            }),
          })),
        ),
      );
      for (const user of users) {
        expect((await balances(s, user)).btc).toEqual(bal('0.40000000', '0.10000000'));
      }
      await placed(s, first, { side: 'buy', type: 'limit', price: '49500', qty: '0.2' });
      await placed(s, second, { side: 'buy', type: 'limit', price: '49500', qty: '0.2' });
      await placed(s, third, { side: 'buy', type: 'limit', price: '49000', qty: '0.1' });

      const at = await tradeAt(s, '49900');
      s.clock.advance(1000);
      await placed(s, at.buyer, at.fields);

      // the command that traded at 49,900 fired all 50 in its batch: every one has ended
      const arrival = [...stops].sort((a, b) => (BigInt(a.order.id) < BigInt(b.order.id) ? -1 : 1));
      const expected = new Map<bigint, bigint>(users.map((u) => [u.userId, toAtoms('10000')]));
      for (const [rank, { user, order }] of arrival.entries()) {
        // the first 40 to arrive sell into the two bids at 49,500 (first come, first filled); the
        // last 10 into the bid at 49,000
        const price = rank < 40 ? '49500' : '49000';
        const quote = toAtoms(price) / 100n;
        const fee = quote / 1000n;
        expected.set(user.userId, (expected.get(user.userId) ?? 0n) + quote - fee);
        expect(await orderDetail(s, user, order.id)).toMatchObject({
          status: 'completed',
          triggered_at: s.clock.now(),
          filled_qty: '0.01000000',
          avg_price: `${price}.00000000`,
          fills: [{ role: 'taker', price: `${price}.00000000` }],
        });
      }
      for (const user of users) {
        expect(await balances(s, user)).toEqual({
          usdt: bal(fromAtoms(expected.get(user.userId) ?? 0n)),
          btc: bal('0.40000000'),
        });
      }
      expect(await balances(s, first)).toEqual({ usdt: bal('100.00000000'), btc: bal('0.69980000') });
      expect(await balances(s, second)).toEqual({ usdt: bal('100.00000000'), btc: bal('0.69980000') });
      expect(await balances(s, third)).toEqual({ usdt: bal('5100.00000000'), btc: bal('0.59990000') });
      const tape = await s.call('GET', '/Market/trades', { symbol: 'BTCUSDT', limit: 60 });
      expect(tape.data).toHaveLength(51);
      expect((await s.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).data).toMatchObject({
        bids: [],
        asks: [],
      });
    });
  });
});
