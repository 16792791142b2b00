import type { Ticker } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import type { Constituent, IndexAggregator } from './index-price.ts';
import { buildTicker, type FeedMarket, type PriceFeed } from './price-feed.ts';
import type { Candle, IndexValue, RecordedPrice } from './service.ts';
import type { VenueMarket, VenuePriceFeed, VenueSourceState } from './venue-feed.ts';

const DAY_MS = 24 * 60 * 60_000;

/** What the feed keeps of one market: its recorded index, and its 1m candles of the last 24 hours. */
interface MarketWindow {
  market: FeedMarket;
  latest: IndexValue | undefined;
  /** 1m candles by open time, oldest first (at most a day of them). */
  minutes: Map<number, Candle>;
}

/**
 * The real index as a `PriceFeed`: the venues' quotes of each market go through the aggregator
 * (median, stale and outlier sources dropped); the markets module records each tick, then tells
 * this feed (`note`), so the tickers and their 24h figures are those of the recorded index, its
 * 1m candles of the last day, never of anything unrecorded.
 */
export class VenueIndexFeed implements PriceFeed {
  readonly source = 'venues';
  readonly venues: VenuePriceFeed;
  readonly aggregator: IndexAggregator;
  readonly #clock: Clock;
  readonly #windows = new Map<string, MarketWindow>();
  /** The constituents of the latest aggregation per symbol, with an index or not (this node's feed). */
  readonly #sampled = new Map<string, Constituent[]>();
  readonly #listeners = new Set<(tickers: Ticker[]) => void>();

  constructor(options: { venues: VenuePriceFeed; aggregator: IndexAggregator; clock: Clock }) {
    this.venues = options.venues;
    this.aggregator = options.aggregator;
    this.#clock = options.clock;
  }

  /**
   * Covers `markets` (in this order), with their recorded index and 1m candles, and tells the
   * venues which symbols to follow under which venue symbols.
   */
  load(
    markets: readonly FeedMarket[],
    recorded: readonly IndexValue[],
    minuteCandles: readonly Candle[],
  ): void {
    this.#windows.clear();
    for (const market of markets)
      this.#windows.set(market.symbol, { market, latest: undefined, minutes: new Map() });
    this.note(recorded, minuteCandles);
  }

  /** Tells the venues the markets and their venue symbols (the back office's mappings). */
  setMarkets(markets: readonly VenueMarket[]): void {
    this.venues.setMarkets(markets);
  }

  /**
   * Aggregates every market's quotes now: answers the ticks that have an index (fewer valid
   * sources than the minimum: none, so the index goes stale), and keeps every market's
   * constituents, with or without an index, for the back office.
   */
  sample(): IndexValue[] {
    const now = this.#clock.now();
    const ticks: IndexValue[] = [];
    for (const symbol of this.#windows.keys()) {
      const { quotes, missing } = this.venues.quotes(symbol);
      const { index, constituents } = this.aggregator.aggregate(quotes, now, missing);
      this.#sampled.set(symbol, constituents);
      if (index) ticks.push({ symbol, ...index });
    }
    return ticks;
  }

  /** The constituents of the latest aggregation of `symbol` on this node, if it aggregated one. */
  sampledConstituents(symbol: string): Constituent[] | undefined {
    return this.#sampled.get(symbol);
  }

  /** Takes recorded ticks and candles (this node's or another's, via the bus); older ones change nothing. */
  note(ticks: readonly IndexValue[], candles: readonly Candle[]): void {
    for (const tick of ticks) {
      const window = this.#windows.get(tick.symbol);
      if (window && (!window.latest || tick.at >= window.latest.at)) window.latest = tick;
    }
    for (const candle of candles) {
      if (candle.interval !== '1m') continue;
      const window = this.#windows.get(candle.symbol);
      if (window) window.minutes.set(candle.t, candle);
    }
    const horizon = this.#clock.now() - DAY_MS;
    for (const window of this.#windows.values()) {
      for (const t of window.minutes.keys()) {
        // why: a Map iterates in insertion order, and candles arrive oldest first.
        if (t >= horizon - 60_000) break;
        window.minutes.delete(t);
      }
    }
  }

  /** Every venue's connection and latest price per symbol. */
  states(): VenueSourceState[] {
    return this.venues.states();
  }

  prices(): RecordedPrice[] {
    return [...this.#windows.values()].flatMap((w) =>
      w.latest ? [{ symbol: w.market.symbol, price: w.latest.price, at: w.latest.at }] : [],
    );
  }

  /** Markets with a recorded index: their latest price and the 24h figures of the recorded 1m candles. */
  tickers(): Ticker[] {
    const now = this.#clock.now();
    return [...this.#windows.values()].flatMap((w) => (w.latest ? [toTicker(w, w.latest, now)] : []));
  }

  onUpdate(listener: (tickers: Ticker[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(): void {
    const tickers = this.tickers();
    for (const listener of this.#listeners) listener(tickers);
  }
}

function toTicker(window: MarketWindow, latest: IndexValue, now: number): Ticker {
  const horizon = now - DAY_MS;
  let open: bigint | undefined;
  let high = latest.price;
  let low = latest.price;
  for (const candle of window.minutes.values()) {
    if (candle.t < horizon) continue;
    open ??= candle.o;
    if (candle.h > high) high = candle.h;
    if (candle.l < low) low = candle.l;
  }
  open ??= latest.price;
  return buildTicker(window.market, { price: latest.price, open, high, low }, latest.at, latest.source);
}
