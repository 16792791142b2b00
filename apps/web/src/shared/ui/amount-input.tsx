import { MAX_AMOUNT_INTEGER_DIGITS } from '@bourse/shared';
import type { ReactNode } from 'react';
import { TextField, type TextFieldProps } from './text-field.tsx';

/** Longest integer part an amount may have (as `isAmountString` of @bourse/shared allows). */
export const AMOUNT_MAX_INTEGER_DIGITS = MAX_AMOUNT_INTEGER_DIGITS;

/**
 * What an amount field may hold after `raw` was typed or pasted, for a coin shown with `decimals`
 * places: digits, at most one decimal point, at most `decimals` digits after it (none when
 * `decimals` is 0). A comma counts as the decimal point (the decimal keypad of several locales
 * types one), a leading point gets its zero (`.5` → `0.5`) and leading zeros collapse (`007` →
 * `7`). Returns the normalized text, or null when `raw` cannot be an amount of this coin — the
 * field then keeps its previous value.
 */
export function sanitizeAmount(raw: string, decimals: number): string | null {
  const places = Math.max(0, Math.trunc(decimals));
  const text = raw.replace(/\s+/g, '').replace(',', '.');
  if (text === '') return '';
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const [, intRaw = '', frac] = match;
  if (frac !== undefined && places === 0) return null;
  if (frac !== undefined && frac.length > places) return null;
  const intPart = intRaw.replace(/^0+(?=\d)/, '') || (frac !== undefined ? '0' : '');
  if (intPart.length > AMOUNT_MAX_INTEGER_DIGITS) return null;
  return frac === undefined ? intPart : `${intPart}.${frac}`;
}

export interface AmountInputProps
  extends Omit<TextFieldProps, 'type' | 'inputMode' | 'onChange' | 'value' | 'trailing'> {
  value: string;
  onChange: (value: string) => void;
  /** The coin's precision: digits allowed after the decimal point. */
  decimals: number;
  /** Unit and quick actions at the end of the field (e.g. the coin and an "All" button). */
  trailing?: ReactNode;
}

/**
 * The one amount field of the app: a labelled decimal input that refuses any keystroke or paste
 * the coin's precision does not allow (see `sanitizeAmount`), so the value is always a plain
 * decimal string ready for the API.
 */
export function AmountInput({ value, onChange, decimals, trailing, ...rest }: AmountInputProps) {
  return (
    <TextField
      {...rest}
      type="text"
      inputMode={decimals > 0 ? 'decimal' : 'numeric'}
      autoComplete="off"
      spellCheck={false}
      value={value}
      trailing={trailing}
      onChange={(raw) => {
        const next = sanitizeAmount(raw, decimals);
        if (next !== null && next !== value) onChange(next);
      }}
    />
  );
}
