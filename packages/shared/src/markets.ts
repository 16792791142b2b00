/** A ticker as the API and WebSocket deliver it; prices are decimal strings. */
export interface Ticker {
  symbol: string;
  base: string;
  quote: string;
  /** Decimals shown for prices of this market. */
  priceDecimals: number;
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
