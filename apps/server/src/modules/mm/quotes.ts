import { ATOMS_PER_UNIT } from '@bourse/shared';

/** One resting order the maker wants on the book. */
export interface Quote {
  side: 'buy' | 'sell';
  price: bigint;
  qty: bigint;
}

export interface QuoteInput {
  index: bigint;
  tickSize: bigint;
  lotSize: bigint;
  minNotional: bigint;
  levels: number;
  spreadBps: bigint;
  stepBps: bigint;
  levelQty: bigint;
  inventoryTarget: bigint;
  maxInventoryDeviation: bigint;
  /** The maker's base coin, free and held (its inventory). */
  inventory: bigint;
  /** Quote atoms the bids may hold, and base atoms the asks may hold. */
  quoteBudget: bigint;
  baseBudget: bigint;
}

/**
 * The ladder around the index: level k of the bids at `index × (1 − (spread/2 + k·step))`, rounded
 * down to the tick, the asks at `index × (1 + (spread/2 + k·step))` rounded up, so every bid lies
 * below the index and every ask above it and the maker never crosses itself. A side stops when the
 * inventory is outside its limits (no bids while too long, no asks while too short) or when its
 * funds run out.
 */
export function planQuotes(input: QuoteInput): Quote[] {
  const { index, tickSize, lotSize } = input;
  const qty = (input.levelQty / lotSize) * lotSize;
  if (index <= 0n || qty <= 0n || input.spreadBps <= 0n) return [];
  const tooLong = input.inventory > input.inventoryTarget + input.maxInventoryDeviation;
  const tooShort = input.inventory < input.inventoryTarget - input.maxInventoryDeviation;
  const quotes: Quote[] = [];
  let quoteBudget = input.quoteBudget;
  let baseBudget = input.baseBudget;
  let lastBid = 0n;
  let lastAsk = 0n;
  for (let k = 0n; k < BigInt(input.levels); k++) {
    // why: in 1/20,000 of the index, so half of an odd spread stays exact.
    const offset = input.spreadBps + 2n * k * input.stepBps;
    const bid = ((index * (20_000n - offset)) / 20_000n / tickSize) * tickSize;
    const ask = ceilDiv(ceilDiv(index * (20_000n + offset), 20_000n), tickSize) * tickSize;
    const bidNotional = (bid * qty) / ATOMS_PER_UNIT;
    if (
      !tooLong &&
      bid > 0n &&
      bid !== lastBid &&
      bidNotional >= input.minNotional &&
      bidNotional <= quoteBudget
    ) {
      quotes.push({ side: 'buy', price: bid, qty });
      quoteBudget -= bidNotional;
      lastBid = bid;
    }
    const askNotional = (ask * qty) / ATOMS_PER_UNIT;
    if (!tooShort && ask !== lastAsk && askNotional >= input.minNotional && qty <= baseBudget) {
      quotes.push({ side: 'sell', price: ask, qty });
      baseBudget -= qty;
      lastAsk = ask;
    }
  }
  return quotes;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
