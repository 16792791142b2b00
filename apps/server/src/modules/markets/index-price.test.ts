import { describe, expect, it } from 'vitest';
import { IndexAggregator, type SourceQuote } from './index-price.ts';

const NOW = Date.UTC(2026, 10, 23, 8, 0, 0);
const quote = (source: string, price: bigint, age = 0): SourceQuote => ({ source, price, at: NOW - age });
const used = (source: string, price: bigint, age = 0) => ({
  source,
  price,
  at: NOW - age,
  used: true,
  reason: null,
});

describe('IndexAggregator', () => {
  // 100 bps = 1%.
  const aggregator = new IndexAggregator({ staleMs: 5000, outlierBps: 100, minSources: 2 });

  it('is the median of three sources, whatever the order of the quotes, keeping every constituent', () => {
    const quotes = [
      quote('okx', 9_650_100_000_000n),
      quote('binance', 9_650_000_000_000n),
      quote('bybit', 9_650_050_000_000n, 40),
    ];
    const { index, constituents } = aggregator.aggregate(quotes, NOW);
    const expected = [
      used('binance', 9_650_000_000_000n),
      used('bybit', 9_650_050_000_000n, 40),
      used('okx', 9_650_100_000_000n),
    ];
    expect(constituents).toEqual(expected);
    expect(index).toEqual({
      price: 9_650_050_000_000n,
      at: NOW,
      source: 'median(binance,bybit,okx)',
      constituents: expected,
    });
  });

  it('takes the mean of the two middle prices of an even count, rounded down to the atom', () => {
    const quotes = [quote('d', 10_040n), quote('a', 10_001n), quote('c', 10_004n), quote('b', 10_000n)];
    expect(aggregator.aggregate(quotes, NOW).index).toMatchObject({
      price: 10_002n,
      source: 'median(a,b,c,d)',
    });
    expect(aggregator.aggregate([quote('x', 10_003n), quote('y', 10_004n)], NOW).index?.price).toBe(10_003n);
  });

  it('drops a source older than the limit, keeping one exactly at it', () => {
    const quotes = [quote('fresh', 20_000n, 0), quote('edge', 20_010n, 5000), quote('old', 20_005n, 5001)];
    const { index, constituents } = aggregator.aggregate(quotes, NOW);
    expect(index).toMatchObject({ price: 20_005n, source: 'median(edge,fresh)' });
    expect(constituents).toEqual([
      used('edge', 20_010n, 5000),
      used('fresh', 20_000n),
      { source: 'old', price: 20_005n, at: NOW - 5001, used: false, reason: 'stale' },
    ]);
  });

  it('drops a source further than the band from the median of the others, keeping one at the band', () => {
    // why: 10_100 is exactly 100 bps above 10_000, at the band's edge, so it stays.
    const { index, constituents } = aggregator.aggregate(
      [quote('a', 10_000n), quote('b', 10_100n), quote('c', 20_000n)],
      NOW,
    );
    expect(index).toMatchObject({ price: 10_050n, source: 'median(a,b)' });
    expect(constituents.map((c) => [c.source, c.used, c.reason])).toEqual([
      ['a', true, null],
      ['b', true, null],
      ['c', false, 'outlier'],
    ]);
    const low = aggregator.aggregate([quote('a', 10_000n), quote('b', 10_001n), quote('c', 9_000n)], NOW);
    expect(low.constituents.find((c) => c.source === 'c')?.reason).toBe('outlier');
    expect(low.index?.price).toBe(10_000n);
  });

  it('drops both of two sources that disagree beyond the band, since neither can be shown wrong', () => {
    const { index, constituents } = aggregator.aggregate([quote('a', 10_000n), quote('b', 10_102n)], NOW);
    expect(index).toBeUndefined();
    expect(constituents.map((c) => c.reason)).toEqual(['outlier', 'outlier']);
    expect(aggregator.aggregate([quote('a', 10_000n), quote('b', 10_100n)], NOW).index?.price).toBe(10_050n);
  });

  it('makes no index from fewer than the minimum of sources, but still returns the constituents', () => {
    const result = aggregator.aggregate([quote('a', 10_000n), quote('b', 10_000n, 6000)], NOW);
    expect(result.index).toBeUndefined();
    expect(result.constituents.map((c) => [c.source, c.used, c.reason])).toEqual([
      ['a', true, null],
      ['b', false, 'stale'],
    ]);
    expect(aggregator.aggregate([], NOW)).toEqual({ index: undefined, constituents: [] });
    const single = new IndexAggregator({ staleMs: 5000, outlierBps: 100, minSources: 1 });
    expect(single.aggregate([quote('simulated', 9_650_012_345_678n, 1000)], NOW).index).toEqual({
      price: 9_650_012_345_678n,
      at: NOW,
      source: 'simulated',
      constituents: [used('simulated', 9_650_012_345_678n, 1000)],
    });
  });

  it('lists the sources that had no quote as dropped, and a price of zero as invalid', () => {
    const { index, constituents } = aggregator.aggregate(
      [quote('okx', 10_000n), quote('binance', 10_002n), quote('zero', 0n)],
      NOW,
      [
        { source: 'bybit', reason: 'down' },
        { source: 'coinbase', reason: 'unmapped' },
        { source: 'okx', reason: 'down' },
      ],
    );
    expect(index).toMatchObject({ price: 10_001n, source: 'median(binance,okx)' });
    expect(constituents).toEqual([
      used('binance', 10_002n),
      { source: 'bybit', price: null, at: null, used: false, reason: 'down' },
      { source: 'coinbase', price: null, at: null, used: false, reason: 'unmapped' },
      used('okx', 10_000n),
      { source: 'zero', price: 0n, at: NOW, used: false, reason: 'invalid' },
    ]);
  });

  it('refuses limits that are not whole numbers', () => {
    expect(() => new IndexAggregator({ staleMs: -1, outlierBps: 100, minSources: 1 })).toThrow(RangeError);
    expect(() => new IndexAggregator({ staleMs: 1.5, outlierBps: 100, minSources: 1 })).toThrow(RangeError);
    expect(() => new IndexAggregator({ staleMs: 1000, outlierBps: -1, minSources: 1 })).toThrow(RangeError);
    expect(() => new IndexAggregator({ staleMs: 1000, outlierBps: 100, minSources: 0 })).toThrow(RangeError);
  });
});
