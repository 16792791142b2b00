import { randomBytes } from 'node:crypto';
import { fromAtoms, type Ticker } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import type { RecordedPrice } from './service.ts';

/**
 * A source of index prices: `simulated` (the demo's random walk) or `venues` (the median of
 * public exchanges' prices, `venue-index-feed.ts`).
 */
export interface PriceFeed {
  readonly source: string;
  /** The latest ticker of every market the feed covers. */
  tickers(): Ticker[];
  /** Calls `listener` after every update; returns the unsubscribe function. */
  onUpdate(listener: (tickers: Ticker[]) => void): () => void;
  /** The exact latest price of every symbol the feed covers (what balances are valued at). */
  prices(): RecordedPrice[];
}

/** What the feed needs to know of a market. */
export interface FeedMarket {
  symbol: string;
  base: string;
  quote: string;
  /** Decimals shown for prices. */
  priceDecimals: number;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

interface SymbolModel {
  market: FeedMarket;
  /** Starting price in quote units. */
  start: number;
  /** Daily volatility (standard deviation of the daily log return). */
  dailyVol: number;
}

const MODELS: Record<string, Omit<SymbolModel, 'market'>> = {
  BTCUSDT: { start: 96_500, dailyVol: 0.028 },
  ETHUSDT: { start: 3_450, dailyVol: 0.035 },
  SOLUSDT: { start: 238, dailyVol: 0.05 },
  XRPUSDT: { start: 1.42, dailyVol: 0.05 },
  DOGEUSDT: { start: 0.39, dailyVol: 0.06 },
  LTCUSDT: { start: 98.5, dailyVol: 0.04 },
  BNBUSDT: { start: 640, dailyVol: 0.03 },
  TRXUSDT: { start: 0.21, dailyVol: 0.035 },
};

/** Where a simulated feed's randomness comes from: `node:crypto`, or a seeded PRNG (tests only). */
export type RandomSourceKind = 'crypto' | 'seeded';

/** A uniform draw in [0, 1). */
export type Uniform = () => number;

const CRYPTO_POOL_DRAWS = 512;

/**
 * Uniform draws from the operating system's cryptographic generator (`node:crypto`), 53 bits
 * each. why: a seeded walk is replayable by anyone who learns or guesses the seed, so its next
 * tick — and a delivery contract's outcome — could be computed in advance; this one cannot.
 * Bytes are fetched in pools, so a step costs no system call.
 */
export function createCryptoUniform(): Uniform {
  let pool = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + 8 > pool.length) {
      pool = randomBytes(CRYPTO_POOL_DRAWS * 8);
      offset = 0;
    }
    const high = pool.readUInt32BE(offset) >>> 11; // 21 bits
    const low = pool.readUInt32BE(offset + 4); // 32 bits
    offset += 8;
    return (high * 4294967296 + low) / 2 ** 53;
  };
}

/** mulberry32: a small, seedable PRNG, so a seed always replays the same prices (tests only). */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed for one symbol's walk (FNV-1a of the feed seed, the symbol and where it resumed). */
function symbolSeed(seed: number, symbol: string, resumedAt: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}:${symbol}:${resumedAt}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * A market's ticker from its index figures (10^-8 quote units): the latest price and its 24h
 * open, high and low, written to the market's price decimals (truncated), with the 24h change.
 */
export function buildTicker(
  market: FeedMarket,
  figures: { price: bigint; open: bigint; high: bigint; low: bigint },
  ts: number,
  source: string,
): Ticker {
  const d = market.priceDecimals;
  return {
    symbol: market.symbol,
    base: market.base,
    quote: market.quote,
    priceDecimals: d,
    price: fromAtoms(figures.price, d),
    open24h: fromAtoms(figures.open, d),
    high24h: fromAtoms(figures.high, d),
    low24h: fromAtoms(figures.low, d),
    change24h: percentChange(figures.open, figures.price),
    ts,
    source,
  };
}

/** Percent change from `open` to `price`, truncated to two decimals, as a string like "-1.25". */
export function percentChange(open: bigint, price: bigint): string {
  if (open === 0n) return '0.00';
  const basisPoints = ((price - open) * 10_000n) / open;
  const negative = basisPoints < 0n;
  const abs = negative ? -basisPoints : basisPoints;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return negative && abs !== 0n ? `-${text}` : text;
}

class SymbolState {
  price: bigint;
  /** One closing price per minute over the last 24 hours, oldest first. */
  readonly minutes: bigint[] = [];
  minuteOfLastClose: number;

  readonly model: SymbolModel;
  private readonly random: () => number;

  /**
   * Builds a 24-hour history so the 24h change is meaningful from the first second.
   * With a recorded price the history is scaled to end exactly on it and the walk goes on from
   * there (on a stream of its own, so a restart does not replay the first run's moves).
   */
  constructor(model: SymbolModel, random: Uniform, now: number, recorded?: RecordedPrice) {
    this.model = model;
    this.random = random;
    this.price = BigInt(Math.round(model.start * 1e8));
    const minuteVol = model.dailyVol / Math.sqrt(DAY_MINUTES);
    for (let i = 0; i < DAY_MINUTES; i++) {
      this.price = this.step(minuteVol);
      this.minutes.push(this.price);
    }
    if (recorded && recorded.price > 0n) {
      const last = this.price;
      for (let i = 0; i < this.minutes.length; i++) {
        const scaled = (this.minutes[i]! * recorded.price) / last;
        this.minutes[i] = scaled > 0n ? scaled : 1n;
      }
      this.price = recorded.price;
    }
    this.minuteOfLastClose = Math.floor(now / MINUTE_MS);
  }

