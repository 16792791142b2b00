import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketMakerModule } from '../src/modules/mm/module.ts';
import { MAKER_USERNAME } from '../src/modules/mm/service.ts';
import { indexTick } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { captureLog } from './logged-server.ts';
import { connect, until } from './ws-client.ts';

const IDLE_MS = 15 * 60_000;
const ROUNDS = 10;
const ENV = { DEMO: 'on', LOG_LEVEL: 'info' };

/** The store's money and order records: what the bots must not grow while nobody is there. */
async function records(server: TestServer) {
  const db = server.app.ctx.store.db;
  const count = async (table: 'postings' | 'journal_entries' | 'spot_orders' | 'spot_trades') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<bigint>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    postings: await count('postings'),
    entries: await count('journal_entries'),
    orders: await count('spot_orders'),
    trades: await count('spot_trades'),
  };
}

/** The maker's open orders over every market it has settings for. */
async function makerOpenOrders(server: TestServer): Promise<number> {
  const mm = server.app.ctx.marketMaker!;
  const makerId = (await mm.service.accountId(MAKER_USERNAME))!;
  let open = 0;
  for (const { symbol } of (await mm.service.getSettings()).markets) {
    open += (await server.app.ctx.spot!.openOrders(makerId, symbol)).length;
  }
  return open;
}

/** One round of each bot a second apart, the index moved 1 % each time (an active maker re-quotes). */
async function rounds(server: TestServer, n: number, from = 50_000) {
  const mm = server.app.ctx.marketMaker!;
  for (let i = 0; i < n; i++) {
    await server.clock.advance(1000);
    await indexTick(server, 'BTCUSDT', String(from + (i % 2 === 0 ? 500 : -500)));
    await mm.service.runOnce();
    await mm.demoTraders.runOnce();
  }
}

/** A visitor who is not signed in opens a market's book. */
async function visit(server: TestServer) {
  expect((await server.call('GET', '/Market/depth', { symbol: 'BTCUSDT' })).code).toBe(1000);
}

async function storedLastSeen(server: TestServer): Promise<number | undefined> {
  const row = await server.app.ctx.store.db
    .selectFrom('customer_activity')
    .select('last_seen_at')
    .executeTakeFirst();
  return row ? Number(row.last_seen_at) : undefined;
}

/**
 * Demo mode's pause of the bots (README, "The demo's bots pause without customers") on a real
 * store: without a customer the maker and the demo traders write nothing; a request through the
 * app, an open socket, or a customer of another node on the same store starts them on the next
 * round; after DEMO_IDLE_MINUTES the maker withdraws its quotes once and nothing grows.
 */
