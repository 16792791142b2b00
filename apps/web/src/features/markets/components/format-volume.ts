import { truncateDecimal } from '@bourse/shared';
import { useTranslation } from 'react-i18next';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A 24h volume abbreviated the locale's way (1.2K, 3.4M; 万 and 億 in Japanese and Chinese),
 * from the decimal string, so no digit is lost before the abbreviation.
 */
export function formatVolume(volume: string, locale: string): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      notation: 'compact',
      // why: significant digits, so a small volume (0.00105 BTC) is not shown as 0.
      maximumSignificantDigits: 4,
      roundingMode: 'trunc',
    });
    formatters.set(locale, formatter);
  }
  // why: Intl reads a decimal string exactly, so the cut is made on the written digits.
  return formatter.format(truncateDecimal(volume, 8) as `${number}`);
}

export function useFormatVolume(): (volume: string) => string {
  const { i18n } = useTranslation();
  return (volume) => formatVolume(volume, i18n.language);
}
