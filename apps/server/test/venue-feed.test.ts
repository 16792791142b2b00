import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexAggregator } from '../src/modules/markets/index-price.ts';
import {
  isKnownVenue,
  tickerPriceAtoms,
  type VenueMarket,
  VenuePriceFeed,
  type VenueSourceState,
} from '../src/modules/markets/venue-feed.ts';
import { startVenue, startVenues, type VenueFixtures } from './venues/venue-server.ts';

const VENUES = ['binance', 'okx', 'bybit'] as const;
const BTC: VenueMarket = { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT' };
const SOL: VenueMarket = { symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT' };
// 100 bps = 1%; two live venues at least.
const aggregator = new IndexAggregator({ staleMs: 5000, outlierBps: 100, minSources: 2 });

let fixtures: VenueFixtures | undefined;
let feed: VenuePriceFeed | undefined;
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  await feed?.close();
  await fixtures?.close();
  feed = undefined;
  fixtures = undefined;
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

/** Polls `condition` every few milliseconds until it holds; fails with `what` after the deadline. */
async function waitFor<T>(
  what: string,
  condition: () => T | undefined | false,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function startFeed(
  markets: readonly VenueMarket[] = [BTC],
  options: { log?: (msg: string, data?: object) => void } = {},
) {
  fixtures = await startVenues();
  feed = new VenuePriceFeed({
    venues: VENUES,
    urls: fixtures.urls,
    clock: { now: () => Date.now() },
    backoff: { minMs: 30, maxMs: 150 },
    restPollMs: 30,
    log: (_level, msg, data) => options.log?.(msg, data),
  });
  feed.setMarkets(markets);
  await feed.start();
  return { fixtures, feed };
}

function state(venue: string, symbol = 'BTCUSDT'): VenueSourceState | undefined {
  return feed!.states().find((s) => s.venue === venue && s.symbol === symbol);
}

/** Waits until every venue quotes `symbol` at exactly these atoms. */
async function waitForPrices(prices: Record<string, bigint>, symbol = 'BTCUSDT') {
  return waitFor(
    `prices ${JSON.stringify(prices, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
    () => {
      const { quotes } = feed!.quotes(symbol);
      return (
        Object.entries(prices).every(([venue, price]) =>
          quotes.some((q) => q.source === venue && q.price === price),
        ) && quotes
      );
    },
  );
}

describe('VenuePriceFeed against the fixture venues', { timeout: 10_000 }, () => {
  it('makes the index the median of the three venues, over WebSocket, with their own timestamps', async () => {
    const { fixtures, feed } = await startFeed([BTC, SOL]);
    const at = Date.now() - 1000;
    fixtures.venues.binance.setPrice('BTC/USDT', '96500.12000000', at);
    fixtures.venues.okx.setPrice('BTC/USDT', '96501.3', at + 1);
    fixtures.venues.bybit.setPrice('BTC/USDT', '96499.87', at + 2);
    await waitForPrices({ binance: 9_650_012_000_000n, okx: 9_650_130_000_000n, bybit: 9_649_987_000_000n });

    const { quotes, missing } = feed.quotes('BTCUSDT');
    expect(quotes.map((q) => [q.source, q.at])).toEqual([
      ['binance', at],
      ['okx', at + 1],
      ['bybit', at + 2],
    ]);
    expect(missing).toEqual([]);
    const now = Date.now();
    expect(aggregator.aggregate(quotes, now, missing).index).toMatchObject({
      price: 9_650_012_000_000n,
      at: now,
      source: 'median(binance,bybit,okx)',
    });
    expect(
      feed
        .states()
        .filter((s) => s.symbol === 'BTCUSDT')
        .map((s) => [s.venue, s.state, s.transport]),
    ).toEqual([
      ['binance', 'up', 'ws'],
      ['bybit', 'up', 'ws'],
      ['okx', 'up', 'ws'],
    ]);

    // bybit does not list SOL/USDT: the index of SOL is made of the two that do.
    const sol = await waitFor(
      'SOL quotes',
      () => feed.quotes('SOLUSDT').quotes.length === 2 && feed.quotes('SOLUSDT'),
    );
    expect(sol.missing).toEqual([{ source: 'bybit', reason: 'unmapped' }]);
    expect(aggregator.aggregate(sol.quotes, Date.now(), sol.missing).index).toMatchObject({
      price: 23_842_000_000n,
      source: 'median(binance,okx)',
    });
  });

  it('follows the prices as they move, and tells listeners', async () => {
    const { fixtures, feed } = await startFeed();
    await waitFor('three quotes', () => feed.quotes('BTCUSDT').quotes.length === 3);
    const moved: string[] = [];
    feed.onQuote((symbol) => moved.push(symbol));
    fixtures.venues.okx.setPrice('BTC/USDT', '97000.00000001');
    await waitForPrices({ okx: 9_700_000_000_001n });
    expect(moved).toContain('BTCUSDT');
  });

  it('drops a venue that stopped updating as stale', async () => {
    const { fixtures, feed } = await startFeed();
    const start = Date.now() - 20_000;
    for (const venue of VENUES) fixtures.venues[venue].setPrice('BTC/USDT', '96500', start);
    await waitFor(
      'first quotes',
      () => feed.quotes('BTCUSDT').quotes.filter((q) => q.at === start).length === 3,
    );
    // why: okx goes quiet; the others move on ten seconds later.
    fixtures.venues.binance.setPrice('BTC/USDT', '96510', start + 10_000);
    fixtures.venues.bybit.setPrice('BTC/USDT', '96520', start + 10_000);
    const { quotes, missing } = await waitFor('later quotes', () => {
      const current = feed.quotes('BTCUSDT');
      return current.quotes.filter((q) => q.at === start + 10_000).length === 2 && current;
    });
    const { index, constituents } = aggregator.aggregate(quotes, start + 12_000, missing);
    expect(index).toMatchObject({ price: 9_651_500_000_000n, source: 'median(binance,bybit)' });
    expect(constituents.find((c) => c.source === 'okx')).toEqual({
      source: 'okx',
      price: 9_650_000_000_000n,
      at: start,
      used: false,
      reason: 'stale',
    });
  });

  it('drops a venue quoting far from the others as an outlier', async () => {
    const { fixtures, feed } = await startFeed();
    fixtures.venues.binance.setPrice('BTC/USDT', '96500');
    fixtures.venues.okx.setPrice('BTC/USDT', '96600');
    fixtures.venues.bybit.setPrice('BTC/USDT', '88000.5');
    await waitForPrices({ binance: 9_650_000_000_000n, okx: 9_660_000_000_000n, bybit: 8_800_050_000_000n });
    const { quotes, missing } = feed.quotes('BTCUSDT');
    const { index, constituents } = aggregator.aggregate(quotes, Date.now(), missing);
    expect(index).toMatchObject({ price: 9_655_000_000_000n, source: 'median(binance,okx)' });
    expect(constituents.map((c) => [c.source, c.used, c.reason])).toEqual([
      ['binance', true, null],
      ['bybit', false, 'outlier'],
      ['okx', true, null],
    ]);
  });

  it('marks a venue down when it drops mid-stream, and resumes over WebSocket when it comes back', async () => {
    const { fixtures, feed } = await startFeed();
    await waitFor('okx up', () => state('okx')?.state === 'up');
    const okx = fixtures.venues.okx;
    okx.refuseConnections(true);
    okx.dropConnections();
    await waitFor('okx down', () => state('okx')?.state === 'down');
    expect(state('okx')?.error).toBeTruthy();
    expect(feed.quotes('BTCUSDT').missing).toEqual([{ source: 'okx', reason: 'down' }]);
    expect(aggregator.aggregate(feed.quotes('BTCUSDT').quotes, Date.now()).index?.source).toBe(
      'median(binance,bybit)',
    );

    okx.setPrice('BTC/USDT', '96555.5');
    okx.refuseConnections(false);
    await waitFor('okx back over WebSocket', () => {
      const s = state('okx');
      return s?.state === 'up' && s.transport === 'ws' && s.price === 9_655_550_000_000n;
    });
    okx.setPrice('BTC/USDT', '96556.5');
    await waitForPrices({ okx: 9_655_650_000_000n });
    expect(state('okx')).toMatchObject({ state: 'up', transport: 'ws', error: null, failures: 1 });
  });

  it('falls back to REST polling while the WebSockets are refused, and returns to them', async () => {
    fixtures = await startVenues();
    for (const venue of VENUES) fixtures.venues[venue].refuseWebSockets(true);
    feed = new VenuePriceFeed({
      venues: VENUES,
      urls: fixtures.urls,
      clock: { now: () => Date.now() },
      backoff: { minMs: 200, maxMs: 400 },
      restPollMs: 20,
    });
    feed.setMarkets([BTC]);
    await feed.start();
    const refusedSince = performance.now();
    await waitFor('all up over REST', () =>
      feed!.states().every((s) => s.state === 'up' && s.transport === 'rest'),
    );
    const at = Date.now() - 500;
    fixtures.venues.binance.setPrice('BTC/USDT', '96400.01', at);
    fixtures.venues.okx.setPrice('BTC/USDT', '96400.2', at);
    fixtures.venues.bybit.setPrice('BTC/USDT', '96400.03', at);
    const quotes = await waitForPrices({
      binance: 9_640_001_000_000n,
      okx: 9_640_020_000_000n,
      bybit: 9_640_003_000_000n,
    });
    // why: Bybit's REST ticker carries no time of its own (ccxt leaves it out), so its quote is timed on receipt.
    expect(quotes.map((q) => q.at)).toEqual([at, at, expect.any(Number)]);
    expect(quotes[2]!.at).toBeGreaterThan(at);
    expect(aggregator.aggregate(quotes, Date.now()).index?.price).toBe(9_640_003_000_000n);
    expect(fixtures.venues.binance.requests).toContain('GET /api/v3/ticker/24hr?symbol=BTCUSDT');
    expect(fixtures.venues.okx.requests).toContain('GET /api/v5/market/ticker?instId=BTC-USDT');
    expect(fixtures.venues.bybit.requests).toContain('GET /v5/market/tickers?symbol=BTCUSDT&category=spot');

    // why: retries are spaced by the backoff (at least 200 ms here) however fast REST is polled.
    const refusedMs = performance.now() - refusedSince;
    for (const venue of VENUES) {
      const dials = fixtures.venues[venue].requests.filter((r) => r.startsWith('UPGRADE')).length;
      expect(dials).toBeGreaterThanOrEqual(1);
      expect(dials).toBeLessThanOrEqual(Math.ceil(refusedMs / 200) + 1);
    }
    for (const venue of VENUES) fixtures.venues[venue].refuseWebSockets(false);
    await waitFor('all back on WebSocket', () =>
      feed!.states().every((s) => s.state === 'up' && s.transport === 'ws'),
    );
    fixtures.venues.bybit.setPrice('BTC/USDT', '96400.04');
    await waitForPrices({ bybit: 9_640_004_000_000n });
    expect(state('bybit')?.transport).toBe('ws');
  });

  it('makes no index with fewer than two live venues, still listing them all', async () => {
    const { fixtures, feed } = await startFeed();
    await waitFor('three quotes', () => feed.quotes('BTCUSDT').quotes.length === 3);
    for (const venue of ['okx', 'bybit'] as const) {
      fixtures.venues[venue].refuseConnections(true);
      fixtures.venues[venue].dropConnections();
    }
    await waitFor(
      'okx and bybit down',
      () => state('okx')?.state === 'down' && state('bybit')?.state === 'down',
    );
    const { quotes, missing } = feed.quotes('BTCUSDT');
    const { index, constituents } = aggregator.aggregate(quotes, Date.now(), missing);
    expect(index).toBeUndefined();
    expect(constituents.map((c) => [c.source, c.used, c.reason])).toEqual([
      ['binance', true, null],
      ['bybit', false, 'down'],
      ['okx', false, 'down'],
    ]);
  });

  it.each(VENUES)(
    'marks %s down when it sends garbage, without a crash, while the others go on',
    async (venue) => {
      const warnings: object[] = [];
      const { fixtures, feed } = await startFeed([BTC], {
        log: (msg, data) => msg === 'index source down' && warnings.push(data ?? {}),
      });
      await waitFor('three quotes', () => feed.quotes('BTCUSDT').quotes.length === 3);
      fixtures.venues[venue].sendGarbage();
      await waitFor(`${venue} marked down`, () => (state(venue)?.failures ?? 0) > 0);
      expect(warnings).toEqual([
        expect.objectContaining({ venue, symbol: 'BTCUSDT', error: expect.any(String) }),
      ]);

      const others = VENUES.filter((v) => v !== venue);
      fixtures.venues[others[0]!].setPrice('BTC/USDT', '96600.1');
      fixtures.venues[others[1]!].setPrice('BTC/USDT', '96600.2');
      await waitForPrices({ [others[0]!]: 9_660_010_000_000n, [others[1]!]: 9_660_020_000_000n });
      fixtures.venues[venue].setPrice('BTC/USDT', '96600.3');
      await waitForPrices({ [venue]: 9_660_030_000_000n });
      expect(state(venue)?.state).toBe('up');
    },
  );

  it('follows a changed mapping, and leaves a venue mapped to nothing out as unmapped', async () => {
    const { fixtures, feed } = await startFeed();
    await waitFor('three quotes', () => feed.quotes('BTCUSDT').quotes.length === 3);
    // why: the operator points okx's BTC index at ETH/USDT (a deliberate mistake that is easy to see) and drops bybit.
    feed.setMarkets([{ ...BTC, mappings: { okx: 'ETH/USDT', bybit: null } }]);
    fixtures.venues.okx.setPrice('ETH/USDT', '3450.61');
    await waitForPrices({ okx: 345_061_000_000n });
    expect(feed.quotes('BTCUSDT').missing).toEqual([{ source: 'bybit', reason: 'unmapped' }]);
    expect(state('okx')?.venueSymbol).toBe('ETH/USDT');
    expect(state('bybit')).toMatchObject({ venueSymbol: null, state: 'down' });
    expect(fixtures.venues.okx.requests.some((r) => r.includes('"instId":"ETH-USDT"'))).toBe(true);

    feed.setMarkets([]);
    expect(feed.states()).toEqual([]);
    expect(feed.quotes('BTCUSDT')).toEqual({ quotes: [], missing: [] });
  });

  it('starts without waiting for an unreachable venue, marks it down, and closes cleanly', async () => {
    const gone = await startVenue('okx');
    const url = gone.url;
    await gone.close();
    fixtures = await startVenues();
    feed = new VenuePriceFeed({
      venues: VENUES,
      urls: { ...fixtures.urls, okx: url },
      clock: { now: () => Date.now() },
      backoff: { minMs: 30, maxMs: 60 },
    });
    feed.setMarkets([BTC]);
    await feed.start();
    await waitFor(
      'okx down, the others up',
      () =>
        state('okx')?.state === 'down' && state('binance')?.state === 'up' && state('bybit')?.state === 'up',
    );
    expect(state('okx')?.error).toMatch(/Error/);
  });
});

describe('venue helpers', { timeout: 10_000 }, () => {
  it('knows the ccxt venues that quote tickers, and nothing else', () => {
    expect(isKnownVenue('binance')).toBe(true);
    expect(isKnownVenue('okx')).toBe(true);
    expect(isKnownVenue('coinbase')).toBe(true);
    expect(isKnownVenue('nasdaq')).toBe(false);
    expect(isKnownVenue('__proto__')).toBe(false);
    expect(isKnownVenue('Exchange')).toBe(false);
  });

  it('reads the price from the venue string exactly, else from the float through its shortest decimal', () => {
    expect(tickerPriceAtoms('binance', { last: 96500.12, info: { c: '96500.12000000' } })).toBe(
      9_650_012_000_000n,
    );
    expect(tickerPriceAtoms('okx', { last: 0.123456789, info: { last: '0.123456789' } })).toBe(12_345_678n);
    // A raw field far from ccxt's own reading is not the field the table expects: no price.
    expect(tickerPriceAtoms('okx', { last: 0.1, info: { last: '0.123456789' } })).toBeUndefined();
    expect(tickerPriceAtoms('kraken', { last: 0.3, info: {} })).toBe(30_000_000n);
    expect(tickerPriceAtoms('kraken', { last: 1e-7, info: {} })).toBe(10n);
    expect(tickerPriceAtoms('kraken', { last: 1.5e9, info: {} })).toBe(150_000_000_000_000_000n);
    // a price past any amount's bound (it would overflow the 64-bit columns) is no price
    expect(tickerPriceAtoms('kraken', { last: 1.5e21, info: {} })).toBeUndefined();
    expect(tickerPriceAtoms('binance', { last: 1, info: { c: '92233720368.54775808' } })).toBeUndefined();
    expect(tickerPriceAtoms('bybit', { last: 1, info: { lastPrice: 'garbage' } })).toBeUndefined();
    expect(tickerPriceAtoms('kraken', { last: undefined, info: {} })).toBeUndefined();
    expect(tickerPriceAtoms('kraken', { last: 0, info: {} })).toBeUndefined();
  });
});
