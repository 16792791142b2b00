import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../platform/clock.ts';
import {
  createCryptoUniform,
  createPrng,
  type FeedMarket,
  percentChange,
  SimulatedPriceFeed,
} from './price-feed.ts';

// why: to prove where the unseeded walk's randomness comes from, the one call into node:crypto
// is counted; it still answers the real generator's bytes.
const cryptoCalls = vi.hoisted(() => ({ randomBytes: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return {
    ...actual,
    randomBytes: (size: number) => {
      cryptoCalls.randomBytes += 1;
      return actual.randomBytes(size);
    },
  };
});

const MARKETS: FeedMarket[] = [
  { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 },
  { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', priceDecimals: 2 },
  { symbol: 'NEWUSDT', base: 'NEW', quote: 'USDT', priceDecimals: 4 },
];

describe('percentChange', () => {
  it('truncates toward zero to two decimals', () => {
    expect(percentChange(10_000n, 10_125n)).toBe('1.25');
    expect(percentChange(10_000n, 9_875n)).toBe('-1.25');
    expect(percentChange(30_000n, 30_001n)).toBe('0.00');
    expect(percentChange(30_000n, 29_999n)).toBe('0.00');
    expect(percentChange(0n, 5n)).toBe('0.00');
  });
});

describe('SimulatedPriceFeed', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const make = (seed: number) =>
      new SimulatedPriceFeed({ seed, intervalMs: 1000, clock: new ManualClock(), markets: MARKETS });
    expect(make(7).tickers()).toEqual(make(7).tickers());
    expect(make(7).tickers()[0]!.price).not.toBe(make(8).tickers()[0]!.price);
    const prng = createPrng(1);
    const values = Array.from({ length: 1000 }, prng);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
  });

  it('moves with realistic volatility and keeps 24h statistics consistent', () => {
    const clock = new ManualClock();
    const feed = new SimulatedPriceFeed({ seed: 42, intervalMs: 1000, clock, markets: MARKETS });
    const start = Number(feed.tickers()[0]!.price);
    let updates = 0;
    feed.onUpdate(() => updates++);
    for (let i = 0; i < 3600; i++) {
      clock.advance(1000);
      feed.tick();
    }
    expect(updates).toBe(3600);
    const btc = feed.tickers()[0]!;
    // one hour of BTC at 2.8 % daily volatility: a move beyond 10 % would be absurd
    expect(Math.abs(Number(btc.price) / start - 1)).toBeLessThan(0.1);
    expect(Number(btc.low24h)).toBeLessThanOrEqual(Number(btc.price));
    expect(Number(btc.high24h)).toBeGreaterThanOrEqual(Number(btc.price));
    expect(btc.ts).toBe(clock.now());
    expect(btc.source).toBe('simulated');
    expect(btc.priceDecimals).toBe(2);
    expect(btc.price).toMatch(/^\d+\.\d{2}$/);
  });

  it('covers the markets it is given, each with its price decimals', () => {
    const feed = new SimulatedPriceFeed({ seed: 1, intervalMs: 1000, clock: new ManualClock() });
    expect(feed.tickers()).toEqual([]);
    feed.load(MARKETS);
    expect(feed.tickers().map((t) => [t.symbol, t.base, t.quote, t.priceDecimals])).toEqual([
      ['BTCUSDT', 'BTC', 'USDT', 2],
      ['ETHUSDT', 'ETH', 'USDT', 2],
      ['NEWUSDT', 'NEW', 'USDT', 4],
    ]);
    expect(feed.tickers()[2]!.price).toMatch(/^\d+\.\d{4}$/);
  });

  it('continues exactly from recorded prices, and a symbol moves on its own walk', () => {
    const clock = new ManualClock();
    const recorded = [
      { symbol: 'BTCUSDT', price: 10_123_456_789_012n, at: clock.now() - 5000 },
      { symbol: 'GONEUSDT', price: 5n, at: clock.now() - 5000 },
    ];
    const feed = new SimulatedPriceFeed({ seed: 9, intervalMs: 1000, clock });
    feed.load(MARKETS, recorded);
    const fresh = new SimulatedPriceFeed({ seed: 9, intervalMs: 1000, clock, markets: MARKETS });
    const prices = feed.prices();
    expect(prices[0]).toEqual({ symbol: 'BTCUSDT', price: 10_123_456_789_012n, at: clock.now() });
    expect(feed.tickers()[0]!.price).toBe('101234.56');
    // unrecorded symbols start from the seed, exactly like a fresh feed
    expect(prices.slice(1)).toEqual(fresh.prices().slice(1));
    const btc = feed.tickers()[0]!;
    expect(Number(btc.low24h)).toBeLessThanOrEqual(101234.56);
    expect(Number(btc.high24h)).toBeGreaterThanOrEqual(101234.56);

    // resume takes up a price another node recorded and leaves the others as they are
    clock.advance(1000);
    feed.tick();
    const moved = feed.prices();
    feed.resume([{ symbol: 'ETHUSDT', price: 77n * 10n ** 8n, at: clock.now() }]);
    expect(feed.prices().map((p) => p.price)).toEqual([moved[0]!.price, 7_700_000_000n, moved[2]!.price]);
  });

  it('without a seed draws from node:crypto, so two starts walk different paths', () => {
    const start = () => {
      const clock = new ManualClock(Date.UTC(2026, 10, 27));
      const feed = new SimulatedPriceFeed({ intervalMs: 1000, clock, markets: MARKETS });
      const path: bigint[] = [];
      for (let i = 0; i < 20; i++) {
        clock.advance(1000);
        feed.tick();
        path.push(feed.prices()[0]!.price);
      }
      return { feed, path };
    };
    const before = cryptoCalls.randomBytes;
    const first = start();
    expect(first.feed.randomSource).toBe('crypto');
    expect(cryptoCalls.randomBytes).toBeGreaterThan(before);
    const second = start();
    // the same start, the same clock, no seed: nothing public makes the second replay the first
    expect(second.path).not.toEqual(first.path);
    expect(second.feed.tickers()[0]!.open24h).not.toBe(first.feed.tickers()[0]!.open24h);
    expect(new SimulatedPriceFeed({ seed: 1, intervalMs: 1000, clock: new ManualClock() }).randomSource).toBe(
      'seeded',
    );
  });

  it('its cryptographic draws are uniform in [0, 1) with 53 bits', () => {
    const uniform = createCryptoUniform();
    const values = Array.from({ length: 5000 }, uniform);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03);
    expect(new Set(values).size).toBe(values.length);
  });
});
