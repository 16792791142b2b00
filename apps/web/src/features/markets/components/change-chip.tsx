import { truncateDecimal } from '@bourse/shared';
import { useTranslation } from 'react-i18next';
import { IconArrowDown, IconArrowUp } from '../../../shared/ui/shell-icons.tsx';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A percentage with its sign and two decimals, truncated first, then written the locale's way
 * (`+1,23 %` in French, `+%1,23` in Turkish).
 */
function formatChange(change: string, locale: string): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: 'exceptZero',
    });
    formatters.set(locale, formatter);
  }
  // why: the value is already cut to two decimals, so Intl only places sign, separator and %.
  return formatter.format(Number(truncateDecimal(change, 2)) / 100);
}

/** 24h change with sign and arrow, in the user's up/down colours (never colour alone). */
export function ChangeChip({ change }: { change: string }) {
  const { i18n } = useTranslation();
  const value = Number(truncateDecimal(change, 2));
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  return (
    <span className={`change-chip is-${direction} num`}>
      {direction === 'up' && <IconArrowUp className="change-chip-arrow" />}
      {direction === 'down' && <IconArrowDown className="change-chip-arrow" />}
      {formatChange(change, i18n.language)}
    </span>
  );
}
