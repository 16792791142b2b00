import { DEFAULT_DECIMALS } from '@bourse/shared';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';

/**
 * An amount as the wallet shows it: the decimal string truncated (never rounded) to the coin's
 * precision, 8 places unless the coin says otherwise, in tabular figures, with its unit.
 */
export function Money({
  value,
  decimals = DEFAULT_DECIMALS,
  unit,
  isSigned = false,
  className,
  testId,
}: {
  value: string;
  decimals?: number;
  unit?: string;
  /** Shows a `+` before positive amounts (bills). */
  isSigned?: boolean;
  className?: string;
  testId?: string;
}) {
  const format = useFormatDecimal();
  const text = format(value, Math.min(decimals, DEFAULT_DECIMALS));
  const sign = isSigned && !text.startsWith('-') && /[1-9]/.test(text) ? '+' : '';
  return (
    <span className={className ? `num ${className}` : 'num'} data-testid={testId}>
      {sign}
      {text}
      {unit ? ` ${unit}` : ''}
    </span>
  );
}

/** Formats a unix-millisecond time in the user's language and time zone. */
export function useFormatTime(): (ms: number | null | undefined) => string {
  const { i18n } = useTranslation();
  const formatter = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (ms) => (ms ? formatter.format(ms) : '—');
}

/** A decimal string without trailing zeros after its point, for inputs and hints (`"10.50000000"` → `"10.5"`). */
export function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
