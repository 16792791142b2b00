import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectHistoryPaging } from './history-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import {
  bal,
  balances,
  callAs,
  depth,
  orderDetail,
  place,
  placed,
  SPOT_ENV,
  type Trader,
} from './spot-harness.ts';

describe.each(DIALECTS)('spot order flow over HTTP on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let maker: Trader;
    let taker: Trader;
    beforeAll(async () => {
      server = await startServer(name, { env: SPOT_ENV });
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    async function freshPair() {
      // why: every test trades on the same book; what a test leaves resting is cancelled after it.
      if (maker) await callAs(server, maker, 'POST', '/Trade/cancelall');
      if (taker) await callAs(server, taker, 'POST', '/Trade/cancelall');
      maker = await newTrader(server);
      taker = await newTrader(server);
    }

    it('lists the demo spot markets with their steps, fees and status', async () => {
      const answer = await server.call('GET', '/Market/spot');
      expect(answer.code).toBe(1000);
      expect(answer.data.find((m: { symbol: string }) => m.symbol === 'BTCUSDT')).toEqual({
        symbol: 'BTCUSDT',
        base: 'BTC',
        quote: 'USDT',
        tick_size: '0.01',
        lot_size: '0.00001',
        min_notional: '5.00000000',
        maker_fee: '0.001',
        taker_fee: '0.001',
        price_decimals: 2,
        qty_decimals: 5,
        status: 'open',
      });
      expect(answer.data).toHaveLength(8);
      // the order of the market list (the listings' sort), so the trade page opens on its first
      const listed = await server.call('GET', '/Market/tickers');
      const symbols = (rows: { symbol: string }[]) => rows.map((row) => row.symbol);
      expect(symbols(answer.data)).toEqual(symbols(listed.data));
      expect(symbols(answer.data)[0]).toBe('BTCUSDT');
    });

    it('rests a GTC limit order, then fills it exactly with fees to both sides', async () => {
      await freshPair();
      const sell = await placed(server, maker, { side: 'sell', type: 'limit', price: '50000', qty: '0.1' });
      expect(sell).toMatchObject({
        side: 'sell',
        type: 'limit',
        tif: 'gtc',
        price: '50000.00000000',
        qty: '0.10000000',
        quote_amount: null,
        filled_qty: '0.00000000',
        status: 'entrusted',
        fee_coin: 'USDT',
        completion: '0.00',
        revoke_reason: null,
      });
      expect((await balances(server, maker)).btc).toEqual(bal('0.40000000', '0.10000000'));
      expect(await depth(server)).toEqual({ bids: [], asks: [['50000.00000000', '0.10000000']] });

      // a buy limit above the ask takes at the maker's price; the surplus of its hold comes back
      const buy = await placed(server, taker, { side: 'buy', type: 'limit', price: '50010', qty: '0.04' });
      expect(buy).toMatchObject({
        status: 'completed',
        filled_qty: '0.04000000',
        turnover: '2000.00000000',
        avg_price: '50000.00000000',
        fee: '0.00004000',
        fee_coin: 'BTC',
        fee_ratio: '0.001',
        completion: '100.00',
      });
      expect(await balances(server, taker)).toEqual({
        usdt: bal('8000.00000000'),
        btc: bal('0.53996000'),
      });
      expect(await balances(server, maker)).toEqual({
        usdt: bal('11998.00000000'),
        btc: bal('0.40000000', '0.06000000'),
      });
      expect(await depth(server)).toEqual({ bids: [], asks: [['50000.00000000', '0.06000000']] });

      const makerOrder = await orderDetail(server, maker, sell.id);
      expect(makerOrder).toMatchObject({
        status: 'entrusted',
        filled_qty: '0.04000000',
        completion: '40.00',
      });
      expect(makerOrder.fills).toEqual([
        {
          id: expect.any(String),
          price: '50000.00000000',
          qty: '0.04000000',
          turnover: '2000.00000000',
          fee: '2.00000000',
          fee_coin: 'USDT',
          role: 'maker',
          at: server.clock.now(),
        },
      ]);
      const takerOrder = await orderDetail(server, taker, buy.id);
      expect(takerOrder.fills).toMatchObject([{ role: 'taker', fee: '0.00004000', fee_coin: 'BTC' }]);

      const mine = await callAs(server, taker, 'GET', '/Trade/mytrades');
      expect(mine.data).toMatchObject({
        page: 1,
        has_more: false,
        list: [{ order_id: buy.id, symbol: 'BTCUSDT', side: 'buy', role: 'taker', qty: '0.04000000' }],
      });
      const tape = await server.call('GET', '/Market/trades', { symbol: 'BTCUSDT', limit: 1 });
      expect(tape.data).toEqual([
        {
          id: expect.any(String),
          price: '50000.00000000',
          qty: '0.04000000',
          side: 'buy',
          at: server.clock.now(),
        },
      ]);

      // cancelling the rest releases exactly what is still held
      const cancelled = await callAs(server, maker, 'POST', '/Trade/cancel', { id: sell.id });
      expect(cancelled).toMatchObject({
        code: 1000,
        msg: 'Order cancelled.',
        data: { status: 'revoked', revoke_reason: 'user', filled_qty: '0.04000000' },
      });
      expect((await balances(server, maker)).btc).toEqual(bal('0.46000000'));
      expect(await depth(server)).toEqual({ bids: [], asks: [] });
    });

    it('fills IOC what it can and revokes the rest; FOK fills all or nothing', async () => {
      await freshPair();
      await placed(server, maker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      const ioc = await placed(server, taker, {
        side: 'buy',
        type: 'limit',
        tif: 'ioc',
        price: '50000',
        qty: '0.02',
      });
      expect(ioc).toMatchObject({ status: 'revoked', revoke_reason: 'unfilled', filled_qty: '0.01000000' });
      expect(await balances(server, taker)).toEqual({
        usdt: bal('9500.00000000'),
        btc: bal('0.50999000'),
      });

      await placed(server, maker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      const fok = await placed(server, taker, {
        side: 'buy',
        type: 'limit',
        tif: 'fok',
        price: '50000',
        qty: '0.02',
      });
      expect(fok).toMatchObject({ status: 'revoked', revoke_reason: 'fok', filled_qty: '0.00000000' });
      expect((await balances(server, taker)).usdt).toEqual(bal('9500.00000000'));
      const whole = await placed(server, taker, {
        side: 'buy',
        type: 'limit',
        tif: 'fok',
        price: '50000',
        qty: '0.01',
      });
      expect(whole).toMatchObject({ status: 'completed', filled_qty: '0.01000000' });
      expect((await balances(server, taker)).usdt).toEqual(bal('9000.00000000'));
      expect(await depth(server)).toEqual({ bids: [], asks: [] });
    });

    it('revokes a post-only order that would take and rests one that does not', async () => {
      await freshPair();
      await placed(server, maker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      const taking = await placed(server, taker, {
        side: 'buy',
        type: 'limit',
        tif: 'post_only',
        price: '50000',
        qty: '0.01',
      });
      expect(taking).toMatchObject({
        status: 'revoked',
        revoke_reason: 'post_only',
        filled_qty: '0.00000000',
      });
      const resting = await placed(server, taker, {
        side: 'buy',
        type: 'limit',
        tif: 'post_only',
        price: '49990',
        qty: '0.01',
      });
      expect(resting).toMatchObject({ status: 'entrusted', fee_ratio: '0.001' });
      expect((await balances(server, taker)).usdt).toEqual(bal('9500.10000000', '499.90000000'));
      expect(await depth(server)).toEqual({
        bids: [['49990.00000000', '0.01000000']],
        asks: [['50000.00000000', '0.01000000']],
      });
    });

    it('sells at market by quantity, revoking what finds no bid', async () => {
      await freshPair();
      await placed(server, maker, { side: 'buy', type: 'limit', price: '49000', qty: '0.01' });
      const sell = await placed(server, taker, { side: 'sell', type: 'market', qty: '0.02' });
      expect(sell).toMatchObject({
        type: 'market',
        price: null,
        status: 'revoked',
        revoke_reason: 'unfilled',
        filled_qty: '0.01000000',
        turnover: '490.00000000',
        fee: '0.49000000',
        fee_coin: 'USDT',
      });
      expect(await balances(server, taker)).toEqual({
        usdt: bal('10489.51000000'),
        btc: bal('0.49000000'),
      });
      // the maker (a buyer) pays the maker fee in BTC
      expect((await balances(server, maker)).btc).toEqual(bal('0.50999000'));
    });

    it('buys at market by amount across levels and releases what it could not spend', async () => {
      await freshPair();
      await placed(server, maker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      await placed(server, maker, { side: 'sell', type: 'limit', price: '50100', qty: '0.01' });
      const buy = await placed(server, taker, { side: 'buy', type: 'market', quote_amount: '750.7' });
      // 0.01 at 50,000 for 500; then 0.005 at 50,100 for 250.5; 0.2 is less than a lot there
      expect(buy).toMatchObject({
        qty: null,
        quote_amount: '750.70000000',
        status: 'completed',
        filled_qty: '0.01500000',
        turnover: '750.50000000',
        fee: '0.00001500',
      });
      expect(await balances(server, taker)).toEqual({
        usdt: bal('9249.50000000'),
        btc: bal('0.51498500'),
      });
      expect(await depth(server)).toEqual({ bids: [], asks: [['50100.00000000', '0.00500000']] });
    });

    it('refuses bad orders with the spec’s messages and changes nothing', async () => {
      await freshPair();
      const before = await balances(server, taker);
      const cases: [Record<string, string>, number, string][] = [
        [
          { price: '50000.001' },
          7011,
          "The price is invalid: it must be a positive multiple of the market's tick size.",
        ],
        [
          { qty: '0.000001' },
          7012,
          "The quantity is invalid: it must be a positive multiple of the market's lot size.",
        ],
        [{ qty: '0.00001' }, 7016, "The order value is below the market's minimum."],
        [{ qty: '1' }, 3004, 'Insufficient account balance.'],
        [{ symbol: 'NOPEUSDT' }, 7001, 'This market is not open.'],
      ];
      for (const [fields, code, msg] of cases) {
        const answer = await place(server, taker, {
          side: 'buy',
          type: 'limit',
          price: '50000',
          qty: '0.01',
          ...fields,
        });
        expect({ code: answer.code, msg: answer.msg }).toEqual({ code, msg });
      }
      const noAmount = await place(server, taker, { side: 'buy', type: 'market', qty: '0.01' });
      expect(noAmount.code).toBe(3005);

      await indexTick(server, 'BTCUSDT', '50000');
      const far = await place(server, taker, { side: 'sell', type: 'limit', price: '56000', qty: '0.01' });
      expect(far).toMatchObject({ code: 7017, msg: 'The price is too far from the index price.' });
      const near = await place(server, taker, { side: 'sell', type: 'limit', price: '54000', qty: '0.01' });
      expect(near.code).toBe(1000);
      await callAs(server, taker, 'POST', '/Trade/cancel', { id: near.data.id });

      await server.app.ctx.spot?.setMarketStatus('BTCUSDT', 'halted');
      const halted = await place(server, taker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      expect(halted).toMatchObject({ code: 7001, msg: 'This market is not open.' });
      await server.app.ctx.spot?.setMarketStatus('BTCUSDT', 'open');

      await server.app.ctx.store.db
        .updateTable('users')
        .set({ trade_banned: 1n })
        .where('id', '=', taker.userId)
        .execute();
      const banned = await place(server, taker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      expect(banned).toMatchObject({ code: 7002, msg: 'Trading is banned on this account.' });
      await server.app.ctx.store.db
        .updateTable('users')
        .set({ trade_banned: 0n })
        .where('id', '=', taker.userId)
        .execute();

      expect(await balances(server, taker)).toEqual(before);
      const open = await callAs(server, taker, 'GET', '/Trade/openorders');
      expect(open.data).toEqual([]);
    });

    it('answers cancels: unknown, someone else’s, twice, and after completion', async () => {
      await freshPair();
      const unknown = await callAs(server, taker, 'POST', '/Trade/cancel', { id: '999999999' });
      expect(unknown).toMatchObject({ code: 7013, msg: 'The entrusted order does not exist.' });
      const order = await placed(server, maker, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
      const foreign = await callAs(server, taker, 'POST', '/Trade/cancel', { id: order.id });
      expect(foreign.code).toBe(7013);
      const peek = await callAs(server, taker, 'GET', '/Trade/billinfo', { id: order.id });
      expect(peek.code).toBe(7013);
      expect((await callAs(server, maker, 'POST', '/Trade/cancel', { id: order.id })).code).toBe(1000);
      const twice = await callAs(server, maker, 'POST', '/Trade/cancel', { id: order.id });
      expect(twice).toMatchObject({ code: 7014, msg: 'The order has already been revoked.' });

      const filled = await placed(server, maker, {
        side: 'sell',
        type: 'limit',
        price: '50000',
        qty: '0.01',
      });
      await placed(server, taker, { side: 'buy', type: 'limit', price: '50000', qty: '0.01' });
      const late = await callAs(server, maker, 'POST', '/Trade/cancel', { id: filled.id });
      expect(late).toMatchObject({ code: 7015, msg: 'Cancel failed: the order is already completed.' });
    });

    it('answers the first order again for a repeated idempotency key', async () => {
      await freshPair();
      const fields = {
        side: 'sell',
        type: 'limit',
        price: '51000',
        qty: '0.01',
        idempotency_key: randomUUID(),
      };
      const [a, b] = await Promise.all([place(server, maker, fields), place(server, maker, fields)]);
      expect(a.code).toBe(1000);
      expect(b.code).toBe(1000);
      expect(b.data.id).toBe(a.data.id);
      const again = await place(server, maker, fields);
      expect(again.data.id).toBe(a.data.id);
      const changed = await place(server, maker, { ...fields, price: '51001' });
      expect(changed.code).toBe(3021);
      expect((await balances(server, maker)).btc).toEqual(bal('0.49000000', '0.01000000'));
      const open = await callAs(server, maker, 'GET', '/Trade/openorders');
      expect(open.data.map((o: { id: string }) => o.id)).toEqual([a.data.id]);
    });

    it('accepts exactly the affordable orders of a concurrent burst', async () => {
      await freshPair();
      // 15 buys of 980 USDT each against 10,000 USDT: 10 fit
      const answers = await Promise.all(
        Array.from({ length: 15 }, () =>
          place(server, taker, { side: 'buy', type: 'limit', price: '49000', qty: '0.02' }),
        ),
      );
      expect(answers.filter((a) => a.code === 1000)).toHaveLength(10);
      expect(answers.filter((a) => a.code === 3004)).toHaveLength(5);
      expect((await balances(server, taker)).usdt).toEqual(bal('200.00000000', '9800.00000000'));
      const cancelled = await callAs(server, taker, 'POST', '/Trade/cancelall', { symbol: 'BTCUSDT' });
      expect(cancelled.data).toEqual({ cancelled: 10 });
      expect((await balances(server, taker)).usdt).toEqual(bal('10000.00000000'));
      const history = await callAs(server, taker, 'GET', '/Trade/tradebill', { status: 'revoked' });
      expect(history.data.list).toHaveLength(10);
    });

    it('reports tickers and candles from the market’s own trades', async () => {
      const tickers = await server.call('GET', '/Market/spottickers');
      const btc = tickers.data.find((t: { symbol: string }) => t.symbol === 'BTCUSDT');
      expect(btc).toMatchObject({
        last: '50000.00000000',
        high_24h: '50100.00000000',
        low_24h: '49000.00000000',
      });
      const candles = await server.call('GET', '/Market/candles', { symbol: 'BTCUSDT', interval: '1m' });
      expect(candles.code).toBe(1000);
      expect(candles.data).toHaveLength(1);
      expect(candles.data[0]).toMatchObject({
        h: '50100.00000000',
        l: '49000.00000000',
        c: '50000.00000000',
      });
    });

    it('rebuilds the books from the open orders after a restart', async () => {
      await freshPair();
      await placed(server, maker, { side: 'sell', type: 'limit', price: '50200', qty: '0.01' });
      const partly = await placed(server, maker, {
        side: 'sell',
        type: 'limit',
        price: '50300',
        qty: '0.02',
      });
      await placed(server, taker, { side: 'buy', type: 'limit', price: '49500', qty: '0.01' });
      await placed(server, taker, { side: 'buy', type: 'limit', price: '50300', qty: '0.015' });
      const before = await depth(server);
      expect(before.asks).toEqual([['50300.00000000', '0.01500000']]);
      const store = server.store;
      await server.close({ keepStore: true });
      server = await startServer(name, { env: SPOT_ENV, reuse: store });
      expect(await depth(server)).toEqual(before);
      // the rebuilt book keeps trading and cancelling the same orders
      const login = await server.call('POST', '/Login/loginsubmit', {
        email: maker.username,
        lpwd: maker.password,
      });
      maker = { ...maker, token: login.data.token };
      const cancelled = await callAs(server, maker, 'POST', '/Trade/cancel', { id: partly.id });
      expect(cancelled.data).toMatchObject({ status: 'revoked', filled_qty: '0.00500000' });
      expect((await depth(server)).asks).toEqual([]);
    });

    it('answers depth as committed: a read while a batch is being written waits for its commit', async () => {
      await freshPair();
      const { ledger } = server.app.ctx;
      const post = ledger.post;
      let reached!: () => void;
      const inTransaction = new Promise<void>((resolve) => {
        reached = resolve;
      });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      // why: holds the batch inside its transaction, after the engine has put the order in the book.
      ledger.post = async (trx, entry) => {
        if (entry.type === 'spot.batch') {
          reached();
          await gate;
        }
        return post.call(ledger, trx, entry);
      };
      try {
        const before = await server.call('GET', '/Market/depth', { symbol: 'BTCUSDT' });
        const ask = ['50400.00000000', '0.01000000'];
        expect(before.data.asks).not.toContainEqual(ask);
        const placing = placed(server, maker, { side: 'sell', type: 'limit', price: '50400', qty: '0.01' });
        await inTransaction;
        const reading = server.call('GET', '/Market/depth', { symbol: 'BTCUSDT' });
        // why: time for the read to come back while the batch is uncommitted, as it did before.
        await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 300))]);
        release();
        const [order, during] = await Promise.all([placing, reading]);
        expect(order.status).toBe('entrusted');
        expect(during.data.seq).toBe(before.data.seq + 1);
        expect(during.data.asks).toContainEqual(ask);
      } finally {
        ledger.post = post;
        release();
      }
    });

    it('pages the caller’s trades and orders by `before` as by page number, and shows no one else’s', async () => {
      const [mine, other, third] = [
        await newTrader(server),
        await newTrader(server),
        await newTrader(server),
      ];
      const db = server.app.ctx.store.db;
      // why: rows written straight to the store, on a market no other test here trades: the lists
      // are what is tested, not how trades are made; none of them holds money.
      const symbol = 'TRXUSDT';
      const at = BigInt(server.clock.now());
      const trade = async (maker: Trader, taker: Trader) =>
        String(
          (
            await db
              .insertInto('spot_trades')
              .values({
                symbol,
                seq: 0n,
                price: 100n,
                qty: 1n,
                quote: 100n,
                maker_order_id: 1n,
                maker_user_id: maker.userId,
                taker_order_id: 2n,
                taker_user_id: taker.userId,
                taker_side: 'buy',
                maker_fee: 0n,
                taker_fee: 0n,
                at,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      let written = 0;
      const order = async (user: Trader, status: 'completed' | 'revoked') =>
        String(
          (
            await db
              .insertInto('spot_orders')
              .values({
                symbol,
                user_id: user.userId,
                side: 'buy',
                type: 'limit',
                tif: 'gtc',
                price: 100n,
                qty: 1n,
                quote_amount: null,
                trigger_price: null,
                trigger_condition: null,
                triggered_at: null,
                filled_qty: status === 'completed' ? 1n : 0n,
                filled_quote: status === 'completed' ? 100n : 0n,
                fee: 0n,
                fee_bps: 10n,
                hold_asset: 'USDT',
                held: 0n,
                status,
                revoke_reason: null,
                // why: below every sequence number the market's engine gives (from 1 up).
                seq: -BigInt(++written),
                idempotency_key: randomUUID(),
                created_at: at,
                updated_at: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const trades = { mine: [] as string[], theirs: [] as string[] };
      const orders = { mine: [] as string[], theirs: [] as string[] };
      for (let i = 0; i < 45; i++) {
        trades.mine.push(i % 2 === 0 ? await trade(mine, other) : await trade(other, mine));
        if (i % 10 === 3) trades.theirs.push(await trade(other, third));
        orders.mine.push(await order(mine, 'completed'));
        if (i % 10 === 3) orders.theirs.push(await order(other, 'completed'));
        // why: the caller's own rows of another status stay out of the tab asked for.
        if (i % 10 === 7) await order(mine, 'revoked');
      }
      await expectHistoryPaging((paging) => callAs(server, mine, 'GET', '/Trade/mytrades', paging), trades);
      await expectHistoryPaging(
        (paging) => callAs(server, mine, 'GET', '/Trade/tradebill', { status: 'completed', ...paging }),
        orders,
      );
      const [newest] = (await callAs(server, mine, 'GET', '/Trade/mytrades')).data.list;
      expect(newest).toMatchObject({ id: trades.mine.at(-1), symbol, side: 'sell', role: 'maker' });
    });
  });
});
