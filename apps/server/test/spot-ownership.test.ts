import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { callAs, place, placed, SPOT_ENV, type Trader } from './spot-harness.ts';

// A market is written only by the node that owns it at the current epoch. Another node's
// takeover is played here by moving the lease and the market row in the store, as a node with
// the next epoch does: the batch this node then runs must write nothing, and its orders must be
// run again by the market's owner, rebuilt from the store. One node alone takes the market back.

const SYMBOL = 'BTCUSDT';

describe.each(DIALECTS)('spot market ownership on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let maker: Trader;
    let taker: Trader;

    const db = () => server.app.ctx.store.db;
    const lease = async () =>
      db()
        .selectFrom('market_leases')
        .select(['holder', 'epoch'])
        .where('symbol', '=', SYMBOL)
        .executeTakeFirstOrThrow();
    const marketEpoch = async () =>
      (
        await db()
          .selectFrom('spot_markets')
          .select('epoch')
          .where('symbol', '=', SYMBOL)
          .executeTakeFirstOrThrow()
      ).epoch;
    /** What another node does when it takes the market over: the next epoch, on the lease and the market. */
    const takeOverElsewhere = async () => {
      await db()
        .updateTable('market_leases')
        .set({ holder: 'another-node', epoch: sql`epoch + 1` })
        .where('symbol', '=', SYMBOL)
        .execute();
      await db()
        .updateTable('spot_markets')
        .set({ epoch: sql`epoch + 1` })
        .where('symbol', '=', SYMBOL)
        .execute();
    };
    const trades = async () =>
      Number(
        (
          await db()
            .selectFrom('spot_trades')
            .select(sql<bigint>`count(*)`.as('n'))
            .where('symbol', '=', SYMBOL)
            .executeTakeFirstOrThrow()
        ).n,
      );

    beforeAll(async () => {
      server = await startServer(name, { env: { ...SPOT_ENV, MARKET_LEASE_SECONDS: '1' } });
      await indexTick(server, SYMBOL, '50000');
      maker = await newTrader(server);
      taker = await newTrader(server);
    });
    afterAll(async () => {
      if (server) await expectLedgerInvariants(server);
      await server?.close();
    });

    it('holds every market at start under this node’s lease, the market row at the lease’s epoch', async () => {
      const held = await lease();
      expect(held.holder).toBe(server.config.nodeId);
      expect(await marketEpoch()).toBe(held.epoch);
    });

    it('a batch fenced by a newer epoch writes nothing; the order is placed once, by the market taken back and rebuilt', async () => {
      const sell = await placed(server, maker, { side: 'sell', price: '50100', qty: '0.01' });
      const before = await lease();
      await takeOverElsewhere();
      const tradesBefore = await trades();
      const buy = await placed(server, taker, { side: 'buy', price: '50100', qty: '0.01' });
      expect(buy).toMatchObject({ status: 'completed', filled_qty: '0.01000000' });
      expect(await trades()).toBe(tradesBefore + 1);
      // why: only a fenced batch makes this node take the market again, at the epoch after the
      // other node's; without the fence the batch would have committed under the stale epoch.
      expect(await lease()).toEqual({ holder: server.config.nodeId, epoch: before.epoch + 2n });
      expect(await marketEpoch()).toBe(before.epoch + 2n);
      const sellNow = await callAs(server, maker, 'GET', '/Trade/billinfo', { id: sell.id });
      expect(sellNow.data).toMatchObject({ status: 'completed', filled_qty: '0.01000000' });
      const keys = await db()
        .selectFrom('spot_orders')
        .select(sql<bigint>`count(*)`.as('n'))
        .where('id', '=', BigInt(buy.id))
        .executeTakeFirstOrThrow();
      expect(Number(keys.n)).toBe(1);
    });

    it('never writes its memory over an order that ended elsewhere: the batch rolls back and the rebuilt book does not trade it', async () => {
      const sell = await placed(server, maker, { side: 'sell', price: '50200', qty: '0.01' });
      // why: as if another writer had ended the order; this node's book still holds it.
      await db()
        .updateTable('spot_orders')
        .set({ status: 'revoked' })
        .where('id', '=', BigInt(sell.id))
        .execute();
      const tradesBefore = await trades();
      const buy = await placed(server, taker, { side: 'buy', price: '50200', qty: '0.01' });
      expect(buy).toMatchObject({ status: 'entrusted', filled_qty: '0.00000000' });
      expect(await trades()).toBe(tradesBefore);
      const stored = await db()
        .selectFrom('spot_orders')
        .select(['status', 'filled_qty'])
        .where('id', '=', BigInt(sell.id))
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ status: 'revoked', filled_qty: 0n });
      // Put the order back as it was and let the market be rebuilt, then end both properly.
      await db()
        .updateTable('spot_orders')
        .set({ status: 'entrusted' })
        .where('id', '=', BigInt(sell.id))
        .execute();
      await callAs(server, taker, 'POST', '/Trade/cancel', { id: buy.id });
      await takeOverElsewhere();
      const cancelled = await callAs(server, maker, 'POST', '/Trade/cancel', { id: sell.id });
      expect(cancelled.data).toMatchObject({ status: 'revoked', filled_qty: '0.00000000' });
    });

    it('refuses a market whose open orders cross in the store instead of matching them without a record', async () => {
      const buy = await placed(server, taker, { side: 'buy', price: '49000', qty: '0.01' });
      const sell = await placed(server, maker, { side: 'sell', price: '51000', qty: '0.01' });
      // why: as if something had written the store past the sequencer: the two now cross.
      await db()
        .updateTable('spot_orders')
        .set({ price: 4_800_000_000_000n })
        .where('id', '=', BigInt(sell.id))
        .execute();
      await takeOverElsewhere();
      const tradesBefore = await trades();
      const refused = await place(server, taker, { side: 'buy', price: '49500', qty: '0.01' });
      expect(refused).toMatchObject({ code: 7050, status: 503 });
      expect(refused.msg).toBe('This market is temporarily unavailable. Please try again in a moment.');
      expect(await trades()).toBe(tradesBefore);
      // Once the store is put right, the market is taken up again.
      await db()
        .updateTable('spot_orders')
        .set({ price: 5_100_000_000_000n })
        .where('id', '=', BigInt(sell.id))
        .execute();
      const back = await callAs(server, maker, 'POST', '/Trade/cancel', { id: sell.id });
      expect(back.data).toMatchObject({ status: 'revoked' });
      expect((await callAs(server, taker, 'POST', '/Trade/cancel', { id: buy.id })).data).toMatchObject({
        status: 'revoked',
      });
      expect(await trades()).toBe(tradesBefore);
    });
  });
});