describe.each(DIALECTS)('demo bots without customers on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let mm: MarketMakerModule;
    const log = captureLog();
    const logged = (msg: string) => log.lines().filter((line) => line.msg?.startsWith(msg)).length;

    beforeAll(async () => {
      server = await startServer(name, { env: ENV, build: { logger: true, logStream: log.stream } });
      mm = server.app.ctx.marketMaker!;
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('with no customer yet, rounds of the maker and the demo traders add no order, posting or trade', async () => {
      expect(mm.activity).toBeDefined();
      expect(await storedLastSeen(server)).toBeUndefined();
      const before = await records(server);
      await rounds(server, ROUNDS);
      expect(await records(server)).toEqual(before);
      expect(await makerOpenOrders(server)).toBe(0);
      expect(logged('demo bots paused')).toBe(1);
      expect(logged('demo bots resumed')).toBe(0);
    });

    it('a visitor’s request through the app starts them on the next round', async () => {
      const before = await records(server);
      await visit(server);
      await mm.activity!.flush();
      expect(await storedLastSeen(server)).toBe(server.clock.now());
      await rounds(server, 1);
      // why: the demo defaults: 8 levels a side on BTCUSDT, the one market with an index.
      expect(await makerOpenOrders(server)).toBe(16);
      const after = await records(server);
      expect(after.trades).toBe(before.trades + 1);
      expect(after.postings).toBeGreaterThan(before.postings);
      expect(logged('demo bots resumed')).toBe(1);
    });

    it(`after ${IDLE_MS / 60_000} minutes without a customer the maker withdraws its quotes once, then nothing grows`, async () => {
      const seen = (await storedLastSeen(server))!;
      await server.clock.advance(seen + IDLE_MS - 1 - server.clock.now());
      await indexTick(server, 'BTCUSDT', '50000');
      await mm.service.runOnce();
      expect(await makerOpenOrders(server)).toBe(16);

      await server.clock.advance(1);
      await indexTick(server, 'BTCUSDT', '50000');
      await mm.service.runOnce();
      expect(await makerOpenOrders(server)).toBe(0);
      expect(await server.app.ctx.spot!.depth('BTCUSDT', 20)).toMatchObject({ bids: [], asks: [] });
      const before = await records(server);
      await rounds(server, ROUNDS);
      expect(await records(server)).toEqual(before);
      expect(await makerOpenOrders(server)).toBe(0);
      expect(logged('demo bots paused')).toBe(2);
      expect(logged('demo bots resumed')).toBe(1);
    });

    it('a request writes the row at most every 30 s; back-office and health requests do not count', async () => {
      await visit(server);
      await mm.activity!.flush();
      const written = (await storedLastSeen(server))!;
      expect(written).toBe(server.clock.now());
      await server.clock.advance(29_999);
      await visit(server);
      await mm.activity!.flush();
      expect(await storedLastSeen(server)).toBe(written);
      await server.clock.advance(1);
      await fetch(`${server.url}/admin-api/me`);
      await fetch(`${server.url}/healthz`);
      await mm.activity!.flush();
      expect(await storedLastSeen(server)).toBe(written);
      await visit(server);
      await mm.activity!.flush();
      expect(await storedLastSeen(server)).toBe(written + 30_000);
    });

    it('an open customer socket keeps them running; once it is closed they pause', async () => {
      await server.clock.advance(IDLE_MS);
      await rounds(server, 1);
      expect(await makerOpenOrders(server)).toBe(0);

      const socket = await connect(server);
      await server.clock.advance(IDLE_MS);
      // why: what the node's socket timer does every 30 s while it holds customer sockets.
      mm.activity!.touchWhileOpen(server.app.ctx.gateway.connectionCount);
      await rounds(server, 1);
      expect(await makerOpenOrders(server)).toBe(16);

      socket.socket.close();
      expect(await until(() => server.app.ctx.gateway.connectionCount === 0)).toBe(true);
      await server.clock.advance(IDLE_MS);
      mm.activity!.touchWhileOpen(server.app.ctx.gateway.connectionCount);
      await rounds(server, 1);
      expect(await makerOpenOrders(server)).toBe(0);
      expect(logged('demo bots paused')).toBe(3);
      expect(logged('demo bots resumed')).toBe(2);
    });

    it('the demo’s perpetual maker pauses with them: no ladder without a customer, withdrawn once idle', async () => {
      const perp = server.app.ctx.perpetual!;
      const open = async () =>
        (
          await server.app.ctx.store.db
            .selectFrom('perp_orders')
            .select((eb) => eb.fn.countAll<bigint>().as('n'))
            .where('state', 'in', ['new', 'partial'])
            .executeTakeFirstOrThrow()
        ).n;
      const perpOrders = async () =>
        (
          await server.app.ctx.store.db
            .selectFrom('perp_orders')
            .select((eb) => eb.fn.countAll<bigint>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      // why: the job's interval is long enough never to fire here; the rounds are run by hand.
      perp.startMaker(3_600_000_000, mm.idle);
      await server.clock.advance(IDLE_MS);
      await indexTick(server, 'BTCUSDT', '60000');
      await perp.pricing.tick('BTCUSDT');
      const before = await perpOrders();
      for (let i = 0; i < ROUNDS; i++) await perp.maker.runOnce();
      expect(await perpOrders()).toBe(before);

      await visit(server);
      await mm.activity!.flush();
      await perp.maker.runOnce();
      // why: the demo ladder: 5 levels a side on BTCUSDT, the one perpetual market with an index.
      expect(await open()).toBe(10n);

      await server.clock.advance(IDLE_MS);
      await indexTick(server, 'BTCUSDT', '60000');
      await perp.maker.runOnce();
      expect(await open()).toBe(0n);
      const withdrawn = await perpOrders();
      for (let i = 0; i < ROUNDS; i++) await perp.maker.runOnce();
      expect(await perpOrders()).toBe(withdrawn);
    });

    it('a customer of another node on the same store starts them too', async () => {
      // why: a second app on this store and clock: a node serving customers while this one runs the bots.
      const other = await startServer(name, {
        env: ENV,
        reuse: server.store,
        build: { clock: server.clock },
      });
      try {
        expect(await makerOpenOrders(server)).toBe(0);
        await visit(other);
        await other.app.ctx.marketMaker!.activity!.flush();
        expect(await storedLastSeen(server)).toBe(server.clock.now());
        await rounds(server, 1);
        expect(await makerOpenOrders(server)).toBe(16);
      } finally {
        await other.close({ keepStore: true });
      }
    });
  });
});

describe.each(DIALECTS)('demo bots with DEMO_IDLE_MINUTES=0 on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, { env: { DEMO: 'on', DEMO_IDLE_MINUTES: '0' } });
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('quote and trade without any customer, and nothing records activity', async () => {
      expect(server.app.ctx.marketMaker!.activity).toBeUndefined();
      await server.clock.advance(IDLE_MS + 60_000);
      const before = await records(server);
      await rounds(server, 1);
      expect(await makerOpenOrders(server)).toBe(16);
      expect((await records(server)).trades).toBe(before.trades + 1);
      await visit(server);
      expect(await storedLastSeen(server)).toBeUndefined();
    });
  });
});

describe('outside demo mode', () => {
  it('nothing pauses and no activity is recorded', async () => {
    const server = await startServer('sqlite', { env: { DEMO: 'off' } });
    try {
      expect(server.app.ctx.marketMaker!.activity).toBeUndefined();
      expect((await server.call('GET', '/Market/tickers')).code).toBe(1000);
      expect(await storedLastSeen(server)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
