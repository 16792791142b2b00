import { ATOMS_PER_UNIT, fromAtoms, isAmountString, toAtoms, truncateDecimal } from '@bourse/shared';

/**
 * What a contract can cost and return, computed exactly on atoms (10^-8 USDT), never on floats:
 * the house pays amount × ratio on top of the amount on a win and keeps the amount on a loss.
 */

/** Atoms of a typed amount, or 0 while the field does not hold an amount yet. */
export function amountAtoms(amount: string): bigint {
  return isAmountString(amount) ? toAtoms(amount) : 0n;
}

/** The profit of a win: amount × ratio, truncated to the atom (as the server pays it). */
export function expectedProfit(amount: string, ratio: string): string {
  return fromAtoms((amountAtoms(amount) * toAtoms(ratio)) / ATOMS_PER_UNIT);
}

/** What a win returns in all: amount × (1 + ratio). */
export function expectedPayout(amount: string, ratio: string): string {
  const atoms = amountAtoms(amount);
  return fromAtoms(atoms + (atoms * toAtoms(ratio)) / ATOMS_PER_UNIT);
}

/**
 * The share of contracts that must win to come out even, 1 / (1 + ratio), as a percentage cut
 * to two decimals: ratio `0.80` → `"55.55"`, ratio `1` → `"50.00"`.
 */
export function breakEvenPercent(ratio: string): string {
  const denominator = ATOMS_PER_UNIT + toAtoms(ratio);
  if (denominator <= 0n) return '0.00';
  // why: basis points of a percent (10^4 per 100 %), so the division keeps two exact decimals.
  const hundredths = (10_000n * ATOMS_PER_UNIT) / denominator;
  return fromAtoms(hundredths * (ATOMS_PER_UNIT / 100n), 2);
}

/** The payout ratio as a percentage with two decimals: `"0.85"` → `"85.00"`. */
export function ratioPercent(ratio: string): string {
  return truncateDecimal(fromAtoms(toAtoms(ratio) * 100n), 2);
}

/** A quick amount chip: its value, and whether it is "the most you can put in". */
export interface QuickAmount {
  value: string;
  isMax: boolean;
}

const ROUND_AMOUNTS = ['100', '500', '1000'];

/** A decimal without trailing zeros, for the input (`"10.50000000"` → `"10.5"`). */
export function plainAmount(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * The quick amounts of the sheet: the period's minimum, the round amounts strictly between it
 * and the most the user can put in, then that most (the smaller of the period's maximum and the
 * balance), each once. Nothing when even the minimum is out of reach.
 */
export function quickAmounts(min: string, max: string, balance: string): QuickAmount[] {
  const low = toAtoms(min);
  const cap = toAtoms(max);
  const funds = toAtoms(balance);
  const high = cap > 0n && cap < funds ? cap : funds;
  if (high < low || high <= 0n) return [];
  const chips: QuickAmount[] = [];
  if (low > 0n) chips.push({ value: plainAmount(fromAtoms(low)), isMax: false });
  for (const round of ROUND_AMOUNTS) {
    const atoms = toAtoms(round);
    if (atoms > low && atoms < high) chips.push({ value: round, isMax: false });
  }
  if (high > low || low === 0n) chips.push({ value: plainAmount(fromAtoms(high)), isMax: true });
  return chips;
}
