import { truncateDecimal } from '@bourse/shared';
import { useTranslation } from 'react-i18next';

const separatorCache = new Map<string, { group: string; decimal: string }>();

function separatorsFor(locale: string): { group: string; decimal: string } {
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
  const text = truncateDecimal(value, decimals);
  const negative = text.startsWith('-');
  const [intPart, frac] = (negative ? text.slice(1) : text).split('.');
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
