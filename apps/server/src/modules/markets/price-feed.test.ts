import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.ts';
import { createPrng, percentChange, SimulatedPriceFeed } from './price-feed.ts';

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
      new SimulatedPriceFeed({ seed, intervalMs: 1000, clock: new ManualClock() });
    expect(make(7).tickers()).toEqual(make(7).tickers());
    expect(make(7).tickers()[0]!.price).not.toBe(make(8).tickers()[0]!.price);
    const prng = createPrng(1);
    const values = Array.from({ length: 1000 }, prng);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
  });

  it('moves with realistic volatility and keeps 24h statistics consistent', () => {
    const clock = new ManualClock();
    const feed = new SimulatedPriceFeed({ seed: 42, intervalMs: 1000, clock });
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
  });
});
