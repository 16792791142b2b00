import { truncateDecimal } from '@bourse/shared';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from './format-decimal.ts';

export interface PercentOptions {
  /** Digits after the point, truncated (never rounded); 2 unless told (funding rates take 4). */
  decimals?: number;
  /** Writes `+` before a positive value (changes, profits); a zero never has a sign. */
  isSigned?: boolean;
}

const NUMBER_PARTS = new Set(['integer', 'group', 'decimal', 'fraction']);
const patternCache = new Map<string, { before: string; after: string }>();

/** What Intl writes around the digits of a percentage: the sign and `%` with its spacing. */
function percentPattern(locale: string, sign: 'minus' | 'plus' | 'none'): { before: string; after: string } {
  const key = `${locale}|${sign}`;
  let found = patternCache.get(key);
  if (!found) {
    const parts = new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: 1,
      signDisplay: sign === 'none' ? 'never' : 'always',
    }).formatToParts(sign === 'minus' ? -0.015 : 0.015);
    const first = parts.findIndex((p) => NUMBER_PARTS.has(p.type));
    const lastIndex = parts.length - 1 - [...parts].reverse().findIndex((p) => NUMBER_PARTS.has(p.type));
    found = {
      before: parts
        .slice(0, first)
        .map((p) => p.value)
        .join(''),
      after: parts
        .slice(lastIndex + 1)
        .map((p) => p.value)
        .join(''),
    };
    patternCache.set(key, found);
  }
  return found;
}

/**
 * A percentage given in percent (`"0.10"` is 0.10 %) written the locale's way: `0,10 %` in
 * German, `%0,10` in Turkish, `0.10%` in English. The digits come from the decimal string itself
 * (truncated to `decimals`, grouped as `formatDecimal` groups), so nothing drifts through a float;
 * Intl only says where the sign and the `%` go.
 */
export function formatPercent(percent: string, locale: string, options: PercentOptions = {}): string {
  const { decimals = 2, isSigned = false } = options;
  const text = truncateDecimal(percent, decimals);
  const isNegative = text.startsWith('-');
  const isZero = !/[1-9]/.test(text);
  const digits = formatDecimal(isNegative ? text.slice(1) : text, decimals, locale);
  const sign = isNegative ? 'minus' : isSigned && !isZero ? 'plus' : 'none';
  const { before, after } = percentPattern(locale, sign);
  return `${before}${digits}${after}`;
}

/**
 * A ratio (`"0.001"` is 0.1 %) as a percentage, by {@link formatPercent}; the ×100 is a shift of
 * the decimal point in the string, exact.
 */
export function formatRatioPercent(ratio: string, locale: string, options: PercentOptions = {}): string {
  return formatPercent(shiftPoint(ratio, 2), locale, options);
}

/** `value` × 10^`places`, by moving the point in the decimal string. */
function shiftPoint(value: string, places: number): string {
  const text = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return '0';
  const isNegative = text.startsWith('-');
  const [intPart = '0', frac = ''] = (isNegative ? text.slice(1) : text).split('.');
  const padded = frac.padEnd(places, '0');
  const shifted = `${intPart}${padded.slice(0, places)}.${padded.slice(places) || '0'}`;
  return `${isNegative ? '-' : ''}${shifted.replace(/^0+(?=\d)/, '')}`;
}

/** Basis points (`1250`) as a percentage in percent (`"12.50"`), exactly. */
export function basisPointsPercent(bp: number): string {
  const whole = Math.trunc(Math.abs(bp));
  return `${bp < 0 ? '-' : ''}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/** `formatPercent` and `formatRatioPercent` bound to the current language. */
export function useFormatPercent(): {
  percent: (percent: string, options?: PercentOptions) => string;
  ratio: (ratio: string, options?: PercentOptions) => string;
} {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return {
    percent: (value, options) => formatPercent(value, locale, options),
    ratio: (value, options) => formatRatioPercent(value, locale, options),
  };
}
