// Spot trading and the market maker's settings.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export interface SpotMarketsTable {
  symbol: string;
  base: string;
  quote: string;
  /** Atoms of the quote coin per price step, atoms of the base coin per quantity step. */
  tick_size: bigint;
  lot_size: bigint;
  min_notional: bigint;
  maker_fee_bps: bigint;
  taker_fee_bps: bigint;
  band_bps: bigint;
  price_decimals: bigint;
  qty_decimals: bigint;
  status: 'open' | 'halted';
  /** The last sequence number the market's sequencer applied. */
  seq: Generated<bigint>;
  /** The epoch of the node allowed to write the market (its lease's, `market_leases`). */
  epoch: Generated<bigint>;
  updated_at: Millis;
}

export type SpotOrderStatusValue = 'entrusted' | 'completed' | 'revoked';

export interface SpotOrdersTable {
  id: Generated<bigint>;
  symbol: string;
  user_id: bigint;
  side: 'buy' | 'sell';
  type: 'limit' | 'market' | 'stop_limit' | 'stop_market' | 'take_profit';
  tif: 'gtc' | 'ioc' | 'fok' | 'post_only';
  price: bigint | null;
  qty: bigint | null;
  quote_amount: bigint | null;
  /** A trigger type's trigger price on the last trade price; null for limit and market. */
  trigger_price: bigint | null;
  /** `gte` or `lte` the trigger; null without one. */
  trigger_condition: 'gte' | 'lte' | null;
  /** When the trigger fired and the order entered the book; null while it waits or without one. */
  triggered_at: Millis | null;
  filled_qty: bigint;
  filled_quote: bigint;
  fee: bigint;
  /** The fee ratio of the last fill's role (the taker's before any fill). */
  fee_bps: bigint;
  hold_asset: string;
  /** What is still frozen for the order (0 once it has ended). */
  held: bigint;
  status: SpotOrderStatusValue;
  revoke_reason: string | null;
  /** The command that placed it: the engine's order id within the market. */
  seq: bigint;
  idempotency_key: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface SpotTradesTable {
  id: Generated<bigint>;
  symbol: string;
  seq: bigint;
  price: bigint;
  qty: bigint;
  quote: bigint;
  maker_order_id: bigint;
  maker_user_id: bigint;
  taker_order_id: bigint;
  taker_user_id: bigint;
  taker_side: 'buy' | 'sell';
  maker_fee: bigint;
  taker_fee: bigint;
  at: Millis;
}

/** A candle of one market's trades: `span` ms long, opening at `t` (a multiple of `span`). */
export interface SpotCandlesTable {
  symbol: string;
  span: bigint;
  t: Millis;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
  /** Base and quote atoms traded. */
  v: bigint;
  q: bigint;
  /** The candle's first and last trades (open and close). */
  first_id: bigint;
  last_id: bigint;
}

/** Per market, the newest trade folded into `spot_candles`. */
export interface SpotCandleFoldsTable {
  symbol: string;
  trade_id: bigint;
  /** The latest `at` of the trades folded. */
  max_at: Millis;
}

export interface MarketMakerSettingsTable {
  symbol: string;
  /** 1 while the maker quotes the market. */
  enabled: bigint;
  levels: bigint;
  /** Between the best bid and the best ask, in basis points of the index. */
  spread_bps: bigint;
  /** Between two levels on one side, in basis points of the index. */
  step_bps: bigint;
  /** Base atoms per level. */
  level_qty: bigint;
  /** Base atoms the maker aims to hold, and how far from it it may drift before it stops a side. */
  inventory_target: bigint;
  max_inventory_deviation: bigint;
  updated_at: Millis;
}
