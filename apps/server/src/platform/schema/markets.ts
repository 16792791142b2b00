// Coins, pairs and the index feed; and the scheduler's job leases.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export type ListingStatus = 'active' | 'disabled';

/** Assets the platform knows; written by the markets module. */
export interface CoinsTable {
  id: Generated<bigint>;
  symbol: string;
  name: string;
  /** Decimals shown for amounts of this coin. */
  display_decimals: bigint;
  sort: Generated<bigint>;
  status: Generated<ListingStatus>;
}

/** Trading pairs; written by the markets module. */
export interface MarketsTable {
  id: Generated<bigint>;
  symbol: string;
  base: string;
  quote: string;
  /** Decimals shown for prices. */
  price_decimals: bigint;
  sort: Generated<bigint>;
  status: Generated<ListingStatus>;
}

/** The index feed's latest price per symbol (10^-8 quote units), so a restart continues from it. */
export interface IndexPricesTable {
  symbol: string;
  price: bigint;
  source: string;
  updated_at: Millis;
  /** JSON of the latest tick's constituents (decimal-string prices); null before they were kept. */
  constituents: string | null;
}

/** Every recorded index tick (10^-8 quote units); pruned past the retention. */
export interface IndexTicksTable {
  symbol: string;
  at: Millis;
  price: bigint;
  /** The aggregator's label: one source's name, or `median(a,b,c)`. */
  source: string;
  /** JSON of every source's part in the tick (decimal-string prices); null before they were kept. */
  constituents: string | null;
}

/** Per market and venue, the venue's symbol for it; null leaves the venue out; no row = base/quote. */
export interface IndexSourceMappingsTable {
  symbol: string;
  venue: string;
  venue_symbol: string | null;
  updated_at: Millis;
  /** The staff member who set it. */
  updated_by: bigint;
}

/**
 * Index candles per interval (`1m` … `1d`), `t` the bucket's open time; kept when ticks are pruned,
 * the fine ones (1m, 5m, 15m) until their own retention, the coarse ones for good.
 */
export interface IndexCandlesTable {
  symbol: string;
  interval: string;
  t: Millis;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
}

/** Who runs a scheduled job that must run on one node, until when; written by the scheduler. */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: Millis;
}
