import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatPercent,
  fromAtoms,
  isAmountString,
  MAX_AMOUNT_ATOMS,
  parseAmount,
  splitDuration,
  toAtoms,
  trimDecimal,
  truncateDecimal,
} from '../src/format.ts';
import { propertyRuns } from './property-runs.ts';

describe('trimDecimal', () => {
  it('drops trailing zeros after the point, and the point when nothing follows', () => {
    expect(trimDecimal('100.50000000')).toBe('100.5');
    expect(trimDecimal('10.00')).toBe('10');
    expect(trimDecimal('0.00000001')).toBe('0.00000001');
  });
  it('leaves whole numbers alone', () => {
    expect(trimDecimal('100')).toBe('100');
    expect(trimDecimal('0')).toBe('0');
  });
});

describe('truncateDecimal', () => {
  it('truncates, never rounds, to 8 decimals by default', () => {
    expect(truncateDecimal('1.999999999')).toBe('1.99999999');
    expect(truncateDecimal('0.123456789', 2)).toBe('0.12');
    expect(truncateDecimal('-1.239', 2)).toBe('-1.23');
    expect(truncateDecimal('-0.001', 2)).toBe('0.00');
    expect(truncateDecimal('12', 2)).toBe('12.00');
    expect(truncateDecimal('007.5', 1)).toBe('7.5');
    expect(truncateDecimal('5.9', 0)).toBe('5');
  });
  it('handles numbers, including exponent notation, and rejects junk as zero', () => {
    expect(truncateDecimal(1e-7)).toBe('0.00000010');
    expect(truncateDecimal(0.1 + 0.2, 2)).toBe('0.30');
    expect(truncateDecimal(Number.NaN, 2)).toBe('0.00');
    expect(truncateDecimal('abc', 2)).toBe('0.00');
    expect(truncateDecimal('1e5', 2)).toBe('0.00');
  });
});

describe('atoms', () => {
  it('round-trips decimal strings exactly', () => {
    expect(toAtoms('12.5')).toBe(1_250_000_000n);
    expect(fromAtoms(1_250_000_000n)).toBe('12.50000000');
    expect(fromAtoms(-1n)).toBe('-0.00000001');
    expect(toAtoms('0.123456789')).toBe(12_345_678n);
    expect(() => toAtoms('1,5')).toThrow(RangeError);
  });
  it('fromAtoms ∘ toAtoms is the identity on atoms', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (atoms) => {
        expect(toAtoms(fromAtoms(atoms))).toBe(atoms);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
  it('fromAtoms equals truncating the full 8-decimal text, for every precision', () => {
    expect(fromAtoms(-1n, 2)).toBe('0.00');
    expect(fromAtoms(-123_456_789n, 0)).toBe('-1');
    expect(fromAtoms(-12_345_678n, 0)).toBe('0');
    expect(fromAtoms(5n, 10)).toBe('0.0000000500');
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 12 }),
        (atoms, decimals) => {
          const abs = atoms < 0n ? -atoms : atoms;
          const full = `${atoms < 0n ? '-' : ''}${abs / 100_000_000n}.${(abs % 100_000_000n).toString().padStart(8, '0')}`;
          expect(fromAtoms(atoms, decimals)).toBe(truncateDecimal(full, decimals));
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
  it('toAtoms reads the integer digits and the first 8 decimals of any decimal text', () => {
    expect(toAtoms('-0.5')).toBe(-50_000_000n);
    expect(toAtoms(' 007 ')).toBe(700_000_000n);
    expect(toAtoms('-0')).toBe(0n);
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.stringMatching(/^\d{1,22}$/),
        fc.option(fc.stringMatching(/^\d{1,12}$/)),
        (negative, int, frac) => {
          const text = `${negative ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}`;
          const expected = BigInt(int) * 100_000_000n + BigInt((frac ?? '').slice(0, 8).padEnd(8, '0'));
          expect(toAtoms(text)).toBe(negative ? -expected : expected);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('splitDuration', () => {
  it('follows the spec: seconds under an hour, hours under a week, else days', () => {
    expect(splitDuration(0)).toEqual({ value: 0, unit: 'seconds' });
    expect(splitDuration(3599)).toEqual({ value: 3599, unit: 'seconds' });
    expect(splitDuration(3600)).toEqual({ value: 1, unit: 'hours' });
    expect(splitDuration(604799)).toEqual({ value: 167, unit: 'hours' });
    expect(splitDuration(604800)).toEqual({ value: 7, unit: 'days' });
    expect(splitDuration(-5)).toEqual({ value: 0, unit: 'seconds' });
  });
});

describe('formatPercent', () => {
  it('signs and truncates to two decimals', () => {
    expect(formatPercent('1.239')).toBe('+1.23%');
    expect(formatPercent('-0.456')).toBe('-0.45%');
    expect(formatPercent('0')).toBe('+0.00%');
  });
});

describe('amounts typed by users', () => {
  it('accepts plain amounts with up to 8 decimals and nothing else', () => {
    for (const ok of ['0', '12', '0.5', '1.23456789', '00012.10', '9999999999.99999999']) {
      expect(isAmountString(ok)).toBe(true);
      expect(parseAmount(ok) <= MAX_AMOUNT_ATOMS).toBe(true);
    }
    for (const bad of [
      '',
      '.5',
      '5.',
      '-1',
      '+1',
      '1e5',
      '1.234567891',
      '1,5',
      ' 1',
      '0x10',
      '123456789012345678901',
      // at or past 10^10 units: see MAX_AMOUNT_INTEGER_DIGITS
      '10000000000',
      '92233720368.54775807',
      '99999999999999999999.99999999',
    ]) {
      expect(isAmountString(bad)).toBe(false);
    }
  });
  it('parses exactly into atoms, refusing what it would have to truncate', () => {
    expect(parseAmount('1.23456789')).toBe(123_456_789n);
    expect(parseAmount('10000')).toBe(1_000_000_000_000n);
    expect(parseAmount('0.00000001')).toBe(1n);
    expect(() => parseAmount('0.000000001')).toThrow(RangeError);
    expect(() => parseAmount('-1')).toThrow(RangeError);
  });
  it('parseAmount ∘ fromAtoms is the identity on amounts up to the bound, and refuses past it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT_ATOMS }), (atoms) => {
        expect(parseAmount(fromAtoms(atoms))).toBe(atoms);
      }),
      { numRuns: propertyRuns(100) },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_AMOUNT_ATOMS + 1n, max: 10n ** 27n }), (atoms) => {
        expect(() => parseAmount(fromAtoms(atoms))).toThrow(RangeError);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});
