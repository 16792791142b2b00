import type { Millis } from './schema.ts';

/**
 * The one place where the clock's time (unix milliseconds as a `number`, like `Date.now()`) and
 * the store's time (`Millis`, a `bigint` column) meet. Unix milliseconds stay below 2^53 for
 * another 285,000 years, so the conversion is exact.
 */
export function toMillis(ms: number): Millis {
  if (!Number.isSafeInteger(ms)) throw new RangeError(`not a whole millisecond: ${ms}`);
  return BigInt(ms);
}

export function fromMillis(stored: Millis): number {
  return Number(stored);
}

/** A stored id or count as a wire number; throws rather than round a value above 2^53. */
export function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`integer ${value} does not fit a JSON number`);
  }
  return Number(value);
}
