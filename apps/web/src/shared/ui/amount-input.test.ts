import { describe, expect, it } from 'vitest';
import { AMOUNT_MAX_INTEGER_DIGITS, sanitizeAmount } from './amount-input.tsx';

describe('sanitizeAmount', () => {
  it('accepts digits with at most the coin precision after one point', () => {
    expect(sanitizeAmount('12', 8)).toBe('12');
    expect(sanitizeAmount('12.', 8)).toBe('12.');
    expect(sanitizeAmount('12.12345678', 8)).toBe('12.12345678');
    expect(sanitizeAmount('0.25', 2)).toBe('0.25');
    expect(sanitizeAmount('', 8)).toBe('');
  });

  it('refuses more decimals than the precision allows', () => {
    expect(sanitizeAmount('12.123456789', 8)).toBeNull();
    expect(sanitizeAmount('0.255', 2)).toBeNull();
    expect(sanitizeAmount('1.5', 0)).toBeNull();
    expect(sanitizeAmount('1.', 0)).toBeNull();
    expect(sanitizeAmount('15', 0)).toBe('15');
  });

  it('refuses anything but digits and one point', () => {
    expect(sanitizeAmount('1.2.3', 8)).toBeNull();
    expect(sanitizeAmount('-1', 8)).toBeNull();
    expect(sanitizeAmount('1e5', 8)).toBeNull();
    expect(sanitizeAmount('abc', 8)).toBeNull();
    expect(sanitizeAmount('+3', 8)).toBeNull();
    expect(sanitizeAmount('1,000.5', 8)).toBeNull();
  });

  it('normalizes a comma point, a bare point, leading zeros and spaces', () => {
    expect(sanitizeAmount('1,5', 8)).toBe('1.5');
    expect(sanitizeAmount('.5', 8)).toBe('0.5');
    expect(sanitizeAmount('.', 8)).toBe('0.');
    expect(sanitizeAmount('007', 8)).toBe('7');
    expect(sanitizeAmount('00.50', 8)).toBe('0.50');
    expect(sanitizeAmount('0', 8)).toBe('0');
    expect(sanitizeAmount(' 1 000 ', 8)).toBe('1000');
  });

  it('caps the integer part', () => {
    const longest = '9'.repeat(AMOUNT_MAX_INTEGER_DIGITS);
    expect(sanitizeAmount(longest, 8)).toBe(longest);
    expect(sanitizeAmount(`${longest}9`, 8)).toBeNull();
  });
});
