import {
  CONSTITUENT_DROP_REASONS,
  type IndexCandle,
  type IndexConstituent,
  type IndexTick,
  KLINE_INTERVALS,
  type KlineUpdate,
} from '@bourse/shared/api';

// why: the wire's zod schemas (`IndexTick`, `KlineUpdate` of `@bourse/shared/api`) would bring
// zod and every schema of the API into the trade tab, a large part of its first load and a long
// task building them. The frames of the two channels are small and fixed, so they are read here by
// hand, exactly as those schemas read them (unknown keys dropped, a frame that does not match
// ignored), over the wire's own lists of values (modules without zod); index-frames.test.ts holds
// the two readings side by side.

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isOneOf<Value extends string>(values: readonly Value[], value: unknown): value is Value {
  return (values as readonly unknown[]).includes(value);
}

function readConstituent(value: unknown): IndexConstituent | null {
  if (!isObject(value)) return null;
  const { source, price, at, used, reason } = value;
  if (!isString(source) || (price !== null && !isString(price)) || (at !== null && !isNumber(at)))
    return null;
  if (typeof used !== 'boolean' || (reason !== null && !isOneOf(CONSTITUENT_DROP_REASONS, reason)))
    return null;
  return { source, price, at, used, reason };
}

/** An `index:<symbol>` frame as an index tick, or null when it is not one. */
export function readIndexTick(data: unknown): IndexTick | null {
  if (!isObject(data)) return null;
  const { symbol, price, at, source, constituents } = data;
  if (!isString(symbol) || !isString(price) || !isNumber(at) || !isString(source)) return null;
  if (constituents === undefined) return { symbol, price, at, source };
  if (!Array.isArray(constituents)) return null;
  const parts: IndexConstituent[] = [];
  for (const each of constituents) {
    const part = readConstituent(each);
    if (!part) return null;
    parts.push(part);
  }
  return { symbol, price, at, source, constituents: parts };
}

function readCandle(value: unknown): IndexCandle | null {
  if (!isObject(value)) return null;
  const { t, o, h, l, c } = value;
  if (!isNumber(t) || !isString(o) || !isString(h) || !isString(l) || !isString(c)) return null;
  return { t, o, h, l, c };
}

/** A `kline:<symbol>:<interval>` frame as a candle update, or null when it is not one. */
export function readKlineUpdate(data: unknown): KlineUpdate | null {
  if (!isObject(data)) return null;
  const { symbol, interval } = data;
  const candle = readCandle(data.candle);
  if (!isString(symbol) || !isOneOf(KLINE_INTERVALS, interval) || !candle) return null;
  return { symbol, interval, candle };
}
