import { DEMO_MARKETS, type MarketInfo, type Ticker } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';

/**
 * A source of index prices. `simulated` is the offline default; connectors to public exchange
 * streams implement the same port later.
 */
export interface PriceFeed {
  readonly source: string;
  /** The latest ticker of every market the feed covers. */
  tickers(): Ticker[];
  /** Calls `listener` after every update; returns the unsubscribe function. */
  onUpdate(listener: (tickers: Ticker[]) => void): () => void;
  start(): void;
  stop(): void;
}

/** Index prices are integers in 10^-8 units of the quote asset; no float is kept between steps. */
const SCALE = 100_000_000n;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

interface SymbolModel {
  market: MarketInfo;
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

/** mulberry32: a small, seedable PRNG, so a seed always replays the same prices. */
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

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function toUnits(price: bigint, decimals: number): string {
  const intPart = price / SCALE;
  const frac = (price % SCALE).toString().padStart(8, '0').slice(0, decimals);
  return decimals > 0 ? `${intPart}.${frac}` : intPart.toString();
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

  constructor(model: SymbolModel, random: () => number, now: number) {
    this.model = model;
    this.random = random;
    // why: build a deterministic 24-hour history so the 24h change is meaningful from the first second.
    this.price = BigInt(Math.round(model.start * 1e8));
    const minuteVol = model.dailyVol / Math.sqrt(DAY_MINUTES);
    for (let i = 0; i < DAY_MINUTES; i++) {
      this.price = this.step(minuteVol);
      this.minutes.push(this.price);
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
    const { market } = this.model;
    const d = market.priceDecimals;
    return {
      symbol: market.symbol,
      base: market.base,
      quote: market.quote,
      price: toUnits(this.price, d),
      open24h: toUnits(open, d),
      high24h: toUnits(high, d),
      low24h: toUnits(low, d),
      change24h: percentChange(open, this.price),
      ts: now,
      source,
    };
  }
}

/**
 * Seeded random-walk index prices for the demo markets (geometric Brownian motion at realistic
 * daily volatilities). Labelled `simulated` everywhere it is shown.
 */
export class SimulatedPriceFeed implements PriceFeed {
  readonly source = 'simulated';
  private readonly states: SymbolState[];
  private readonly listeners = new Set<(tickers: Ticker[]) => void>();
  private timer: NodeJS.Timeout | undefined;

  private readonly options: {
    seed: number;
    intervalMs: number;
    clock: Clock;
    markets?: readonly MarketInfo[];
  };

  constructor(options: SimulatedPriceFeed['options']) {
    this.options = options;
    const random = createPrng(options.seed);
    const now = options.clock.now();
    this.states = (options.markets ?? DEMO_MARKETS).map(
      (market) =>
        new SymbolState({ market, ...(MODELS[market.symbol] ?? { start: 1, dailyVol: 0.05 }) }, random, now),
    );
  }

  tickers(): Ticker[] {
    const now = this.options.clock.now();
    return this.states.map((s) => s.ticker(now, this.source));
  }

  onUpdate(listener: (tickers: Ticker[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves every price one step; the timer calls it, tests may too. */
  tick(): void {
    const now = this.options.clock.now();
    for (const state of this.states) state.advance(now, this.options.intervalMs);
    const tickers = this.tickers();
    for (const listener of this.listeners) listener(tickers);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
