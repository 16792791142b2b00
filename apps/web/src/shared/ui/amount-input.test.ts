import { isAmountString, isDecimalString } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import { AMOUNT_MAX_INTEGER_DIGITS, readAmountText, UNREADABLE_AMOUNT } from './amount-input.tsx';

const kept = (value: string, error: string | null = null) => ({ isRefused: false, value, error });
const refused = { isRefused: true };

describe('readAmountText', () => {
  it('reports the plain decimal of a text written the way the page shows it', () => {
    expect(readAmountText('94.941,69', 2, 'de-DE')).toEqual(kept('94941.69'));
    expect(readAmountText('94.500', 2, 'de-DE')).toEqual(kept('94500'));
    expect(readAmountText('94.500', 2, 'tr-TR')).toEqual(kept('94500'));
    expect(readAmountText('94482.17', 2, 'de-DE')).toEqual(kept('94482.17'));
    expect(readAmountText('1,234.5', 8, 'en-US')).toEqual(kept('1234.5'));
    expect(readAmountText('12.12345678', 8, 'en-US')).toEqual(kept('12.12345678'));
    expect(readAmountText('', 8, 'en-US')).toEqual(kept(''));
  });

  it('refuses the keystroke of a sign, an exponent or a letter', () => {
    for (const raw of ['-1', '+3', '1e5', 'abc', '12a'])
      expect(readAmountText(raw, 8, 'en-US')).toEqual(refused);
  });

  it('caps the integer part by refusing the keystroke', () => {
    const longest = '9'.repeat(AMOUNT_MAX_INTEGER_DIGITS);
    expect(readAmountText(longest, 8, 'en-US')).toEqual(kept(longest));
    expect(readAmountText(`${longest}9`, 8, 'en-US')).toEqual(refused);
  });

  it('keeps a pasted text it cannot read, says why, and reports no number for it', () => {
    expect(readAmountText('1.500', 8, 'fr-FR')).toEqual(kept(UNREADABLE_AMOUNT, 'ambiguous'));
    expect(readAmountText('1.234,5', 8, 'en-US')).toEqual(kept(UNREADABLE_AMOUNT, 'invalid'));
    expect(readAmountText('1.2.3', 8, 'en-US')).toEqual(kept(UNREADABLE_AMOUNT, 'invalid'));
    expect(readAmountText('0.255', 2, 'en-US')).toEqual(kept(UNREADABLE_AMOUNT, 'precision'));
    expect(readAmountText('1.5', 0, 'en-US')).toEqual(kept(UNREADABLE_AMOUNT, 'precision'));
    // why: a paste over a text of the same length is a paste too, not a keystroke
    expect(readAmountText('94,941.69', 2, 'de-DE', '94.482,17')).toEqual(kept(UNREADABLE_AMOUNT, 'invalid'));
  });

  it('refuses a keystroke after which no digits could make the text readable', () => {
    expect(readAmountText('1.123456789', 8, 'ja-JP', '1.12345678')).toEqual(refused);
    expect(readAmountText('1.12345678.', 8, 'ja-JP', '1.12345678')).toEqual(refused);
    expect(readAmountText('0,255', 2, 'de-DE', '0,25')).toEqual(refused);
    expect(readAmountText('1.5', 0, 'en-US', '1.')).toEqual(refused);
    expect(readAmountText('1.234,5', 8, 'en-US', '1.234,')).toEqual(refused);
  });

  it('keeps a keystroke on the way to a readable text, and the grouped form it leads to', () => {
    // why: on the way to 94.500 in German the text is briefly 94.50 — too many decimals for a
    // one-place field, yet one digit more makes it the grouped 94500.
    expect(readAmountText('94.50', 1, 'de-DE', '94.5')).toEqual(kept(UNREADABLE_AMOUNT, 'precision'));
    expect(readAmountText('94.500', 1, 'de-DE', '94.50')).toEqual(kept('94500'));
    expect(readAmountText('1.234.5', 8, 'de-DE', '1.234.')).toEqual(kept(UNREADABLE_AMOUNT, 'invalid'));
    expect(readAmountText('1.234.567', 8, 'de-DE', '1.234.56')).toEqual(kept('1234567'));
    expect(readAmountText('1.50', 8, 'fr-FR', '1.5')).toEqual(kept('1.50'));
    expect(readAmountText('1.500', 8, 'fr-FR', '1.50')).toEqual(kept(UNREADABLE_AMOUNT, 'ambiguous'));
  });

  it('no amount schema accepts what an unreadable text reports', () => {
    expect(isAmountString(UNREADABLE_AMOUNT)).toBe(false);
    expect(isDecimalString(UNREADABLE_AMOUNT)).toBe(false);
  });
});
