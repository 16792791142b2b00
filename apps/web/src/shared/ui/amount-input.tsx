import { MAX_AMOUNT_INTEGER_DIGITS } from '@bourse/shared';
import { type FocusEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimalInput } from '../format/format-decimal.ts';
import { type DecimalTextError, parseLocaleDecimal } from '../format/parse-decimal.ts';
import { TextField, type TextFieldProps } from './text-field.tsx';

/** Longest integer part an amount may have (as `isAmountString` of @bourse/shared allows). */
export const AMOUNT_MAX_INTEGER_DIGITS = MAX_AMOUNT_INTEGER_DIGITS;

/**
 * What an amount field reports while its text is not a number it can read (ambiguous, badly
 * grouped, too many decimals): no amount schema accepts it, so a form cannot be sent with a value
 * other than the one the field shows.
 */
export const UNREADABLE_AMOUNT = 'unreadable';

/** What an amount field does with a text typed or pasted: see {@link readAmountText}. */
export type AmountTextReading =
  | { isRefused: true }
  | { isRefused: false; value: string; error: Exclude<DecimalTextError, 'too-long'> | null };

/**
 * What an amount field does with `raw`, typed or pasted over `previous`, for a coin shown with
 * `decimals` places in `locale`. It keeps the text as typed and reports the plain decimal it reads
 * (`parseLocaleDecimal`), or {@link UNREADABLE_AMOUNT} and the reason when it reads none. It
 * refuses (the field keeps its text) what is not digits, marks and blanks — a sign, an exponent, a
 * letter —, an integer part longer than an amount may have, and a keystroke after which no more
 * digits could make the text readable (a ninth decimal of an 8-place coin, a second point); a
 * keystroke that may still lead somewhere (`94.50` on the way to `94.500` in German, a 1-place
 * field) and a pasted text are kept, with the reason, so a paste is never dropped without a word.
 */
export function readAmountText(
  raw: string,
  decimals: number,
  locale: string,
  previous = '',
): AmountTextReading {
  if (/[^\d.,\s]/.test(raw)) return { isRefused: true };
  const parsed = parseLocaleDecimal(raw, locale, decimals);
  if ('value' in parsed) return { isRefused: false, value: parsed.value, error: null };
  if (parsed.error === 'too-long') return { isRefused: true };
  if (isOneKeystroke(raw, previous) && !canStillBeRead(raw, locale, decimals)) return { isRefused: true };
  return { isRefused: false, value: UNREADABLE_AMOUNT, error: parsed.error };
}

/** True when `raw` is `previous` with one character typed into it (not a paste, not a deletion). */
function isOneKeystroke(raw: string, previous: string): boolean {
  if (raw.length !== previous.length + 1) return false;
  let at = 0;
  while (at < previous.length && raw[at] === previous[at]) at += 1;
  return raw.slice(at + 1) === previous.slice(at);
}

/** True when `text` followed by a few more digits reads as a number (or as an ambiguous one). */
function canStillBeRead(text: string, locale: string, decimals: number): boolean {
  return ['0', '00', '000'].some((tail) => {
    const parsed = parseLocaleDecimal(text + tail, locale, decimals);
    return 'value' in parsed || parsed.error === 'ambiguous';
  });
}

/** The translated text of a reading's error, with an example written the locale's way. */
function useAmountErrorText(): (error: Exclude<DecimalTextError, 'too-long'>, decimals: number) => string {
  const { t, i18n } = useTranslation();
  return (error, decimals) => {
    if (error === 'precision')
      return decimals > 0 ? t('form.number.precision', { decimals }) : t('form.number.whole');
    const example = formatDecimalInput(decimals > 0 ? '1234.5' : '1234', i18n.language);
    return t(error === 'ambiguous' ? 'form.number.ambiguous' : 'form.number.invalid', { example });
  };
}

export interface AmountInputProps
  extends Omit<TextFieldProps, 'type' | 'inputMode' | 'onChange' | 'value' | 'trailing'> {
  /** The amount as a plain decimal string (`"94500.5"`), as the API takes it. */
  value: string;
  /** The plain decimal read from the text, or {@link UNREADABLE_AMOUNT} while it cannot be read. */
  onChange: (value: string) => void;
  /** The coin's precision: digits allowed after the decimal point. */
  decimals: number;
  /** Unit and quick actions at the end of the field (e.g. the coin and an "All" button). */
  trailing?: ReactNode;
}

/**
 * The one amount field of the app. It reads and writes numbers the way the page shows them in the
 * user's language (`94.941,69` in German) and in the plain `.` form, and reports a plain decimal
 * string ready for the API. The text stays as typed (nothing is reformatted under the user's
 * fingers) until the field is left or its value is set from outside (a pre-filled price, a quick
 * button, a price tapped in the book), when it is written the locale's way. A text it cannot read
 * for sure shows why under the field and never reaches the form as a number.
 */
export function AmountInput({
  value,
  onChange,
  decimals,
  trailing,
  error,
  onBlur,
  ...rest
}: AmountInputProps) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const errorText = useAmountErrorText();
  const [text, setText] = useState(() => formatDecimalInput(value, locale));
  const [textError, setTextError] = useState<Exclude<DecimalTextError, 'too-long'> | null>(null);
  // why: a text still being typed may be unreadable on its way (`1.234.5` before `1.234.567` in
  // German); its reason shows once the field is left, a pasted text's at once.
  const [isTyping, setIsTyping] = useState(false);
  // why: the value and language the text was last written for; a different value arriving from
  // outside (or a new language) rewrites the text, the value the text itself reported does not.
  const [shown, setShown] = useState({ value, locale });
  if (shown.value !== value || shown.locale !== locale) {
    setShown({ value, locale });
    if (value !== UNREADABLE_AMOUNT) {
      setText(formatDecimalInput(value, locale));
      setTextError(null);
    }
  }
  return (
    <TextField
      {...rest}
      type="text"
      inputMode={decimals > 0 ? 'decimal' : 'numeric'}
      autoComplete="off"
      spellCheck={false}
      value={text}
      trailing={trailing}
      error={textError && !isTyping ? errorText(textError, decimals) : textError ? undefined : error}
      onChange={(raw) => {
        const reading = readAmountText(raw, decimals, locale, text);
        if (reading.isRefused) return;
        setText(raw);
        setTextError(reading.error);
        setIsTyping(isOneKeystroke(raw, text));
        setShown({ value: reading.value, locale });
        if (reading.value !== value) onChange(reading.value);
      }}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        setIsTyping(false);
        // why: once left, the field shows how it read the text (`94482.17` becomes `94.482,17`).
        if (!textError && value !== '') setText(formatDecimalInput(value, locale));
        onBlur?.(event);
      }}
    />
  );
}
