import { describe, expect, it } from 'vitest';
import { clockOffset, formatCountdown, secondsLeft } from './countdown.ts';

describe('countdown', () => {
  it('keeps the gap between the server and the phone, read in the middle of the round trip', () => {
    expect(clockOffset(1_000_060_000, 1_000_000_000, 1_000_000_000)).toBe(60_000);
    expect(clockOffset(1_000_000_000, 1_000_002_000, 1_000_003_000)).toBe(-2_500);
    expect(clockOffset(1_000_000_100, 1_000_000_000, 1_000_000_200)).toBe(0);
  });

  it('counts whole seconds up to the expiry, never below zero', () => {
    expect(secondsLeft(61_000, 1_000)).toBe(60);
    expect(secondsLeft(61_000, 1_001)).toBe(60);
    expect(secondsLeft(61_000, 60_001)).toBe(1);
    expect(secondsLeft(61_000, 61_000)).toBe(0);
    expect(secondsLeft(61_000, 90_000)).toBe(0);
    // never more than the period, whatever the clock guess
    expect(secondsLeft(61_000, 999, 60)).toBe(60);
    expect(secondsLeft(61_000, 30_000, 60)).toBe(31);
  });

  it('shows minutes and seconds, then hours, then days', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(60)).toBe('01:00');
    expect(formatCountdown(3599)).toBe('59:59');
    expect(formatCountdown(3600)).toBe('1:00:00');
    expect(formatCountdown(86_399)).toBe('23:59:59');
    expect(formatCountdown(86_400 * 2 + 3661)).toBe('2d 01:01:01');
    expect(formatCountdown(86_400, (d) => `${d}日`)).toBe('1日 00:00:00');
  });
});
