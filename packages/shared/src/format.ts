/**
 * Formatting shared by server and clients. Amounts travel as decimal strings and are shown
 * truncated (never rounded), 8 decimals unless a market or coin says otherwise.
 */
export const DEFAULT_DECIMALS = 8;

const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

/** True when `value` is a plain decimal string such as "12", "-0.5" or "3.14159265". */
export function isDecimalString(value: string): boolean {
  return DECIMAL_RE.test(value);
}

/**
 * Truncates a decimal string (or number) to `decimals` places, padding with zeros.
 * `truncateDecimal('1.239', 2)` → `'1.23'`; `truncateDecimal('-1.239', 2)` → `'-1.23'`.
 * Anything that is not a finite decimal gives `'0'` padded to the precision.
 */
export function truncateDecimal(value: string | number | bigint, decimals = DEFAULT_DECIMALS): string {
  let text = typeof value === 'number' ? numberToPlain(value) : String(value).trim();
  if (!isDecimalString(text)) text = '0';
  const negative = text.startsWith('-');
  if (negative) text = text.slice(1);
  const [intPartRaw, fracRaw = ''] = text.split('.');
  const intPart = intPartRaw.replace(/^0+(?=\d)/, '');
  const frac = fracRaw.slice(0, decimals).padEnd(decimals, '0');
  const body = decimals > 0 ? `${intPart}.${frac}` : intPart;
  const isZero = /^[0.]*$/.test(body);
  return negative && !isZero ? `-${body}` : body;
}

/**
 * A decimal string without trailing zeros after its point, for an amount inside a sentence, an
 * input's starting value or a hint: `"100.50000000"` → `"100.5"`, `"10.00"` → `"10"`, `"100"` stays.
 * The one copy for both front ends (it was written three times).
 */
export function trimDecimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) return '0';
  // why: toString gives exponent notation for tiny/huge numbers; toFixed(20) keeps digits plain.
  const text = value.toString();
  return text.includes('e') ? value.toFixed(20) : text;
}

/** Most decimals an amount may carry (atoms are 10^-8 units). */
export const MAX_AMOUNT_DECIMALS = 8;

/**
 * Most integer digits an amount on the wire may carry: every amount is below 10^10 units
 * (10^18 atoms), whatever the asset.
 *
 * why: atoms live in signed 64-bit columns (at most 2^63 − 1 ≈ 9.22 × 10^18). One amount of 10^19
 * atoms or more fails in the driver (a 500), and amounts a little below 2^63 overflow as soon as two
 * are added (a balance, a fee, a reservation). Below 10^18 atoms, nine of the largest amounts still
 * add up inside 64 bits, and the bound is still far above any real deposit, order or adjustment
 * (ten billion units of any coin).
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 10;

/** The largest amount, in atoms, that {@link isAmountString} lets through (10^18 − 1). */
export const MAX_AMOUNT_ATOMS = 10n ** 18n - 1n;

/** The largest record id: ids are signed 64-bit integers in every store (2^63 − 1). */
export const MAX_RECORD_ID = 2n ** 63n - 1n;

// why: {1,10} is MAX_AMOUNT_INTEGER_DIGITS.
const AMOUNT_RE = /^\d{1,10}(\.\d{1,8})?$/;

/**
 * True when `value` is an amount a user may type: digits with at most 8 decimals and
 * {@link MAX_AMOUNT_INTEGER_DIGITS} integer digits, no sign, no exponent (`"12"`, `"0.5"`,
 * `"1.23456789"`; not `"1.234567891"`, `"-1"`, `".5"`, `"10000000000"`).
 */
export function isAmountString(value: string): boolean {
  return AMOUNT_RE.test(value);
}

/**
 * Parses an amount a user typed into atoms exactly: throws a RangeError where {@link isAmountString}
 * says no (never truncates, unlike {@link toAtoms}).
 */
export function parseAmount(value: string): bigint {
  if (!isAmountString(value)) throw new RangeError(`not an amount: ${value}`);
  return toAtoms(value);
}

/** Atoms per unit for every asset (10^8). */
export const ATOMS_PER_UNIT = 100_000_000n;

/** Zeros to pad a fraction to 8 digits. */
const EIGHT_ZEROS = '00000000';
const NONZERO_DIGIT = /[1-9]/;

/** Parses a decimal string into bigint atoms, truncating beyond 8 decimals. Throws on non-decimals. */
export function toAtoms(value: string): bigint {
  const text = value.trim();
  if (!isDecimalString(text)) throw new RangeError(`not a decimal: ${value}`);
  const negative = text.charCodeAt(0) === 45; // '-'
  const start = negative ? 1 : 0;
  const dot = text.indexOf('.');
  // why: one BigInt of the integer digits followed by exactly 8 fraction digits; parsing two
  // BigInts and multiplying was a share of order entry's profile (every place parses two amounts).
  let digits: string;
  if (dot < 0) digits = text.slice(start) + EIGHT_ZEROS;
  else {
    const frac = text.slice(dot + 1, dot + 9);
    digits = text.slice(start, dot) + frac + EIGHT_ZEROS.slice(frac.length);
  }
  const atoms = BigInt(digits);
  return negative ? -atoms : atoms;
}

/**
 * Formats bigint atoms as a decimal string, truncated to `decimals` places (8 by default):
 * `123456789n` → `'1.23456789'`; a value that truncates to zero loses its sign, as
 * {@link truncateDecimal} does (`fromAtoms(-1n, 2)` → `'0.00'`).
 */
export function fromAtoms(atoms: bigint, decimals = DEFAULT_DECIMALS): string {
  const negative = atoms < 0n;
  const abs = negative ? -atoms : atoms;
  const intPart = (abs / ATOMS_PER_UNIT).toString();
  // why: built directly from the digits; going through truncateDecimal's string parsing and
  // regular expressions cost a share of every answer that carries amounts.
  if (decimals <= 0) return negative && intPart !== '0' ? `-${intPart}` : intPart;
  const frac = (abs % ATOMS_PER_UNIT).toString().padStart(8, '0').slice(0, decimals).padEnd(decimals, '0');
  const body = `${intPart}.${frac}`;
  const zero = intPart === '0' && !NONZERO_DIGIT.test(frac);
  return negative && !zero ? `-${body}` : body;
}

export type DurationUnit = 'seconds' | 'hours' | 'days';

/**
 * The spec's duration rule: under 3600 s in seconds, under 604800 s in hours, else in days.
 * Values are truncated to whole units.
 */
export function splitDuration(totalSeconds: number): { value: number; unit: DurationUnit } {
  const seconds = Math.max(0, Math.trunc(totalSeconds));
  if (seconds < 3600) return { value: seconds, unit: 'seconds' };
  if (seconds < 604800) return { value: Math.trunc(seconds / 3600), unit: 'hours' };
  return { value: Math.trunc(seconds / 86400), unit: 'days' };
}

/** Percentage with sign and two decimals, truncated: `1.234` → `'+1.23%'`. */
export function formatPercent(value: string | number): string {
  const text = truncateDecimal(value, 2);
  return `${text.startsWith('-') ? '' : '+'}${text}%`;
}
