import { MAX_AMOUNT_INTEGER_DIGITS } from '@bourse/shared';
import { separatorsFor } from './format-decimal.ts';

/** Why a text is not a number of the field: see {@link parseLocaleDecimal}. */
export type DecimalTextError = 'invalid' | 'ambiguous' | 'precision' | 'too-long';

/** A text read as a plain decimal string (`"94500"`, `"0.5"`, `""` for an empty text), or why not. */
export type ParsedDecimal = { value: string } | { error: DecimalTextError };

const MARKS = /[.,]/g;
const SPACES = /\s/g;

/**
 * Reads a number typed or pasted the way the page writes numbers in `locale` (Intl's group and
 * decimal separators, as `formatDecimal` and `formatDecimalInput` use them) or in the plain form
 * with a `.` point, for a field of `decimals` places. Works on the text, never through a float.
 *
 * The rules, in order:
 * - Surrounding blanks are dropped; blanks inside (space, no-break space, narrow no-break space:
 *   the French group separator) are group separators. Any other character than digits, `.` and
 *   `,` (a sign, an exponent, a letter) is `invalid`. A `.` or `,` typed last is the number still
 *   being typed when it is the first mark or one more group separator (`"12."` reads 12,
 *   `"1.234."` in de-DE reads 1234), and a leading point gets its zero (`".5"` reads 0.5).
 * - Both `.` and `,` present: the last one is the decimal point and must be the locale's decimal
 *   separator, the other its group separator (`"1,234.5"` in en-US, `"94.941,69"` in de-DE);
 *   any other mix (`"1.234,5"` in en-US) is `invalid`, not guessed.
 * - The same mark two or more times: group separators, so it must be the locale's (`"1.234.567"`
 *   in de-DE), else `invalid`.
 * - One mark: a group separator when it is the locale's group separator and stands where a group
 *   does (one to three digits not starting with 0 before it, exactly three after): `"94.500"` in
 *   de-DE and tr-TR is 94500, `"1,500"` in en-US is 1500 — that is how the page writes those
 *   numbers. Otherwise it is the decimal point: the locale's own (`"94,5"` in de-DE), the plain
 *   `.` (`"94482.17"` in de-DE, where the dot cannot be a group) or the `,` a decimal keypad types
 *   (`"1,5"` in en-US). One exception is refused as `ambiguous`, never guessed: a mark that is
 *   neither of the locale's separators but stands where a group does (`"1.500"` in fr-FR, where
 *   the page writes 1500 as `1 500` and 1.5 as `1,5`), since it reads as 1.5 or 1500 alike.
 * - Groups (by blanks or marks) must be well formed: the first of one to three digits, every
 *   other of exactly three, all before the decimal point; else `invalid`.
 * - More than `decimals` digits after the point (any with 0 decimals) is `precision`; an integer
 *   part longer than an amount may have (`MAX_AMOUNT_INTEGER_DIGITS`) is `too-long`.
 *
 * The value keeps the digits as typed after the point (`"94,50"` reads `"94.50"`) and drops
 * leading zeros before it (`"007"` reads `"7"`).
 */
export function parseLocaleDecimal(text: string, locale: string, decimals: number): ParsedDecimal {
  const places = Math.max(0, Math.trunc(decimals));
  let body = text.trim();
  if (/[^\d.,\s]/.test(body)) return { error: 'invalid' };
  const { group, decimal } = separatorsFor(locale);
  const last = body.slice(-1);
  const before = body.slice(0, -1).trimEnd();
  // why: a mark typed last is the number still being typed when it can go on from there: the
  // first mark, or one more group separator (`"1.234."` on the way to `"1.234.567"` in de-DE).
  if ((last === '.' || last === ',') && !/[.,]$/.test(before) && (!/[.,]/.test(before) || last === group))
    body = before;
  if (body === '') return { value: '' };
  const marks = body.match(MARKS) ?? [];
  const kinds = new Set(marks);
  let point = -1;
  if (kinds.size === 2) {
    point = Math.max(body.lastIndexOf('.'), body.lastIndexOf(','));
    const pointMark = body.charAt(point);
    const other = pointMark === '.' ? ',' : '.';
    if (pointMark !== decimal || other !== group) return { error: 'invalid' };
    if (body.indexOf(pointMark) !== point) return { error: 'invalid' };
  } else if (kinds.size === 1) {
    const mark = marks[0] ?? '';
    if (marks.length >= 2) {
      if (mark !== group) return { error: 'invalid' };
    } else {
      const standsAsGroup = isGrouped(body.replace(SPACES, mark), mark);
      if (mark !== group || !standsAsGroup) {
        if (mark !== decimal && standsAsGroup) return { error: 'ambiguous' };
        point = body.indexOf(mark);
      }
    }
  }
  const intText = point < 0 ? body : body.slice(0, point);
  const fracText = point < 0 ? undefined : body.slice(point + 1);
  if (fracText !== undefined && !/^\d*$/.test(fracText)) return { error: 'invalid' };
  if (!isGrouped(intText, /[.,\s]/) && intText !== '') return { error: 'invalid' };
  if (fracText !== undefined && fracText.length > places) return { error: 'precision' };
  const intPart = intText.replace(/[.,\s]/g, '').replace(/^0+(?=\d)/, '') || '0';
  if (intPart.length > MAX_AMOUNT_INTEGER_DIGITS) return { error: 'too-long' };
  return { value: fracText ? `${intPart}.${fracText}` : intPart };
}

/**
 * True when `text` is digits, in groups split by `separator` that are well formed: none, or a
 * first group of one to three digits (not a lone 0 or a leading 0) and then groups of three.
 */
function isGrouped(text: string, separator: string | RegExp): boolean {
  const groups = text.split(separator);
  if (groups.length === 1) return /^\d+$/.test(text);
  const [first = '', ...rest] = groups;
  return /^[1-9]\d{0,2}$/.test(first) && rest.every((each) => /^\d{3}$/.test(each));
}
