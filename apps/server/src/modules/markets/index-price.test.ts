import { describe, expect, it } from 'vitest';
import { IndexAggregator, type SourceQuote } from './index-price.ts';

const NOW = Date.UTC(2026, 10, 23, 8, 0, 0);
const quote = (source: string, price: bigint, age = 0): SourceQuote => ({ source, price, at: NOW - age });

describe('IndexAggregator', () => {
  const aggregator = new IndexAggregator({ staleMs: 5000 });

  it('is the one live source itself, labelled with its name', () => {
    expect(aggregator.aggregate([quote('simulated', 9_650_012_345_678n, 1000)], NOW)).toEqual({
      price: 9_650_012_345_678n,
      at: NOW,
      source: 'simulated',
    });
  });

  it('takes the middle price of an odd count, whatever the order of the quotes', () => {
    const quotes = [quote('c', 300n), quote('a', 100n), quote('b', 250n)];
    expect(aggregator.aggregate(quotes, NOW)).toEqual({ price: 250n, at: NOW, source: 'median(a,b,c)' });
  });

  it('takes the mean of the two middle prices of an even count, rounded down to the atom', () => {
    const quotes = [quote('d', 1_000n), quote('a', 101n), quote('c', 104n), quote('b', 1n)];
    expect(aggregator.aggregate(quotes, NOW)).toEqual({ price: 102n, at: NOW, source: 'median(a,b,c,d)' });
    expect(aggregator.aggregate([quote('x', 3n), quote('y', 4n)], NOW)?.price).toBe(3n);
  });

  it('drops sources older than the limit, keeping one exactly at it', () => {
    const quotes = [quote('fresh', 200n, 0), quote('edge', 210n, 5000), quote('old', 999n, 5001)];
    expect(aggregator.aggregate(quotes, NOW)).toEqual({ price: 205n, at: NOW, source: 'median(edge,fresh)' });
    expect(aggregator.aggregate([quote('old', 999n, 5001)], NOW)).toBeUndefined();
    expect(aggregator.aggregate([], NOW)).toBeUndefined();
  });

  it('ignores a source quoting no price, and refuses a limit that is not whole milliseconds', () => {
    expect(aggregator.aggregate([quote('zero', 0n), quote('live', 7n)], NOW)?.source).toBe('live');
    expect(() => new IndexAggregator({ staleMs: -1 })).toThrow(RangeError);
    expect(() => new IndexAggregator({ staleMs: 1.5 })).toThrow(RangeError);
  });
});
