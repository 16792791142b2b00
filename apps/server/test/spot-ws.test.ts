import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { connect, on } from './ws-client.ts';

const ENV = { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600', WS_CONNECTIONS_PER_IP: '100' };

type Trader = Awaited<ReturnType<typeof newTrader>>;

/** A deterministic pseudo-random sequence, so a failure replays. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe.each(DIALECTS)('spot channels of /ws on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let alice: Trader;
    let bob: Trader;
    const clients: WebSocket[] = [];

    beforeAll(async () => {
      server = await startServer(name, { env: ENV });
      alice = await newTrader(server);
      bob = await newTrader(server);
    });
    afterAll(async () => {
      for (const socket of clients) socket.close();
      await expectLedgerInvariants(server);
      await server?.close();
    });

    async function client() {
      const opened = await connect(server);
      clients.push(opened.socket);
      return opened;
    }

    function place(user: Trader, fields: Record<string, string>) {
      return server.call(
        'POST',
        '/Trade/place',
        { symbol: 'BTCUSDT', type: 'limit', idempotency_key: randomUUID(), ...fields },
        { token: user.token, lang: 'en-us' },
      );
    }

    async function restDepth() {
      const answer = await server.call('GET', '/Market/depth', { symbol: 'BTCUSDT', levels: 100 });
      expect(answer.code).toBe(1000);
      return answer.data;
    }

    it('depth: the snapshot and the chained deltas reproduce GET /Market/depth after random orders', async () => {
      const watcher = await client();
      watcher.send({ op: 'subscribe', channel: 'depth:BTCUSDT' });
      const snapshot = (await watcher.next(on('depth:BTCUSDT'))).data;
      expect(snapshot).toEqual(await restDepth());

      const bids = new Map<string, string>(snapshot.bids);
      const asks = new Map<string, string>(snapshot.asks);
      let seq: number = snapshot.seq;
      const gaps: number[] = [];
      watcher.socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw));
        if (frame.channel !== 'depth:BTCUSDT') return;
        const delta = frame.data;
        if (delta.prev_seq !== seq) gaps.push(delta.prev_seq);
        seq = delta.seq;
        for (const [levels, changes] of [
          [bids, delta.bids],
          [asks, delta.asks],
        ] as const) {
          for (const [price, qty] of changes) {
            if (qty === '0.00000000') levels.delete(price);
            else levels.set(price, qty);
          }
        }
      });

      const next = random(name === 'sqlite' ? 7 : 11);
      const open: { user: Trader; id: string }[] = [];
      for (let round = 0; round < 10; round++) {
        // why: a burst, so several commands share a batch and one delta.
        const burst = Array.from({ length: 10 }, () => {
          const user = next() < 0.5 ? alice : bob;
          const side = next() < 0.5 ? 'buy' : 'sell';
          const price = String(49_950 + Math.floor(next() * 10) * 10);
          const qty = (0.001 + Math.floor(next() * 5) * 0.001).toFixed(3);
          return place(user, { side, price, qty }).then((answer) => {
            expect(answer.code).toBe(1000);
            if (answer.data.status === 'entrusted') open.push({ user, id: answer.data.id });
          });
        });
        await Promise.all(burst);
        const cancel = open.splice(Math.floor(next() * open.length), 1)[0];
        if (cancel) {
          await server.call('POST', '/Trade/cancel', { id: cancel.id }, { token: cancel.user.token });
        }
      }

      const expected = await restDepth();
      const deadline = Date.now() + 5000;
      while (seq < expected.seq && Date.now() < deadline) await sleep(10);
      expect(gaps).toEqual([]);
      expect(seq).toBe(expected.seq);
      const byPrice = (desc: boolean) => (a: [string, string], b: [string, string]) =>
        (Number(a[0]) - Number(b[0])) * (desc ? -1 : 1);
      expect({
        symbol: 'BTCUSDT',
        seq,
        bids: [...bids].sort(byPrice(true)),
        asks: [...asks].sort(byPrice(false)),
      }).toEqual(expected);
      expect(expected.bids.length + expected.asks.length).toBeGreaterThan(0);

      // a late subscriber's snapshot is the same book at the same sequence
      const late = await client();
      late.send({ op: 'subscribe', channel: 'depth:BTCUSDT' });
      expect((await late.next(on('depth:BTCUSDT'))).data).toEqual(expected);

      await server.call('POST', '/Trade/cancelall', {}, { token: alice.token });
      await server.call('POST', '/Trade/cancelall', {}, { token: bob.token });
    });

    it('trades: the latest trades first, then each batch of new trades', async () => {
      const watcher = await client();
      watcher.send({ op: 'subscribe', channel: 'trades:BTCUSDT' });
      const first = (await watcher.next(on('trades:BTCUSDT'))).data;
      const recent = await server.call('GET', '/Market/trades', { symbol: 'BTCUSDT', limit: 50 });
      expect(first).toEqual({ symbol: 'BTCUSDT', trades: recent.data });

      expect((await place(alice, { side: 'sell', price: '50000', qty: '0.002' })).code).toBe(1000);
      expect((await place(bob, { side: 'buy', price: '50000', qty: '0.002' })).code).toBe(1000);
      const update = (await watcher.next(on('trades:BTCUSDT'))).data;
      const latest = await server.call('GET', '/Market/trades', { symbol: 'BTCUSDT', limit: 1 });
      expect(update).toEqual({ symbol: 'BTCUSDT', trades: latest.data });
      expect(update.trades).toEqual([
        {
          id: expect.any(String),
          price: '50000.00000000',
          qty: '0.00200000',
          side: 'buy',
          at: server.clock.now(),
        },
      ]);
    });

    it('spot-kline: the current candle on subscribe, then the candle after each trade', async () => {
      const watcher = await client();
      watcher.send({ op: 'subscribe', channel: 'spot-kline:BTCUSDT:1m' });
      const candles = async () =>
        (await server.call('GET', '/Market/candles', { symbol: 'BTCUSDT', interval: '1m', limit: 1 })).data;
      const [current] = await candles();
      expect((await watcher.next(on('spot-kline:BTCUSDT:1m'))).data).toEqual(
        current ? { symbol: 'BTCUSDT', interval: '1m', candle: current } : null,
      );
      expect((await place(alice, { side: 'buy', price: '50010', qty: '0.003' })).code).toBe(1000);
      expect((await place(bob, { side: 'sell', price: '50010', qty: '0.003' })).code).toBe(1000);
      const update = (await watcher.next(on('spot-kline:BTCUSDT:1m'))).data;
      expect(update).toEqual({ symbol: 'BTCUSDT', interval: '1m', candle: (await candles())[0] });
      expect(update.candle.c).toBe('50010.00000000');
    });

    it('spot-ticker: every market on subscribe, then the markets that traded', async () => {
      // why: tickers are recomputed at most once a second; the earlier tests' trades land first.
      await sleep(1200);
      const watcher = await client();
      watcher.send({ op: 'subscribe', channel: 'spot-ticker' });
      const tickers = async () => (await server.call('GET', '/Market/spottickers')).data;
      expect((await watcher.next(on('spot-ticker'))).data).toEqual(await tickers());

      expect((await place(alice, { side: 'sell', price: '50020', qty: '0.001' })).code).toBe(1000);
      expect((await place(bob, { side: 'buy', price: '50020', qty: '0.001' })).code).toBe(1000);
      const update = (await watcher.next(on('spot-ticker'))).data;
      const btc = (await tickers()).find((ticker: { symbol: string }) => ticker.symbol === 'BTCUSDT');
      expect(update).toEqual([btc]);
      expect(btc.last).toBe('50020.00000000');
    });

    it('spot-ticker: the index the REST tickers show on subscribe, and pushed when it moves without a trade', async () => {
      const tickers = async () => (await server.call('GET', '/Market/spottickers')).data;
      const watcher = await client();
      watcher.send({ op: 'subscribe', channel: 'spot-ticker' });
      await watcher.next(on('spot-ticker'));
      // why: a price no earlier step used, so only this tick can explain it.
      await indexTick(server, 'ETHUSDT', '3210.5');
      const fresh = await client();
      fresh.send({ op: 'subscribe', channel: 'spot-ticker' });
      expect((await fresh.next(on('spot-ticker'))).data).toEqual(await tickers());
      const eth = (await tickers()).find((ticker: { symbol: string }) => ticker.symbol === 'ETHUSDT');
      expect(eth.index).toBe('3210.50000000');
      // the earlier subscriber gets ETHUSDT alone (nothing traded), with its new index
      expect((await watcher.next(on('spot-ticker'))).data).toEqual([eth]);
    });

    it('orders: refused before auth and with a bad token; after auth the caller’s orders only', async () => {
      const anonymous = await client();
      anonymous.send({ op: 'subscribe', channel: 'orders' });
      expect(await anonymous.next(() => true)).toEqual({
        op: 'error',
        msg: 'auth required',
        channel: 'orders',
      });
      anonymous.send({ op: 'auth', token: 'not-a-session' });
      expect(await anonymous.next(() => true)).toEqual({ op: 'error', msg: 'auth failed' });
      anonymous.send({ op: 'subscribe', channel: 'orders' });
      expect(await anonymous.next(() => true)).toEqual({
        op: 'error',
        msg: 'auth required',
        channel: 'orders',
      });

      const resting = await place(alice, { side: 'buy', price: '49000', qty: '0.001' });
      expect(resting.code).toBe(1000);
      const mine = await client();
      mine.send({ op: 'auth', token: alice.token });
      expect(await mine.next(() => true)).toEqual({ op: 'authed' });
      mine.send({ op: 'subscribe', channel: 'orders' });
      const open = await server.call('GET', '/Trade/openorders', {}, { token: alice.token });
      expect((await mine.next(on('orders'))).data).toEqual(open.data);
      expect(open.data.map((order: { id: string }) => order.id)).toContain(resting.data.id);

      // a new order that only rests is pushed as placed
      const another = await place(alice, { side: 'buy', price: '48000', qty: '0.001' });
      expect((await mine.next(on('orders'))).data).toEqual([another.data]);
      await server.call('POST', '/Trade/cancel', { id: another.data.id }, { token: alice.token });
      expect((await mine.next(on('orders'))).data).toEqual([
        { ...another.data, status: 'revoked', revoke_reason: 'user', updated_at: expect.any(Number) },
      ]);

      // bob's own order is never pushed to alice; the fill of alice's order is
      const sell = await place(bob, { side: 'sell', price: '49000', qty: '0.001' });
      expect(sell.code).toBe(1000);
      const pushed = (await mine.next(on('orders'))).data;
      const detail = await server.call(
        'GET',
        '/Trade/billinfo',
        { id: resting.data.id },
        { token: alice.token },
      );
      const { fills: _fills, ...order } = detail.data;
      expect(pushed).toEqual([order]);
      expect(order.status).toBe('completed');

      const cancelled = await place(bob, { side: 'sell', price: '51000', qty: '0.001' });
      await server.call('POST', '/Trade/cancel', { id: cancelled.data.id }, { token: bob.token });
      await sleep(100);
      expect(mine.unread('orders')).toEqual([]);
      expect(anonymous.unread('orders')).toEqual([]);
    });

    it('balances: every coin on subscribe, then the market’s coins when a batch moves them', async () => {
      const watcher = await client();
      watcher.send({ op: 'subscribe', channel: 'balances' });
      expect(await watcher.next(() => true)).toEqual({
        op: 'error',
        msg: 'auth required',
        channel: 'balances',
      });
      watcher.send({ op: 'auth', token: bob.token });
      expect(await watcher.next(() => true)).toEqual({ op: 'authed' });
      watcher.send({ op: 'subscribe', channel: 'balances' });
      const coin = async (name: string) =>
        (await server.call('POST', '/Finance/getcoinnum', { coin: name }, { token: bob.token })).data;
      const first = (await watcher.next(on('balances'))).data;
      expect(first).toEqual(
        expect.arrayContaining([await coin('USDT'), await coin('BTC'), await coin('ETH')]),
      );

      // a resting buy holds USDT: both coins of the market are pushed with the hold in frozen
      const buy = await place(bob, { side: 'buy', price: '47000', qty: '0.001' });
      expect(buy.code).toBe(1000);
      const pushed = (await watcher.next(on('balances'))).data;
      expect(pushed).toEqual([await coin('BTC'), await coin('USDT')]);
      expect(pushed[1].frozen).toBe('47.00000000');
      await server.call('POST', '/Trade/cancel', { id: buy.data.id }, { token: bob.token });
      expect((await watcher.next(on('balances'))).data).toEqual([await coin('BTC'), await coin('USDT')]);
    });
  });
});
