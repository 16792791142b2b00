import { ATOMS_PER_UNIT, fromAtoms, isAmountString, isDecimalString, toAtoms } from '@bourse/shared';
import {
  type OrderSide,
  type SpotOrderType,
  TRIGGER_ORDER_TYPES,
  type TriggerCondition,
  type TriggerOrderType,
} from '@bourse/shared/api';

/**
 * The order form's figures, exact on atoms (10^-8 of a coin), never on floats: what a slider
 * position fills in, what an order costs, what its fee can be, and how deep the book is.
 */

/** Atoms of a typed amount, or 0 while the field does not hold an amount yet. */
export function amountAtoms(text: string): bigint {
  return isAmountString(text) ? toAtoms(text) : 0n;
}

/** Atoms of a decimal from the server, or 0 when it is missing. */
export function decimalAtoms(text: string | null | undefined): bigint {
  return text && isDecimalString(text) ? toAtoms(text) : 0n;
}

/** A decimal without trailing zeros, for an input (`"0.19980000"` → `"0.1998"`, `"5.00"` → `"5"`). */
export function plainDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** `atoms` cut down to a whole number of `step`s (a step of 0 leaves them as they are). */
export function floorToStep(atoms: bigint, step: bigint): bigint {
  if (step <= 0n || atoms <= 0n) return atoms < 0n ? 0n : atoms;
  return atoms - (atoms % step);
}

/** True when `value` is a whole number of `step`s (the market's tick or lot size). */
export function isOnStep(value: string, step: string): boolean {
  const stepAtoms = decimalAtoms(step);
  return stepAtoms <= 0n || amountAtoms(value) % stepAtoms === 0n;
}

