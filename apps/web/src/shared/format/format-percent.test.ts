import { describe, expect, it } from 'vitest';
import { formatPercent, formatRatioPercent } from './format-percent.ts';

describe('formatPercent', () => {
  it('writes the percent sign where the locale puts it', () => {
    expect(formatPercent('0.10', 'de-DE')).toBe('0,10\u00a0%');
    expect(formatPercent('0.10', 'tr-TR')).toBe('%0,10');
    expect(formatPercent('0.10', 'en-US')).toBe('0.10%');
    expect(formatPercent('20.04', 'fr-FR')).toBe('20,04\u00a0%');
    expect(formatPercent('20.04', 'it-IT')).toBe('20,04%');
    expect(formatPercent('20.04', 'zh-CN')).toBe('20.04%');
  });

  it('truncates exactly from the decimal string, never rounding through a float', () => {
    expect(formatPercent('0.29', 'en-US')).toBe('0.29%');
    expect(formatPercent('1.005', 'en-US')).toBe('1.00%');
    expect(formatPercent('99.999', 'en-US')).toBe('99.99%');
    expect(formatPercent('12345678901234567.89', 'en-US')).toBe('12,345,678,901,234,567.89%');
    expect(formatPercent('12345.678', 'fr-FR')).toBe('12\u202f345,67\u00a0%');
    expect(formatPercent('0.0100', 'de-DE', { decimals: 4 })).toBe('0,0100\u00a0%');
  });

  it('signs as asked, and never a zero', () => {
    expect(formatPercent('1.5', 'en-US', { isSigned: true })).toBe('+1.50%');
    expect(formatPercent('-1.5', 'tr-TR')).toBe('-%1,50');
    expect(formatPercent('-1.5', 'de-DE', { isSigned: true })).toBe('-1,50\u00a0%');
    expect(formatPercent('0.001', 'en-US', { isSigned: true })).toBe('0.00%');
    expect(formatPercent('-0.001', 'en-US')).toBe('0.00%');
    expect(formatPercent('2', 'tr-TR', { isSigned: true })).toBe('+%2,00');
  });

  it('reads a ratio by moving the point, exactly', () => {
    expect(formatRatioPercent('0.001', 'de-DE')).toBe('0,10\u00a0%');
    expect(formatRatioPercent('0.001', 'tr-TR')).toBe('%0,10');
    expect(formatRatioPercent('0.0001', 'en-US', { decimals: 4, isSigned: true })).toBe('+0.0100%');
    expect(formatRatioPercent('-0.00015', 'en-US', { decimals: 4 })).toBe('-0.0150%');
    expect(formatRatioPercent('1', 'en-US')).toBe('100.00%');
    expect(formatRatioPercent('0.57', 'en-US')).toBe('57.00%');
    expect(formatRatioPercent('0.2004', 'tr-TR')).toBe('%20,04');
    expect(formatRatioPercent('garbage', 'en-US')).toBe('0.00%');
  });
});
