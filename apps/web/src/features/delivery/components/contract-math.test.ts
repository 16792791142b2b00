import { describe, expect, it } from 'vitest';
import {
  breakEvenPercent,
  expectedPayout,
  expectedProfit,
  plainAmount,
  quickAmounts,
  ratioPercent,
} from './contract-math.ts';

describe('contract math', () => {
  it('computes the profit and payout of a win exactly, truncated to the atom', () => {
    expect(expectedProfit('100', '0.80')).toBe('80.00000000');
    expect(expectedPayout('100', '0.80')).toBe('180.00000000');
    // 0.1 + 0.2 style amounts stay exact
    expect(expectedProfit('0.3', '0.1')).toBe('0.03000000');
    // 0.00000001 × 0.85 is below one atom: the profit truncates to 0
    expect(expectedProfit('0.00000001', '0.85')).toBe('0.00000000');
    expect(expectedPayout('0.00000001', '0.85')).toBe('0.00000001');
    expect(expectedProfit('1234567890.12345678', '0.95')).toBe('1172839495.61728394');
  });

  it('reads an unfinished amount as zero', () => {
    expect(expectedProfit('', '0.80')).toBe('0.00000000');
    expect(expectedPayout('12.', '0.80')).toBe('0.00000000');
  });

  it('gives the break-even win rate 1 / (1 + ratio) cut to two decimals', () => {
    expect(breakEvenPercent('0.80')).toBe('55.55');
    expect(breakEvenPercent('1')).toBe('50.00');
    expect(breakEvenPercent('0.85')).toBe('54.05');
    expect(breakEvenPercent('0')).toBe('100.00');
    expect(breakEvenPercent('2')).toBe('33.33');
  });

  it('writes the ratio as a percentage', () => {
    expect(ratioPercent('0.80000000')).toBe('80.00');
    expect(ratioPercent('0.855')).toBe('85.50');
    expect(ratioPercent('1.23456789')).toBe('123.45');
  });

  it('trims trailing zeros for the input', () => {
    expect(plainAmount('10.50000000')).toBe('10.5');
    expect(plainAmount('100.00000000')).toBe('100');
    expect(plainAmount('100')).toBe('100');
  });

  it('offers the minimum, the round amounts in between, and the most the user can put in', () => {
    expect(quickAmounts('10', '5000', '10000')).toEqual([
      { value: '10', isMax: false },
      { value: '100', isMax: false },
      { value: '500', isMax: false },
      { value: '1000', isMax: false },
      { value: '5000', isMax: true },
    ]);
    // the balance is the limit when it is below the maximum
    expect(quickAmounts('10', '5000', '650.5')).toEqual([
      { value: '10', isMax: false },
      { value: '100', isMax: false },
      { value: '500', isMax: false },
      { value: '650.5', isMax: true },
    ]);
    // a round amount equal to the most is offered once, as the most
    expect(quickAmounts('100', '500', '10000')).toEqual([
      { value: '100', isMax: false },
      { value: '500', isMax: true },
    ]);
    expect(quickAmounts('10', '10', '50')).toEqual([{ value: '10', isMax: false }]);
    // below the minimum nothing can be placed
    expect(quickAmounts('10', '5000', '9.99999999')).toEqual([]);
    expect(quickAmounts('10', '5000', '0')).toEqual([]);
  });
});
