/** One source's latest price of a symbol: 10^-8 units of the quote coin, and when it was quoted. */
export interface SourceQuote {
  source: string;
  price: bigint;
  at: number;
}

/** The index of a symbol at one instant, and the label of the sources it was made of. */
export interface IndexPrice {
  price: bigint;
  at: number;
  source: string;
}

/**
 * Makes a symbol's index from its sources' quotes: quotes older than `staleMs` are dropped, and
 * the index is the median of those left (with an even count, the mean of the two middle prices,
 * rounded down to the atom). One live source is the index itself, labelled with its name; several
 * are labelled `median(a,b,c)`. No live source, no index.
 */
export class IndexAggregator {
  readonly staleMs: number;

  constructor(options: { staleMs: number }) {
    if (!Number.isSafeInteger(options.staleMs) || options.staleMs < 0) {
      throw new RangeError(`staleness limit must be a whole number of ms: ${options.staleMs}`);
    }
    this.staleMs = options.staleMs;
  }

  aggregate(quotes: readonly SourceQuote[], now: number): IndexPrice | undefined {
    const live = quotes.filter((q) => now - q.at <= this.staleMs && q.price > 0n);
    if (live.length === 0) return undefined;
    const prices = live.map((q) => q.price).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const middle = Math.floor(prices.length / 2);
    const price = prices.length % 2 === 1 ? prices[middle]! : (prices[middle - 1]! + prices[middle]!) / 2n;
    const names = live.map((q) => q.source).sort();
    return { price, at: now, source: names.length === 1 ? names[0]! : `median(${names.join(',')})` };
  }
}
