import { setTimeout as sleep } from 'node:timers/promises';
import { fromAtoms } from '@bourse/shared';
import { KLINE_INTERVAL_MS, KLINE_INTERVALS, type KlineInterval } from '@bourse/shared/api';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PRUNE_JOB } from '../src/modules/markets/module.ts';
import type { MarketsService } from '../src/modules/markets/service.ts';
import { DIALECTS, type DialectName, startServer, type TestServer } from './harness.ts';

const START = Date.UTC(2026, 10, 22, 8, 0, 0);
const SECOND = 1000;

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** A `/ws` client that keeps the frames it receives, parsed. */
async function connect(base: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`);
  const frames: { channel?: string; op?: string; msg?: string; data?: any }[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const subscribe = (channel: string) => socket.send(JSON.stringify({ op: 'subscribe', channel }));
  const on = (channel: string) => frames.filter((f) => f.channel === channel).map((f) => f.data);
  return { socket, frames, subscribe, on };
}

/** Candles made by hand from ticks (oldest first): open of the first, high, low, close of the last. */
function candlesOf(ticks: { at: bigint; price: bigint }[], interval: KlineInterval) {
  const ms = BigInt(KLINE_INTERVAL_MS[interval]);
  const byBucket = new Map<bigint, { t: bigint; o: bigint; h: bigint; l: bigint; c: bigint }>();
  for (const { at, price } of ticks) {
    const t = (at / ms) * ms;
    const candle = byBucket.get(t);
    if (!candle) byBucket.set(t, { t, o: price, h: price, l: price, c: price });
    else {
      if (price > candle.h) candle.h = price;
      if (price < candle.l) candle.l = price;
      candle.c = price;
    }
  }
  return [...byBucket.values()];
}

async function startFeedServer(dialect: DialectName, env: Record<string, string> = {}) {
  const server = await startServer(dialect, { env: { DEMO: 'on', ...env }, build: { startFeed: true } });
  return { server, markets: server.app.ctx.markets as MarketsService, db: server.app.ctx.store.db };
}

describe.each(DIALECTS)('index history on $name', ({ name, skip }) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.skipIf(skip)(
    'records a tick per second per symbol while the feed runs, with exact candles and lookups',
    async () => {
      const started = await startFeedServer(name);
      ({ server } = started);
      const { markets, db } = started;
      expect(markets.latestIndex('BTCUSDT')).toBeUndefined();
      await server.clock.advance(130 * SECOND);

      const ticks = await db.selectFrom('index_ticks').selectAll().orderBy('symbol').orderBy('at').execute();
      const symbols = [...new Set(ticks.map((t) => t.symbol))];
      expect(symbols).toHaveLength(8);
      const expectedTimes = Array.from({ length: 130 }, (_, i) => BigInt(START + (i + 1) * SECOND));
      for (const symbol of symbols) {
        const own = ticks.filter((t) => t.symbol === symbol);
        expect(own.map((t) => t.at)).toEqual(expectedTimes);
        expect(own.every((t) => t.source === 'simulated' && t.price > 0n)).toBe(true);
        // the prices move: the index is the feed's walk, not a constant
        expect(new Set(own.map((t) => t.price)).size).toBeGreaterThan(100);

        const candles = await db
          .selectFrom('index_candles')
          .select(['interval', 't', 'o', 'h', 'l', 'c'])
          .where('symbol', '=', symbol)
          .orderBy('t')
          .execute();
        for (const interval of KLINE_INTERVALS) {
          const stored = candles.filter((c) => c.interval === interval).map(({ interval: _, ...c }) => c);
          expect(stored).toEqual(candlesOf(own, interval));
        }
        expect(candles.filter((c) => c.interval === '1m')).toHaveLength(3);

        // the latest price is recorded with the tick, and this node holds it in memory
        const last = own.at(-1)!;
        const price = await db
          .selectFrom('index_prices')
          .selectAll()
          .where('symbol', '=', symbol)
          .executeTakeFirstOrThrow();
        expect([price.price, price.updated_at, price.source]).toEqual([last.price, last.at, 'simulated']);
        // the simulated walk is the tick's one constituent, kept with the tick as decimal strings
        const constituent = { source: 'simulated', at: Number(last.at), used: true, reason: null };
        expect(JSON.parse(last.constituents!)).toEqual([{ ...constituent, price: fromAtoms(last.price) }]);
        expect(markets.latestIndex(symbol)).toEqual({
          symbol,
          price: last.price,
          at: Number(last.at),
          source: 'simulated',
          constituents: [{ ...constituent, price: last.price }],
        });
      }

      const btc = ticks.filter((t) => t.symbol === 'BTCUSDT');
      const at = (i: number) => ({
        price: btc[i]!.price,
        at: Number(btc[i]!.at),
        source: 'simulated',
        constituents: [
          { source: 'simulated', price: btc[i]!.price, at: Number(btc[i]!.at), used: true, reason: null },
        ],
      });
      expect(await markets.firstTickAtOrAfter(db, 'BTCUSDT', START + 1500)).toEqual(at(1));
      expect(await markets.firstTickAtOrAfter(db, 'BTCUSDT', START + 2000)).toEqual(at(1));
      expect(await markets.firstTickAtOrAfter(db, 'BTCUSDT', 0)).toEqual(at(0));
      expect(await markets.firstTickAtOrAfter(db, 'BTCUSDT', START + 130_001)).toBeUndefined();
      expect(await markets.firstTickAtOrAfter(db, 'NOPEUSDT', START)).toBeUndefined();

      // recording the same instant again changes nothing
      const again = await markets.recordIndex([
        { symbol: 'BTCUSDT', price: 1n, at: START + 130_000, source: 'simulated' },
      ]);
      expect(again).toEqual({ ticks: [], candles: [] });
      const closing = await db
        .selectFrom('index_candles')
        .select(['l', 'c'])
        .where('symbol', '=', 'BTCUSDT')
        .where('interval', '=', '1d')
        .executeTakeFirstOrThrow();
      expect(closing.c).toBe(btc.at(-1)!.price);
      expect(closing.l).not.toBe(1n);
    },
  );

  it.skipIf(skip)('answers the index and its candles over REST, and refuses bad input', async () => {
    const started = await startFeedServer(name);
    ({ server } = started);
    await server.clock.advance(70 * SECOND);
    const btc = await started.db
      .selectFrom('index_ticks')
      .selectAll()
      .where('symbol', '=', 'BTCUSDT')
      .orderBy('at')
      .execute();
    const wire = btc.map((t) => ({
      symbol: 'BTCUSDT',
      price: fromAtoms(t.price),
      at: Number(t.at),
      source: 'simulated',
      constituents: [
        { source: 'simulated', price: fromAtoms(t.price), at: Number(t.at), used: true, reason: null },
      ],
    }));

    const all = await server.call('GET', '/Market/index', { symbol: 'btcusdt' });
    expect([all.status, all.code]).toEqual([200, 1000]);
    expect(all.data).toEqual(wire);
    expect(all.data[0].price).toMatch(/^\d+\.\d{8}$/);
    const some = await server.call('GET', '/Market/index', {
      symbol: 'BTCUSDT',
      from: START + 10_500,
      to: START + 20_000,
      limit: 3,
    });
    expect(some.data).toEqual(wire.slice(10, 13));
    const window = await server.call('GET', '/Market/index', { symbol: 'BTCUSDT', to: START + 5000 });
    expect(window.data).toEqual(wire.slice(0, 5));

    const candles = candlesOf(btc, '1m').map((c) => ({
      t: Number(c.t),
      o: fromAtoms(c.o),
      h: fromAtoms(c.h),
      l: fromAtoms(c.l),
      c: fromAtoms(c.c),
    }));
    expect(candles).toHaveLength(2);
    const kline = await server.call('GET', '/Market/kline', { symbol: 'BTCUSDT', interval: '1m' });
    expect([kline.code, kline.data]).toEqual([1000, candles]);
    const older = await server.call('GET', '/Market/kline', {
      symbol: 'BTCUSDT',
      interval: '1m',
      before: START + 60_000,
    });
    expect(older.data).toEqual(candles.slice(0, 1));
    const newest = await server.call('GET', '/Market/kline', { symbol: 'BTCUSDT', interval: '1m', limit: 1 });
    expect(newest.data).toEqual(candles.slice(1));

    const refused: [string, Record<string, unknown>, number][] = [
      ['/Market/index', { symbol: 'NOPEUSDT' }, 7001],
      ['/Market/index', { symbol: 'BTC/USDT' }, 7001],
      ['/Market/index', {}, 1002],
      ['/Market/index', { symbol: 'BTCUSDT', limit: 0 }, 1001],
      ['/Market/index', { symbol: 'BTCUSDT', limit: 1001 }, 1001],
      ['/Market/index', { symbol: 'BTCUSDT', from: 'yesterday' }, 1001],
      ['/Market/index', { symbol: 'BTCUSDT', from: START + 10_000, to: START }, 1001],
      ['/Market/kline', { symbol: 'NOPEUSDT', interval: '1m' }, 7001],
      ['/Market/kline', { symbol: 'BTCUSDT', interval: '2m' }, 1001],
      ['/Market/kline', { symbol: 'BTCUSDT', interval: '1m', limit: 5000 }, 1001],
      ['/Market/kline', { symbol: 'BTCUSDT', interval: '1m', before: -1 }, 1001],
    ];
    for (const [path, params, code] of refused) {
      const answer = await server.call('GET', path, params, { lang: 'en-us' });
      expect([path, params, answer.status, answer.code, answer.data]).toEqual([
        path,
        params,
        200,
        code,
        null,
      ]);
      expect(answer.msg).not.toMatch(/^errors\./);
    }
    await server.app.ctx.store.db
      .updateTable('markets')
      .set({ status: 'disabled' })
      .where('symbol', '=', 'ETHUSDT')
      .execute();
    expect((await server.call('GET', '/Market/index', { symbol: 'ETHUSDT' })).code).toBe(7001);
  });

  it.skipIf(skip)('pushes index ticks and candles on /ws: the snapshot, then every update', async () => {
    const started = await startFeedServer(name);
    ({ server } = started);
    const client = await connect(server.url);
    client.subscribe('index:BTCUSDT');
    client.subscribe('kline:BTCUSDT:1m');
    client.subscribe('kline:BTCUSDT:2m');
    await until(() => client.frames.length === 3);
    // nothing recorded yet: the snapshots say so
    expect(client.on('index:BTCUSDT')).toEqual([null]);
    expect(client.on('kline:BTCUSDT:1m')).toEqual([null]);
    expect(client.frames[2]).toEqual({ op: 'error', msg: 'unknown channel', channel: 'kline:BTCUSDT:2m' });

    await server.clock.advance(SECOND);
    await server.clock.advance(SECOND);
    await until(() => client.on('index:BTCUSDT').length === 3 && client.on('kline:BTCUSDT:1m').length === 3);
    const ticks = await started.db
      .selectFrom('index_ticks')
      .selectAll()
      .where('symbol', '=', 'BTCUSDT')
      .orderBy('at')
      .execute();
    const wire = ticks.map((t) => ({
      symbol: 'BTCUSDT',
      price: fromAtoms(t.price),
      at: Number(t.at),
      source: 'simulated',
      constituents: [
        { source: 'simulated', price: fromAtoms(t.price), at: Number(t.at), used: true, reason: null },
      ],
    }));
    expect(client.on('index:BTCUSDT')).toEqual([null, ...wire]);
    const [first, second] = ticks.map((t) => fromAtoms(t.price)) as [string, string];
    const high = ticks[0]!.price > ticks[1]!.price ? first : second;
    const low = ticks[0]!.price > ticks[1]!.price ? second : first;
    expect(client.on('kline:BTCUSDT:1m')).toEqual([
      null,
      { symbol: 'BTCUSDT', interval: '1m', candle: { t: START, o: first, h: first, l: first, c: first } },
      { symbol: 'BTCUSDT', interval: '1m', candle: { t: START, o: first, h: high, l: low, c: second } },
    ]);

    // a later subscriber gets the latest as its snapshot
    const late = await connect(server.url);
    late.subscribe('index:BTCUSDT');
    late.subscribe('kline:BTCUSDT:1d');
    await until(() => late.frames.length === 2);
    expect(late.on('index:BTCUSDT')).toEqual([wire[1]]);
    expect(late.on('kline:BTCUSDT:1d')).toEqual([
      {
        symbol: 'BTCUSDT',
        interval: '1d',
        candle: { t: Date.UTC(2026, 10, 22), o: first, h: high, l: low, c: second },
      },
    ]);
    client.socket.close();
    late.socket.close();
  });

  it.skipIf(skip)('counts the index stale past INDEX_STALE_MS on the clock', async () => {
    const started = await startFeedServer(name, { INDEX_STALE_MS: '3000' });
    ({ server } = started);
    const { markets } = started;
    expect(markets.indexStaleMs).toBe(3000);
    expect(markets.isIndexStale('BTCUSDT', server.clock.now())).toBe(true);
    await server.clock.advance(SECOND);
    const at = START + SECOND;
    expect(markets.latestIndex('BTCUSDT')?.at).toBe(at);
    expect(markets.isIndexStale('BTCUSDT', at)).toBe(false);
    expect(markets.isIndexStale('BTCUSDT', at + 3000)).toBe(false);
    expect(markets.isIndexStale('BTCUSDT', at + 3001)).toBe(true);
    expect(markets.isIndexStale('NOPEUSDT', at)).toBe(true);
    // a tick recorded through the service is what this node has seen last
    await markets.recordIndex([{ symbol: 'BTCUSDT', price: 5n, at: at + 10_000, source: 'simulated' }]);
    expect(markets.latestIndex('BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      price: 5n,
      at: at + 10_000,
      source: 'simulated',
      constituents: [],
    });
    expect(markets.isIndexStale('BTCUSDT', at + 13_000)).toBe(false);
    expect(markets.isIndexStale('BTCUSDT', at + 13_001)).toBe(true);
  });

  it.skipIf(skip)('prunes ticks past the retention every hour and keeps the candles', async () => {
    // why: a feed step an hour long keeps the test to one step while the hourly job comes due.
    const started = await startFeedServer(name, {
      INDEX_TICK_RETENTION_DAYS: '1',
      FEED_INTERVAL_MS: String(60 * 60 * SECOND),
    });
    ({ server } = started);
    const { markets, db } = started;
    const pruneAt = START + 60 * 60 * SECOND;
    const cutoff = pruneAt - 24 * 60 * 60 * SECOND;
    const tick = (at: number) => ({ symbol: 'BTCUSDT', price: 100n, at, source: 'simulated' });
    await markets.recordIndex([tick(cutoff - 2 * 60 * SECOND)]);
    await markets.recordIndex([tick(cutoff - 1)]);
    await markets.recordIndex([tick(cutoff)]);
    await markets.recordIndex([tick(cutoff + 1)]);
    const candlesBefore = await db
      .selectFrom('index_candles')
      .selectAll()
      .orderBy('t')
      .orderBy('interval')
      .execute();
    expect(candlesBefore.filter((c) => c.interval === '1m')).toHaveLength(3);

    await server.clock.advance(60 * 60 * SECOND);
    const left = await db
      .selectFrom('index_ticks')
      .select(['symbol', 'at'])
      .where('symbol', '=', 'BTCUSDT')
      .orderBy('at')
      .execute();
    expect(left.map((t) => Number(t.at))).toEqual([cutoff, cutoff + 1, pruneAt]);
    // the candles of the pruned ticks stay as they were
    const candlesAfter = await db
      .selectFrom('index_candles')
      .selectAll()
      .where('t', '<=', BigInt(cutoff))
      .orderBy('t')
      .orderBy('interval')
      .execute();
    expect(candlesAfter).toEqual(candlesBefore);
    const lease = await db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', PRUNE_JOB)
      .executeTakeFirst();
    expect(lease?.holder).toBe(server.app.ctx.scheduler.holder);
  });
});
