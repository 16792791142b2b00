import { DEFAULT_DECIMALS } from '@bourse/shared';
import { useFormatDecimal } from '../format/format-decimal.ts';

/**
 * An amount or price: the decimal string truncated (never rounded) to `decimals` (8 places unless
 * the coin says otherwise), grouped the locale's way, in tabular figures, with its unit.
 * `isSigned` writes `+` before a positive amount (bills, profits); `hasTone` colours a profit or
 * loss in the user's up/down colours (the sign says it too).
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
