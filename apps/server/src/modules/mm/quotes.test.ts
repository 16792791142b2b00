import { toAtoms } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import { planQuotes, type QuoteInput } from './quotes.ts';

const BASE: QuoteInput = {
  index: toAtoms('100'),
  tickSize: toAtoms('0.01'),
  lotSize: toAtoms('1'),
  minNotional: toAtoms('5'),
  levels: 3,
  spreadBps: 20n,
  stepBps: 10n,
  levelQty: toAtoms('1'),
  inventoryTarget: toAtoms('10'),
  maxInventoryDeviation: toAtoms('5'),
  inventory: toAtoms('10'),
  quoteBudget: toAtoms('1000'),
  baseBudget: toAtoms('10'),
};

const ladder = (input: Partial<QuoteInput>) =>
  planQuotes({ ...BASE, ...input }).map((q) => [q.side, q.price, q.qty]);

describe('the maker ladder', () => {
  it('steps out from half the spread on each side', () => {
    expect(ladder({})).toEqual([
      ['buy', toAtoms('99.9'), toAtoms('1')],
      ['sell', toAtoms('100.1'), toAtoms('1')],
      ['buy', toAtoms('99.8'), toAtoms('1')],
      ['sell', toAtoms('100.2'), toAtoms('1')],
      ['buy', toAtoms('99.7'), toAtoms('1')],
      ['sell', toAtoms('100.3'), toAtoms('1')],
    ]);
  });

  it('rounds bids down and asks up to the tick, half an odd spread exactly, and skips repeated prices', () => {
    expect(ladder({ index: toAtoms('100.005'), spreadBps: 3n, stepBps: 0n, levels: 2 })).toEqual([
      ['buy', toAtoms('99.98'), toAtoms('1')],
      ['sell', toAtoms('100.03'), toAtoms('1')],
    ]);
  });

  it('quotes what its funds cover, whole lots, and nothing under the minimum notional', () => {
    expect(ladder({ quoteBudget: toAtoms('199.8'), baseBudget: toAtoms('1') })).toEqual([
      ['buy', toAtoms('99.9'), toAtoms('1')],
      ['sell', toAtoms('100.1'), toAtoms('1')],
      ['buy', toAtoms('99.8'), toAtoms('1')],
    ]);
    expect(ladder({ levelQty: toAtoms('2.5'), levels: 1 })).toEqual([
      ['buy', toAtoms('99.9'), toAtoms('2')],
      ['sell', toAtoms('100.1'), toAtoms('2')],
    ]);
    expect(ladder({ minNotional: toAtoms('100'), levels: 2 })).toEqual([
      ['sell', toAtoms('100.1'), toAtoms('1')],
      ['sell', toAtoms('100.2'), toAtoms('1')],
    ]);
  });

  it('stops bidding above its inventory limit and asking below it', () => {
    expect(ladder({ inventory: toAtoms('15.00000001'), levels: 1 })).toEqual([
      ['sell', toAtoms('100.1'), toAtoms('1')],
    ]);
    expect(ladder({ inventory: toAtoms('15'), levels: 1 })).toHaveLength(2);
    expect(ladder({ inventory: toAtoms('4.99999999'), levels: 1 })).toEqual([
      ['buy', toAtoms('99.9'), toAtoms('1')],
    ]);
    expect(ladder({ inventory: toAtoms('5'), levels: 1 })).toHaveLength(2);
  });

  it('quotes nothing without a spread, a quantity or an index', () => {
    expect(ladder({ spreadBps: 0n })).toEqual([]);
    expect(ladder({ levelQty: toAtoms('0.5') })).toEqual([]);
    expect(ladder({ index: 0n })).toEqual([]);
  });
});
