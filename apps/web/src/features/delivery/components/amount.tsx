import { DEFAULT_DECIMALS } from '@bourse/shared';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';

/**
 * An amount or price as the delivery pages show it: truncated (never rounded) to `decimals`,
 * grouped the locale's way, in tabular figures. `isSigned` writes `+` before a gain, and `tone`
 * colours a profit or loss in the user's up/down colours (the sign says it too).
 */
export function Amount({
  value,
  decimals = DEFAULT_DECIMALS,
  unit,
  isSigned = false,
  hasTone = false,
  className,
  testId,
}: {
  value: string;
  decimals?: number;
  unit?: string;
  isSigned?: boolean;
  hasTone?: boolean;
  className?: string;
  testId?: string;
}) {
  const format = useFormatDecimal();
  const text = format(value, Math.min(decimals, DEFAULT_DECIMALS));
  const isZero = !/[1-9]/.test(text);
  const isNegative = text.startsWith('-');
  const sign = isSigned && !isNegative && !isZero ? '+' : '';
  const tone = !hasTone || isZero ? '' : isNegative ? ' is-loss' : ' is-gain';
  return (
    <span className={`num${tone}${className ? ` ${className}` : ''}`} data-testid={testId} data-value={value}>
      {sign}
      {text}
      {unit ? ` ${unit}` : ''}
    </span>
  );
}

/** Formats a unix-millisecond time in the user's language and time zone, to the second. */
export function useFormatTime(): (ms: number | null | undefined) => string {
  const { i18n } = useTranslation();
  const formatter = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  return (ms) => (ms ? formatter.format(ms) : '—');
}

/** `BTCUSDT` → `BTC/USDT` (the quote is the last known one the symbol ends with). */
export function pairLabel(symbol: string, base?: string, quote?: string): string {
  if (base && quote) return `${base}/${quote}`;
  const found = ['USDT', 'USDC', 'BTC', 'ETH'].find((q) => symbol.length > q.length && symbol.endsWith(q));
  return found ? `${symbol.slice(0, -found.length)}/${found}` : symbol;
}
