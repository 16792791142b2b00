/** Demo markets served by the simulated feed until real markets carry their own trades. */
export interface MarketInfo {
  symbol: string;
  base: string;
  quote: string;
  /** Decimals shown for prices. */
  priceDecimals: number;
}

/** A ticker as the API and WebSocket deliver it; numbers are decimal strings. */
export interface Ticker {
  symbol: string;
  base: string;
  quote: string;
  price: string;
  open24h: string;
  high24h: string;
  low24h: string;
  /** 24h change in percent, two decimals, e.g. "-1.25". */
  change24h: string;
  /** Millisecond timestamp of the price. */
  ts: number;
  /** Where the price comes from: `simulated` for the offline feed. */
  source: string;
}

export const DEMO_MARKETS: readonly MarketInfo[] = [
  { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 },
  { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', priceDecimals: 2 },
  { symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', priceDecimals: 3 },
  { symbol: 'XRPUSDT', base: 'XRP', quote: 'USDT', priceDecimals: 4 },
  { symbol: 'DOGEUSDT', base: 'DOGE', quote: 'USDT', priceDecimals: 5 },
  { symbol: 'LTCUSDT', base: 'LTC', quote: 'USDT', priceDecimals: 2 },
  { symbol: 'BNBUSDT', base: 'BNB', quote: 'USDT', priceDecimals: 2 },
  { symbol: 'TRXUSDT', base: 'TRX', quote: 'USDT', priceDecimals: 5 },
];
