import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Ticker } from '@bourse/shared';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { FEED_JOB, TICKERS_SUBJECT } from '../src/modules/markets/module.ts';
import { SimulatedPriceFeed } from '../src/modules/markets/price-feed.ts';
import { MarketsService } from '../src/modules/markets/service.ts';
import type { BusEvent } from '../src/platform/bus.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { streamNameFor } from '../src/platform/nats-bus.ts';
import { DEMO_LISTINGS } from '../src/seed.ts';
import { createPostgresDatabase, DIALECTS, type DialectName } from './harness.ts';

const START = Date.UTC(2026, 10, 23, 8, 0, 0);
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A store that outlives the apps built on it, as a data directory outlives a restart. */
async function openStore(dialect: DialectName) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-markets-'));
  const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
  const apps: FastifyInstance[] = [];
  return {
    async build(clock: ManualClock, options: { runFeed?: boolean; env?: Record<string, string> } = {}) {
      const config = loadConfig(
        { CAPTCHA: 'off', DEMO: 'on', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...options.env },
        { databaseUrl: database?.url, feedSeed: 20261122 },
      );
      const app = await buildApp({ config, clock, startFeed: options.runFeed ?? false, logger: false });
      apps.push(app);
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const tickers = async (): Promise<Ticker[]> => {
        const answer = (await (await fetch(`${url}/apiv/Market/tickers`)).json()) as { data: Ticker[] };
        return answer.data;
      };
      return { app, tickers, feed: app.ctx.feed as SimulatedPriceFeed, db: app.ctx.store.db };
    },
    async close() {
      for (const app of apps.splice(0)) await app.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitFor(predicate: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const DEMO_SYMBOLS = DEMO_LISTINGS.markets.map((m) => m.symbol);

describe.each(DIALECTS)('markets and the index feed on $name', ({ name, skip }) => {
  let store: Awaited<ReturnType<typeof openStore>> | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it.skipIf(skip)(
    'serves the markets the demo seed listed, each ticker with its price decimals',
    async () => {
      store = await openStore(name);
      const { tickers, db } = await store.build(new ManualClock(START));
      const coins = await db
        .selectFrom('coins')
        .select(['symbol', 'display_decimals', 'status'])
        .orderBy('sort')
        .execute();
      expect(coins.map((c) => c.symbol)).toEqual([
        'USDT',
        'BTC',
        'ETH',
        'SOL',
        'XRP',
        'DOGE',
        'LTC',
        'BNB',
        'TRX',
        // the launchpad's demo projects list their coins after the others
        'NOVA',
        'ORBT',
        'LUMA',
      ]);
      expect(coins.slice(0, 9).every((c) => c.display_decimals === 8n && c.status === 'active')).toBe(true);
      const markets = await db
        .selectFrom('markets')
        .select(['symbol', 'base', 'quote', 'price_decimals'])
        .orderBy('sort')
        .execute();
      expect(markets[2]).toEqual({ symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', price_decimals: 3n });
      const list = await tickers();
      expect(list.map((t) => [t.symbol, t.priceDecimals])).toEqual([
        ['BTCUSDT', 2],
        ['ETHUSDT', 2],
        ['SOLUSDT', 3],
        ['XRPUSDT', 4],
        ['DOGEUSDT', 5],
        ['LTCUSDT', 2],
        ['BNBUSDT', 2],
        ['TRXUSDT', 5],
      ]);
      for (const ticker of list) expect(ticker.price.split('.')[1]).toHaveLength(ticker.priceDecimals);
    },
  );

  it.skipIf(skip)(
    'builds the feed from the markets table: disabled markets leave, new ones join',
    async () => {
      store = await openStore(name);
      const first = await store.build(new ManualClock(START));
      const service = new MarketsService({ db: first.db });
      await first.db
        .updateTable('markets')
        .set({ status: 'disabled' })
        .where('symbol', '=', 'DOGEUSDT')
        .execute();
      await first.db.transaction().execute((trx) =>
        service.addListings(trx, {
          coins: [{ symbol: 'ADA', name: 'Cardano', displayDecimals: 8 }],
          markets: [
            ...DEMO_LISTINGS.markets,
            { symbol: 'ADAUSDT', base: 'ADA', quote: 'USDT', priceDecimals: 4 },
          ],
        }),
      );
      await first.app.close();
      // a restart keeps the operator's changes: the seed adds only what is missing
      const second = await store.build(new ManualClock(START + 60_000));
      const symbols = (await second.tickers()).map((t) => t.symbol);
      expect(symbols).toEqual([...DEMO_SYMBOLS.filter((s) => s !== 'DOGEUSDT'), 'ADAUSDT']);
      expect((await second.tickers()).at(-1)!.price).toMatch(/^\d+\.\d{4}$/);
    },
  );

  it.skipIf(skip)('continues from the last recorded price after a restart, exactly', async () => {
    store = await openStore(name);
    const clock = new ManualClock(START);
    const first = await store.build(clock, { runFeed: true });
    const seedPrices = first.feed.prices().map((p) => p.price);
    await clock.advance(3000);
    const recorded = await first.db
      .selectFrom('index_prices')
      .select(['symbol', 'price', 'source', 'updated_at'])
      .orderBy('symbol')
      .execute();
    expect(recorded).toHaveLength(8);
    expect(recorded.every((r) => r.source === 'simulated' && r.updated_at === BigInt(START + 3000))).toBe(
      true,
    );
    const shownBefore = await first.tickers();
    const exactBefore = first.feed.prices();
    expect(exactBefore.map((p) => p.price)).not.toEqual(seedPrices);
    const bySymbol = new Map(recorded.map((r) => [r.symbol, r.price]));
    expect(exactBefore.map((p) => p.price)).toEqual(exactBefore.map((p) => bySymbol.get(p.symbol)));
    await first.app.close();

    const later = new ManualClock(START + 3_600_000);
    const second = await store.build(later, { runFeed: true });
    expect(second.feed.prices().map((p) => [p.symbol, p.price])).toEqual(
      exactBefore.map((p) => [p.symbol, p.price]),
    );
    const shownAfter = await second.tickers();
    expect(shownAfter.map((t) => t.price)).toEqual(shownBefore.map((t) => t.price));
    expect(shownAfter[0]!.ts).toBe(later.now());
    // and it moves on from there
    await later.advance(1000);
    expect(second.feed.prices()[0]!.price).not.toBe(exactBefore[0]!.price);
  });

  it.skipIf(skip)('publishes every tick on the bus, after recording it', async () => {
    store = await openStore(name);
    const clock = new ManualClock(START);
    const node = await store.build(clock, { runFeed: true });
    const events: { event: BusEvent<Ticker[]>; recordedAt: bigint | undefined }[] = [];
    await node.app.ctx.bus.subscribe<Ticker[]>(TICKERS_SUBJECT, async (event) => {
      const row = await node.db
        .selectFrom('index_prices')
        .select('updated_at')
        .where('symbol', '=', 'BTCUSDT')
        .executeTakeFirst();
      events.push({ event, recordedAt: row?.updated_at });
    });
    await clock.advance(2000);
    await waitFor(() => events.length === 2);
    expect(events.map((e) => e.event.data[0]!.ts)).toEqual([START + 1000, START + 2000]);
    expect(events[1]!.event.seq > events[0]!.event.seq).toBe(true);
    expect(events[0]!.recordedAt! >= BigInt(START + 1000)).toBe(true);
    const lease = await node.db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', FEED_JOB)
      .executeTakeFirst();
    expect(lease?.holder).toBe(node.app.ctx.scheduler.holder);
  });
});

const natsReachable = await connect({ servers: NATS_URL, timeout: 1500, maxReconnectAttempts: 0 })
  .then((nc) => nc.close().then(() => true))
  .catch(() => false);
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
const scaleOutSkip = !natsReachable
  ? `NATS at ${NATS_URL} did not answer`
  : postgres.skip
    ? 'no PostgreSQL'
    : null;
if (scaleOutSkip) console.warn(`[skip] two-node markets test skipped: ${scaleOutSkip}`);

describe.skipIf(scaleOutSkip !== null)('two nodes on PostgreSQL and NATS', () => {
  let store: Awaited<ReturnType<typeof openStore>> | undefined;
  const prefix = `bourse_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(streamNameFor(prefix)).catch(() => {});
    await nc.close();
  });

  it('one node moves the feed, both serve its tickers; the other takes over when it stops', async () => {
    store = await openStore('postgres');
    const clock = new ManualClock(START);
    const env = { NATS_URL, NATS_PREFIX: prefix };
    const a = await store.build(clock, { runFeed: true, env });
    const b = await store.build(clock, { runFeed: true, env });
    const bStill = b.feed.prices();
    await clock.advance(1000);
    const moved = await a.tickers();
    expect(moved[0]!.ts).toBe(START + 1000);
    await waitFor(async () => (await b.tickers())[0]!.ts === START + 1000);
    expect(await b.tickers()).toEqual(moved);
    // node b did not move its own feed: the lease kept the job on node a
    expect(b.feed.prices().map((p) => p.price)).toEqual(bStill.map((p) => p.price));

    const recordedByA = a.feed.prices();
    await a.app.close();
    await clock.advance(1000);
    // b took over from a's recorded prices and moved one step from there: exactly what a feed
    // resumed from those records makes of one step
    const rows = await b.db.selectFrom('index_prices').select(['symbol', 'updated_at']).execute();
    expect(rows.every((r) => r.updated_at === BigInt(START + 2000))).toBe(true);
    const { feedSeed, feedIntervalMs } = b.app.ctx.config;
    const expected = new SimulatedPriceFeed({ seed: feedSeed, intervalMs: feedIntervalMs, clock });
    expected.load(DEMO_LISTINGS.markets, recordedByA);
    expected.step();
    expect(b.feed.prices()).toEqual(expected.prices());
    await waitFor(async () => (await b.tickers())[0]!.ts === START + 2000);
  });
});
