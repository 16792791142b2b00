import { afterAll, describe, expect, it } from 'vitest';
import { rebuildBook } from '../src/modules/spot/rebuild.ts';
import { findMarket } from '../src/modules/spot/repository.ts';
import type { TriggerBook } from '../src/modules/spot/trigger-book.ts';
import { newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { callAs, depth, placed, SPOT_ENV, type Trader } from './spot-harness.ts';
import { connect, on } from './ws-client.ts';

// The server listens before the markets' books are loaded: they load once it answers. Meanwhile
// `/readyz` reports the markets warming, an order for a market not loaded yet is matched against
// its book rebuilt from the store (the market taken up once, whoever asks first), and a `/ws`
// subscription to a channel the warm-up registers waits for it instead of being refused. A book is
// read a slice of open orders at a time (requests are answered between two), the same as at once.

const SYMBOL = 'BTCUSDT';

describe.each(DIALECTS)('serving while the books load on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    afterAll(async () => {
      if (server) await expectLedgerInvariants(server);
      await server?.close();
    });

    const markets = async () =>
      ((await (await fetch(`${server.url}/readyz`)).json()) as { checks: { markets: unknown } }).checks
        .markets;
    const leaseEpoch = async () =>
      (
        await server.app.ctx.store.db
          .selectFrom('market_leases')
          .select('epoch')
          .where('symbol', '=', SYMBOL)
          .executeTakeFirstOrThrow()
      ).epoch;
    const loggedIn = async (trader: Trader): Promise<Trader> => {
      const login = await server.call('POST', '/Login/loginsubmit', {
        email: trader.username,
        lpwd: trader.password,
      });
      expect(login.code).toBe(1000);
      return { ...trader, token: login.data.token };
    };

    it('answers before the books load: warming, an early order matched against the stored book, then loaded', async () => {
      server = await startServer(name, { env: SPOT_ENV });
      let maker = await newTrader(server);
      let taker = await newTrader(server);
      let bidder = await newTrader(server);
      const resting = await placed(server, maker, { side: 'sell', price: '50200', qty: '0.01' });
      const before = await leaseEpoch();
      const store = server.store;
      await server.close({ keepStore: true });

      server = await startServer(name, { env: SPOT_ENV, reuse: store, build: { serveWhileWarming: true } });
      const warmUp = server.app.ctx.warmUp;
      if (!warmUp) throw new Error('no warm-up');
      expect(await markets()).toMatchObject({
        status: 'degraded',
        detail: 'warming: the books are not loaded yet',
      });
      const watcher = await connect(server);
      watcher.send({ op: 'subscribe', channel: `depth:${SYMBOL}` });

      maker = await loggedIn(maker);
      taker = await loggedIn(taker);
      bidder = await loggedIn(bidder);
      // two orders at once for the market not loaded yet: both wait for one take of it
      const [taken, bid] = await Promise.all([
        placed(server, taker, { side: 'buy', price: '50200', qty: '0.01' }),
        placed(server, bidder, { side: 'buy', price: '49000', qty: '0.01' }),
      ]);
      expect(taken).toMatchObject({ status: 'completed', filled_qty: '0.01000000' });
      expect(bid).toMatchObject({ status: 'entrusted', filled_qty: '0.00000000' });
      const made = await callAs(server, maker, 'GET', '/Trade/billinfo', { id: resting.id });
      expect(made.data).toMatchObject({ status: 'completed', filled_qty: '0.01000000' });
      expect(await leaseEpoch()).toBe(before + 1n);
      // the subscription waits for the channel, not refused while the market data is not there
      expect(watcher.frames).toEqual([]);

      await warmUp.start();
      expect(await markets()).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(/^every book loaded \(in \d+ ms\)$/),
      });
      // the market the order took up is not taken again: one take, one rebuild
      expect(await leaseEpoch()).toBe(before + 1n);
      const snapshot = (await watcher.next(on(`depth:${SYMBOL}`))).data;
      const { asks, bids } = await depth(server);
      expect({ asks: snapshot.asks, bids: snapshot.bids }).toEqual({ asks, bids });
      expect(asks.find(([price]: [string]) => price === '50200.00000000')).toBeUndefined();
      expect(bids.find(([price]: [string]) => price === '49000.00000000')).toBeDefined();
      watcher.socket.close();
      await server.app.ctx.readiness?.firstCheck();
    });

    it('rebuilds a book read a slice at a time as the one read at once, trigger orders included', async () => {
      const [seller, buyer] = [await newTrader(server), await newTrader(server)];
      for (const price of ['50300', '50400', '50400', '50500']) {
        await placed(server, seller, { side: 'sell', price, qty: '0.01' });
      }
      await placed(server, buyer, { side: 'buy', price: '49100', qty: '0.02' });
      await placed(server, buyer, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '50600',
        price: '50700',
        qty: '0.01',
      });
      await placed(server, seller, {
        side: 'sell',
        type: 'stop_limit',
        trigger_price: '49500',
        price: '49400',
        qty: '0.01',
      });
      const db = server.app.ctx.store.db;
      const market = await findMarket(db, SYMBOL);
      if (!market) throw new Error('no market');
      const drain = (triggers: TriggerBook) => {
        const ids: bigint[] = [];
        for (const price of [10n ** 30n, 0n]) {
          for (let row = triggers.next(price); row; row = triggers.next(price)) ids.push(row.id);
        }
        return ids;
      };
      const whole = await rebuildBook(db, market);
      const armed = drain(whole.triggers);
      expect(armed).toHaveLength(2);
      expect(whole.live.size).toBeGreaterThanOrEqual(8);
      for (const slice of [1, 2, 3]) {
        const sliced = await rebuildBook(db, market, slice);
        expect(sliced.book.getStateHash()).toBe(whole.book.getStateHash());
        expect([...sliced.live.entries()]).toEqual([...whole.live.entries()]);
        expect(drain(sliced.triggers)).toEqual(armed);
      }
    });
  });
});