  /** One random-walk step with the given volatility; the price never falls below one unit of 10^-8. */
  step(vol: number): bigint {
    const factor = Math.exp(vol * gaussian(this.random) - (vol * vol) / 2);
    const next = (this.price * BigInt(Math.round(factor * 1e9))) / 1_000_000_000n;
    return next > 0n ? next : 1n;
  }

  advance(now: number, intervalMs: number): void {
    const vol = this.model.dailyVol * Math.sqrt(intervalMs / (DAY_MINUTES * MINUTE_MS));
    this.price = this.step(vol);
    const minute = Math.floor(now / MINUTE_MS);
    while (this.minuteOfLastClose < minute) {
      this.minutes.push(this.price);
      if (this.minutes.length > DAY_MINUTES) this.minutes.shift();
      this.minuteOfLastClose += 1;
    }
  }

  ticker(now: number, source: string): Ticker {
    const open = this.minutes[0] ?? this.price;
    let high = this.price;
    let low = this.price;
    for (const p of this.minutes) {
      if (p > high) high = p;
      if (p < low) low = p;
    }
    return buildTicker(this.model.market, { price: this.price, open, high, low }, now, source);
  }
}

/**
 * Random-walk index prices for the demo (geometric Brownian motion at realistic daily
 * volatilities), labelled `simulated` everywhere it is shown. It covers the markets `load` gives
 * it, continuing from their recorded prices; the markets module moves it with a scheduled job.
 * Without a seed (every start but a test's) its randomness comes from `node:crypto`, drawn anew
 * at each start, so nothing public replays its next tick; a seed makes it a replayable PRNG walk,
 * which only tests may ask for (`FEED_SEED`, see config.ts).
 */
export class SimulatedPriceFeed implements PriceFeed {
  readonly source = 'simulated';
  /** Where this feed's randomness comes from. */
  readonly randomSource: RandomSourceKind;
  private states: SymbolState[] = [];
  private readonly listeners = new Set<(tickers: Ticker[]) => void>();
  private readonly options: { seed: number | undefined; intervalMs: number; clock: Clock };
  private readonly cryptoUniform: Uniform | undefined;

  constructor(options: {
    /** Tests only: a seed replays the same walk; absent = `node:crypto`. */
    seed?: number;
    intervalMs: number;
    clock: Clock;
    markets?: readonly FeedMarket[];
  }) {
    this.options = { seed: options.seed, intervalMs: options.intervalMs, clock: options.clock };
    this.randomSource = options.seed === undefined ? 'crypto' : 'seeded';
    this.cryptoUniform = options.seed === undefined ? createCryptoUniform() : undefined;
    if (options.markets) this.load(options.markets);
  }

  /** Covers `markets` (in this order); a symbol with a recorded price continues from it exactly. */
  load(markets: readonly FeedMarket[], recorded: readonly RecordedPrice[] = []): void {
    const bySymbol = new Map(recorded.map((r) => [r.symbol, r]));
    const now = this.options.clock.now();
    this.states = markets.map((market) => this.createState(market, now, bySymbol.get(market.symbol)));
  }

  /**
   * Takes up prices another node recorded while this one was not moving them; symbols whose price
   * is already the recorded one keep their state.
   */
  resume(recorded: readonly RecordedPrice[]): void {
    const bySymbol = new Map(recorded.map((r) => [r.symbol, r]));
    const now = this.options.clock.now();
    this.states = this.states.map((state) => {
      const record = bySymbol.get(state.model.market.symbol);
      return record && record.price !== state.price
        ? this.createState(state.model.market, now, record)
        : state;
    });
  }

  /** The exact current price of every symbol, stamped with the clock, for recording. */
  prices(): RecordedPrice[] {
    const at = this.options.clock.now();
    return this.states.map((s) => ({ symbol: s.model.market.symbol, price: s.price, at }));
  }

  tickers(): Ticker[] {
    const now = this.options.clock.now();
    return this.states.map((s) => s.ticker(now, this.source));
  }

  onUpdate(listener: (tickers: Ticker[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves every price one step without telling anyone (the job records, then `notify`s). */
  step(): void {
    const now = this.options.clock.now();
    for (const state of this.states) state.advance(now, this.options.intervalMs);
  }

  /** Gives the current tickers to every listener. */
  notify(): void {
    const tickers = this.tickers();
    for (const listener of this.listeners) listener(tickers);
  }

  /** One step and its notification. */
  tick(): void {
    this.step();
    this.notify();
  }

  private createState(market: FeedMarket, now: number, recorded: RecordedPrice | undefined): SymbolState {
    const model = { market, ...(MODELS[market.symbol] ?? { start: 1, dailyVol: 0.05 }) };
    // why: a seeded walk gets a stream per symbol and resume point, so a restart does not replay
    // the first run's moves; the cryptographic source never repeats, one stream serves them all.
    const random =
      this.cryptoUniform ?? createPrng(symbolSeed(this.options.seed ?? 0, market.symbol, recorded?.at ?? 0));
    return new SymbolState(model, random, now, recorded);
  }
}