/** Decimals a step allows: `"0.01"` → 2, `"1"` → 0. */
export function stepDecimals(step: string): number {
  const text = plainDecimal(step);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

/** price × quantity in the quote coin, truncated to the atom. */
export function orderTotal(price: string, qty: string): string {
  return fromAtoms((amountAtoms(price) * amountAtoms(qty)) / ATOMS_PER_UNIT);
}

/** The higher of two fee ratios: what a limit order holds for, whichever role it ends up in. */
export function highestFee(makerFee: string, takerFee: string): string {
  const maker = decimalAtoms(makerFee);
  const taker = decimalAtoms(takerFee);
  return fromAtoms(maker > taker ? maker : taker);
}

/** True for the order types that wait for a trigger price (stop-limit, stop-market, take-profit). */
export function isTriggerType(type: SpotOrderType): type is TriggerOrderType {
  return (TRIGGER_ORDER_TYPES as readonly string[]).includes(type);
}

/** True for the types that enter the book at a limit price: limit, and stop-limit once it fires. */
export function hasLimitPrice(type: SpotOrderType): boolean {
  return type === 'limit' || type === 'stop_limit';
}

/**
 * The condition a trigger waits for on the last trade price, as the server derives it: a stop buys
 * when the price rises to its trigger and sells when it falls to it; a take-profit the other way.
 */
export function triggerCondition(type: TriggerOrderType, side: OrderSide): TriggerCondition {
  const isStop = type !== 'take_profit';
  return isStop === (side === 'buy') ? 'gte' : 'lte';
}

/**
 * True when `last` already meets the condition at `trigger`, so the server would refuse the order
 * (TRIGGER_WOULD_FIRE). False while either price is unknown: the server then has the last word.
 */
export function isTriggerReached(condition: TriggerCondition, last: string | null, trigger: string): boolean {
  const lastAtoms = decimalAtoms(last);
  const triggerAtoms = amountAtoms(trigger);
  if (lastAtoms <= 0n || triggerAtoms <= 0n) return false;
  return condition === 'gte' ? lastAtoms >= triggerAtoms : lastAtoms <= triggerAtoms;
}

export interface SliderInput {
  /** 0–100: the share of what is available. */
  percent: number;
  side: OrderSide;
  type: SpotOrderType;
  /** Available balance: the quote coin for buys, the base coin for sells. */
  available: string;
  /** The limit price (limit buys size the quantity by it). */
  price: string;
  lotSize: string;
  /** The fee ratio a limit buy holds for on top of price × quantity. */
  feeRatio: string;
}

/**
 * What a slider position fills in. A sell and a market buy spend `percent` of what is available
 * (the quantity on the lot size; a market buy's amount to the atom). A limit buy sizes the
 * quantity so that price × quantity plus the fee held fits in that share, on the lot size, rounding
 * the cost of a unit up so the hold never exceeds the balance. Empty when nothing fits.
 */
export function sliderAmount(input: SliderInput): { field: 'qty' | 'quote_amount'; value: string } {
  const percent = BigInt(Math.max(0, Math.min(100, Math.trunc(input.percent))));
  const share = (decimalAtoms(input.available) * percent) / 100n;
  const lot = decimalAtoms(input.lotSize);
  if (input.side === 'buy' && !hasLimitPrice(input.type)) {
    return { field: 'quote_amount', value: share > 0n ? plainDecimal(fromAtoms(share)) : '' };
  }
  let qty = share;
  if (input.side === 'buy') {
    const price = amountAtoms(input.price);
    if (price <= 0n) return { field: 'qty', value: '' };
    const withFee = price * (ATOMS_PER_UNIT + decimalAtoms(input.feeRatio));
    const unitCost = (withFee + ATOMS_PER_UNIT - 1n) / ATOMS_PER_UNIT;
    qty = (share * ATOMS_PER_UNIT) / unitCost;
  }
  const onLot = floorToStep(qty, lot);
  return { field: 'qty', value: onLot > 0n ? plainDecimal(fromAtoms(onLot)) : '' };
}

export interface OrderEstimate {
  /** What the order trades in the quote coin (exact for a limit order, estimated for a market one). */
  total: string;
  /** The quantity of base (estimated for a market buy by amount). */
  qty: string;
  /** The fee at most: in the base coin for buys, in the quote coin for sells. */
  fee: string;
}

/**
 * What an order will cost and bring before it is sent. An order without a limit price is estimated
 * at `referencePrice` (the best opposite price in the book; for a stop-market or take-profit, its
 * trigger price); fees at `feeRatio`.
 */
export function estimateOrder(input: {
  side: OrderSide;
  type: SpotOrderType;
  price: string;
  qty: string;
  quoteAmount: string;
  referencePrice: string | null;
  feeRatio: string;
}): OrderEstimate {
  const fee = decimalAtoms(input.feeRatio);
  const isLimit = hasLimitPrice(input.type);
  const price = isLimit ? amountAtoms(input.price) : decimalAtoms(input.referencePrice);
  let qty = amountAtoms(input.qty);
  let total = (price * qty) / ATOMS_PER_UNIT;
  if (input.side === 'buy' && !isLimit) {
    total = amountAtoms(input.quoteAmount);
    qty = price > 0n ? (total * ATOMS_PER_UNIT) / price : 0n;
  }
  const feeAtoms = ((input.side === 'buy' ? qty : total) * fee) / ATOMS_PER_UNIT;
  return { total: fromAtoms(total), qty: fromAtoms(qty), fee: fromAtoms(feeAtoms) };
}

/** A fee ratio as a percentage with two decimals: `"0.001"` → `"0.10"`. */
export function feePercent(ratio: string): string {
  return fromAtoms(decimalAtoms(ratio) * 100n, 2);
}

/** A completion degree (`"37.50"`) as the width of its bar, 0–100. */
export function completionWidth(completion: string): number {
  const hundredths = decimalAtoms(completion) / (ATOMS_PER_UNIT / 100n);
  const clamped = hundredths < 0n ? 0n : hundredths > 10_000n ? 10_000n : hundredths;
  return Number(clamped) / 100;
}

export interface BookRow {
  price: string;
  qty: string;
  /** The running total's share of the deeper side, 0–100, for the depth bar. */
  depth: number;
}

/**
 * The rows of one side of the book, best price first, at most `count`, each with the width of its
 * depth bar: the cumulative quantity up to that level over the largest cumulative of both sides,
 * so bids and asks compare at a glance.
 */
export function bookRows(
  levels: readonly (readonly [string, string])[],
  count: number,
  deepest: bigint,
): BookRow[] {
  let running = 0n;
  return levels.slice(0, count).map(([price, qty]) => {
    running += decimalAtoms(qty);
    const share = deepest > 0n ? Number((running * 10_000n) / deepest) / 100 : 0;
    return { price, qty, depth: Math.min(100, share) };
  });
}

/** The sum of the first `count` quantities of a side (the `deepest` of `bookRows`). */
export function sideDepth(levels: readonly (readonly [string, string])[], count: number): bigint {
  return levels.slice(0, count).reduce((sum, [, qty]) => sum + decimalAtoms(qty), 0n);
}
