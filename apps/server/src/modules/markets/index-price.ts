import type { CONSTITUENT_DROP_REASONS } from '@bourse/shared/api';

/** Why a source took no part in an index tick (the wire's reasons). */
export type DropReason = (typeof CONSTITUENT_DROP_REASONS)[number];

/** One source's part in one index tick: its price and time (null when it had none), used or why dropped. */
export interface Constituent {
  source: string;
  price: bigint | null;
  at: number | null;
  used: boolean;
  reason: DropReason | null;
}

/** One source's latest price of a symbol: 10^-8 units of the quote coin, and when it was quoted. */
export interface SourceQuote {
  source: string;
  price: bigint;
  at: number;
}

/** The index of a symbol at one instant, the label of the sources it was made of, and every source's part. */
export interface IndexPrice {
  price: bigint;
  at: number;
  source: string;
  constituents: Constituent[];
}

/** A source configured for a symbol that has no quote to give, and why. */
export interface MissingSource {
  source: string;
  reason: DropReason;
}

export interface IndexAggregatorOptions {
  /** A quote older than this (now − at > staleMs) is dropped as `stale`. */
  staleMs: number;
  /** A quote further than this many basis points from the median of the other quotes is an `outlier`. */
  outlierBps: number;
  /** Fewer used quotes than this, no index. */
  minSources: number;
}

const BPS = 10_000n;

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The median of sorted prices: the middle one, or with an even count the mean of the two middle ones, rounded down. */
function median(sorted: readonly bigint[]): bigint {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2n;
}

/**
 * True when `price` is further than `bps` from every median of `others` (sorted, not empty).
 * why: with an even count of others, any value between the two middle ones is a median; measuring
 * from their mean instead would let the outlier itself drag the reference, so that of 100, 100.5 and
 * 200 the two good quotes would each look 33% off the mean of the other two.
 */
function isOutlier(price: bigint, others: readonly bigint[], bps: bigint): boolean {
  const middle = Math.floor(others.length / 2);
  const low = others.length % 2 === 1 ? others[middle]! : others[middle - 1]!;
  const high = others[middle]!;
  const reference = price < low ? low : price > high ? high : price;
  const distance = price > reference ? price - reference : reference - price;
  return distance * BPS > bps * reference;
}

function assertWholeNumber(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number ≥ ${min}: ${value}`);
  }
}

/**
 * Makes a symbol's index from its sources' quotes, in bigint atoms only:
 * - a quote older than `staleMs` is dropped `stale`; a price ≤ 0 is dropped `invalid`;
 * - a quote further than `outlierBps` from the median of the other valid quotes is dropped `outlier`.
 *   With exactly two valid quotes that disagree beyond the band, neither can be shown wrong, so both
 *   are dropped: no index is safer than an index that may be one venue's bad print;
 * - the index is the median of the used quotes (even count: mean of the two middle ones, rounded
 *   down to the atom), labelled with the source's name, or `median(a,b,c)` for several;
 * - with fewer than `minSources` used quotes there is no index, but every constituent is still returned.
 * Constituents, used or dropped (with `missing` sources listed as dropped without price), are sorted by source.
 */
export class IndexAggregator {
  readonly staleMs: number;
  readonly outlierBps: number;
  readonly minSources: number;

  constructor(options: IndexAggregatorOptions) {
    assertWholeNumber('staleness limit (ms)', options.staleMs, 0);
    assertWholeNumber('outlier band (bps)', options.outlierBps, 0);
    assertWholeNumber('minimum sources', options.minSources, 1);
    this.staleMs = options.staleMs;
    this.outlierBps = options.outlierBps;
    this.minSources = options.minSources;
  }

  /**
   * The index at `now` from `quotes` (at most one per source), and every source's part in it.
   * `missing`: sources configured for the symbol that have no quote (down, unmapped), listed as dropped
   * constituents; a source that also has a quote is judged by its quote.
   */
  aggregate(
    quotes: readonly SourceQuote[],
    now: number,
    missing: readonly MissingSource[] = [],
  ): { index: IndexPrice | undefined; constituents: Constituent[] } {
    const constituents: Constituent[] = [];
    const valid: Constituent[] = [];
    for (const quote of quotes) {
      const constituent: Constituent = {
        source: quote.source,
        price: quote.price,
        at: quote.at,
        used: false,
        reason: null,
      };
      if (now - quote.at > this.staleMs) constituent.reason = 'stale';
      else if (quote.price <= 0n) constituent.reason = 'invalid';
      else valid.push(constituent);
      constituents.push(constituent);
    }

    const validPrices = valid.map((c) => c.price!).sort(compare);
    const band = BigInt(this.outlierBps);
    for (const constituent of valid) {
      const others = [...validPrices];
      others.splice(others.indexOf(constituent.price!), 1);
      if (others.length > 0 && isOutlier(constituent.price!, others, band)) constituent.reason = 'outlier';
      else constituent.used = true;
    }

    const quoted = new Set(quotes.map((q) => q.source));
    for (const { source, reason } of missing) {
      if (quoted.has(source)) continue;
      quoted.add(source);
      constituents.push({ source, price: null, at: null, used: false, reason });
    }
    constituents.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));

    const used = constituents.filter((c) => c.used);
    if (used.length < this.minSources) return { index: undefined, constituents };
    const price = median(used.map((c) => c.price!).sort(compare));
    const names = used.map((c) => c.source);
    const source = names.length === 1 ? names[0]! : `median(${names.join(',')})`;
    return { index: { price, at: now, source, constituents }, constituents };
  }
}
