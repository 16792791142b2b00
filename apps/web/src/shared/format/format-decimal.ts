import { trimDecimal, truncateDecimal } from '@bourse/shared';
import { useTranslation } from 'react-i18next';

const separatorCache = new Map<string, { group: string; decimal: string }>();

/** The locale's group and decimal separators, as Intl writes them (`.` and `,` in German). */
export function separatorsFor(locale: string): { group: string; decimal: string } {
  let found = separatorCache.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
    found = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    };
    separatorCache.set(locale, found);
  }
  return found;
}

/**
 * The one formatter for money and prices: truncated (never rounded) to `decimals`, grouped by
 * the locale's separators. Works on the decimal string, so no digit is lost to floating point.
 */
export function formatDecimal(value: string | number, decimals: number, locale: string): string {
  return groupDecimal(truncateDecimal(value, decimals), locale);
}

/**
 * A plain decimal string (`"94482.17"`) written the locale's way for an input field
 * (`"94.482,17"` in German), every digit kept as given: what an amount field shows for a value
 * set from outside (a pre-filled price, a quick button, a price tapped in the book), and what
 * `parseLocaleDecimal` reads back to the same value. Anything that is not a plain decimal is
 * returned unchanged.
 */
export function formatDecimalInput(plain: string, locale: string): string {
  return /^-?\d+(\.\d*)?$/.test(plain) ? groupDecimal(plain, locale) : plain;
}

function groupDecimal(text: string, locale: string): string {
  const negative = text.startsWith('-');
  const [intPart = '', frac] = (negative ? text.slice(1) : text).split('.');
  const { group, decimal } = separatorsFor(locale);
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${frac ? decimal + frac : ''}`;
}

/** `formatDecimal` bound to the current language. */
export function useFormatDecimal(): (value: string | number, decimals: number) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return (value, decimals) => formatDecimal(value, decimals, locale);
}

/**
 * A decimal inside a sentence ("5.40000000" USDT a day → `5,4` in German): every significant
 * digit kept, trailing zeros dropped, written the locale's way; bound to the current language.
 */
export function useFormatPlainDecimal(): (value: string) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return (value) => formatDecimalInput(trimDecimal(value), locale);
}
