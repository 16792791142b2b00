// The seed's prices: one smooth path per market over the year, so trades, contracts, index ticks
// and candles all tell the same story. The path is a synthetic curve; it is rounded to whole
// atoms (and to the market's price step for orders) before any amount of money is computed.

/** A spot market as the seed trades it. */
export interface Market {
  symbol: string;
  base: string;
  quote: string;
  tick: bigint;
  lot: bigint;
  minNotional: bigint;
  makerBps: bigint;
  takerBps: bigint;
  seq: number;
}

/** Where each demo market's path is centred (its simulated feed's starting price, in USDT). */
const CENTRES: Record<string, number> = {
  BTCUSDT: 96_500,
  ETHUSDT: 3_450,
  SOLUSDT: 238,
  XRPUSDT: 1.42,
  DOGEUSDT: 0.39,
  LTCUSDT: 98.5,
  BNBUSDT: 640,
  TRXUSDT: 0.21,
};

const DAY = 86_400_000;

export class PriceModel {
  readonly #now: number;

  constructor(now: number) {
    this.#now = now;
  }

  #units(symbol: string, at: number): number {
    const centre = CENTRES[symbol] ?? 1;
    let phase = 0;
    for (const ch of symbol) phase = (phase * 31 + ch.charCodeAt(0)) % 1000;
    const t = at - this.#now;
    const swing =
      0.25 * Math.sin((2 * Math.PI * t) / (97 * DAY) + phase) +
      0.08 * Math.sin((2 * Math.PI * t) / (13 * DAY) + phase / 7) +
      0.01 * Math.sin((2 * Math.PI * t) / (3_960_000 + phase * 1000));
    return centre * Math.exp(swing);
  }

  /** The index at `at`, in atoms of the quote coin per unit. */
  atoms(symbol: string, at: number): bigint {
    return BigInt(Math.max(1, Math.round(this.#units(symbol, at) * 1e8)));
  }

  /** The last price at `at` on the market's price step. */
  ticks(market: Market, at: number): bigint {
    const steps = this.atoms(market.symbol, at) / market.tick;
    return (steps < 1n ? 1n : steps) * market.tick;
  }

  /** Open, high, low and close of the candle opening at `t`, `ms` long. */
  candle(symbol: string, t: number, ms: number): [bigint, bigint, bigint, bigint] {
    const o = this.atoms(symbol, t);
    const c = this.atoms(symbol, t + ms);
    const mid = this.atoms(symbol, t + ms / 2);
    const top = [o, c, mid].reduce((a, b) => (a > b ? a : b));
    const bottom = [o, c, mid].reduce((a, b) => (a < b ? a : b));
    return [o, top + top / 1000n, bottom - bottom / 1000n, c];
  }
}
