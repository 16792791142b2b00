import { MAX_AMOUNT_INTEGER_DIGITS } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import { formatDecimal, formatDecimalInput } from './format-decimal.ts';
import { parseLocaleDecimal } from './parse-decimal.ts';

const read = (text: string, locale: string, decimals = 8) => parseLocaleDecimal(text, locale, decimals);

describe('parseLocaleDecimal', () => {
  it('reads what the page shows in locales that group with a dot (de-DE, tr-TR, it-IT)', () => {
    for (const locale of ['de-DE', 'tr-TR', 'it-IT']) {
      expect(read('94.941,69', locale, 2)).toEqual({ value: '94941.69' });
      expect(read('94.500', locale, 2)).toEqual({ value: '94500' });
      expect(read('1.234.567,5', locale)).toEqual({ value: '1234567.5' });
      expect(read('94,5', locale)).toEqual({ value: '94.5' });
      expect(read('0,00012', locale)).toEqual({ value: '0.00012' });
    }
  });

  it('reads the plain dot form where the dot cannot be a group', () => {
    expect(read('94482.17', 'de-DE', 2)).toEqual({ value: '94482.17' });
    expect(read('94482.17', 'tr-TR', 2)).toEqual({ value: '94482.17' });
    expect(read('94.50', 'de-DE', 2)).toEqual({ value: '94.50' });
    expect(read('1.5000', 'de-DE')).toEqual({ value: '1.5000' });
    // why: 0500 is no group the page writes, so the dot is the point.
    expect(read('0.500', 'de-DE')).toEqual({ value: '0.500' });
  });

  it('reads what the page shows in locales that group with a comma', () => {
    expect(read('1,234.5', 'en-US')).toEqual({ value: '1234.5' });
    expect(read('1,500', 'en-US')).toEqual({ value: '1500' });
    expect(read('1,234,567.25', 'ja-JP')).toEqual({ value: '1234567.25' });
    expect(read('94941.69', 'zh-CN')).toEqual({ value: '94941.69' });
    // why: a decimal keypad set to a comma types one; it cannot be a group here.
    expect(read('1,5', 'en-US')).toEqual({ value: '1.5' });
  });

  it('reads blanks as group separators (the French narrow no-break space among them)', () => {
    expect(read('94\u202f941,69', 'fr-FR', 2)).toEqual({ value: '94941.69' });
    expect(read('94\u00a0941,69', 'fr-FR', 2)).toEqual({ value: '94941.69' });
    expect(read('94 941,69', 'fr-FR', 2)).toEqual({ value: '94941.69' });
    expect(read(formatDecimal('1234567.5', 1, 'fr-FR'), 'fr-FR', 1)).toEqual({ value: '1234567.5' });
    expect(read(' 1 000 ', 'en-US')).toEqual({ value: '1000' });
    expect(read('1500,25', 'fr-FR')).toEqual({ value: '1500.25' });
    expect(read('1.5', 'fr-FR')).toEqual({ value: '1.5' });
  });

  it('refuses a mark that reads as a point and as a group alike, and the page writes neither', () => {
    expect(read('1.500', 'fr-FR')).toEqual({ error: 'ambiguous' });
    expect(read('1 234.567', 'fr-FR')).toEqual({ error: 'ambiguous' });
  });

  it('refuses mixes and groupings the page never writes', () => {
    expect(read('1.234,5', 'en-US')).toEqual({ error: 'invalid' });
    expect(read('1,234.5', 'de-DE')).toEqual({ error: 'invalid' });
    expect(read('1.234,5', 'fr-FR')).toEqual({ error: 'invalid' });
    expect(read('1.2.3', 'en-US')).toEqual({ error: 'invalid' });
    expect(read('1.23.456', 'de-DE')).toEqual({ error: 'invalid' });
    expect(read('1.234,5,6', 'de-DE')).toEqual({ error: 'invalid' });
    expect(read('12,34,567', 'en-US')).toEqual({ error: 'invalid' });
    expect(read('1 2', 'fr-FR')).toEqual({ error: 'invalid' });
    expect(read('1.5.', 'en-US')).toEqual({ error: 'invalid' });
  });

  it('refuses signs, exponents and letters', () => {
    for (const text of ['-1', '+3', '1e5', 'abc', '1_000', '٣'])
      expect(read(text, 'en-US')).toEqual({ error: 'invalid' });
  });

  it('reads a number still being typed', () => {
    expect(read('', 'de-DE')).toEqual({ value: '' });
    expect(read('12.', 'en-US')).toEqual({ value: '12' });
    expect(read('12,', 'de-DE')).toEqual({ value: '12' });
    expect(read('1.234.', 'de-DE')).toEqual({ value: '1234' });
    expect(read('1.500,', 'de-DE')).toEqual({ value: '1500' });
    expect(read('.5', 'en-US')).toEqual({ value: '0.5' });
    expect(read(',5', 'de-DE')).toEqual({ value: '0.5' });
    expect(read('.', 'en-US')).toEqual({ value: '' });
    expect(read('007', 'en-US')).toEqual({ value: '7' });
    expect(read('00.50', 'en-US')).toEqual({ value: '0.50' });
    expect(read('0', 'en-US')).toEqual({ value: '0' });
  });

  it('caps the decimals at the precision and the integer part at an amount', () => {
    expect(read('12.12345678', 'en-US')).toEqual({ value: '12.12345678' });
    expect(read('12.123456789', 'en-US')).toEqual({ error: 'precision' });
    expect(read('0,255', 'de-DE', 2)).toEqual({ error: 'precision' });
    expect(read('1.5', 'en-US', 0)).toEqual({ error: 'precision' });
    expect(read('1.000', 'de-DE', 0)).toEqual({ value: '1000' });
    expect(read('15', 'en-US', 0)).toEqual({ value: '15' });
    const longest = '9'.repeat(MAX_AMOUNT_INTEGER_DIGITS);
    expect(read(longest, 'en-US')).toEqual({ value: longest });
    expect(read(`${longest}9`, 'en-US')).toEqual({ error: 'too-long' });
  });

  it('reads back every number the input formatter writes, in all nine locales', () => {
    const locales = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'it-IT', 'ja-JP', 'ko-KR', 'tr-TR', 'zh-TW'];
    for (const locale of locales)
      for (const plain of ['0', '0.5', '94500', '94482.17', '1234567890.12345678', '100.10', '999'])
        expect(read(formatDecimalInput(plain, locale), locale)).toEqual({ value: plain });
  });
});

describe('formatDecimalInput', () => {
  it('writes a plain decimal the locale way, every digit kept', () => {
    expect(formatDecimalInput('94482.17', 'de-DE')).toBe('94.482,17');
    expect(formatDecimalInput('94482.17', 'tr-TR')).toBe('94.482,17');
    expect(formatDecimalInput('94482.17', 'en-US')).toBe('94,482.17');
    expect(formatDecimalInput('94482.17', 'fr-FR')).toBe('94\u202f482,17');
    expect(formatDecimalInput('0.10000000', 'de-DE')).toBe('0,10000000');
    expect(formatDecimalInput('500', 'de-DE')).toBe('500');
    expect(formatDecimalInput('', 'de-DE')).toBe('');
    expect(formatDecimalInput('unreadable', 'de-DE')).toBe('unreadable');
  });
});
