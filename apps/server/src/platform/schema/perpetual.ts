// Perpetual contracts (migration 0033). Amounts and prices in atoms, rates over 10^8, times unix ms.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export interface PerpMarketsTable {
  symbol: string;
  base: string;
  quote: string;
  /** The index (markets module) the mark is built on, e.g. `BTCUSDT`. */
  index_symbol: string;
  tick_size: bigint;
  lot_size: bigint;
  price_decimals: bigint;
  qty_decimals: bigint;
  maker_rate: bigint;
  taker_rate: bigint;
  band_rate: bigint;
  /** JSON: `[{ maxNotional: string | null, maxLeverage, mmr: string, cum: string }]` (atoms and rates as strings). */
  tiers: string;
  max_leverage: bigint;
  funding_interval_ms: bigint;
  interest_rate: bigint;
  funding_clamp: bigint;
  funding_cap: bigint;
  impact_notional: bigint;
  /** The mark's clamp c (migration 0036): the mark stays within I·(1 ± c); at most tier 1's MMR / 4. */
  mark_clamp: bigint;
  status: 'open' | 'halted';
  seq: Generated<bigint>;
  epoch: Generated<bigint>;
  next_order_no: Generated<bigint>;
  next_position_no: Generated<bigint>;
  mark: Generated<bigint>;
  last: Generated<bigint>;
  frozen: Generated<bigint>;
  insurance: Generated<bigint>;
  /** The rate of the last funding event (P1 of the mark uses it). */
  last_rate: Generated<bigint>;
  updated_at: Millis;
}

export interface PerpPositionsTable {
  symbol: string;
  user_id: bigint;
  position_no: bigint;
  qty: bigint;
  entry: bigint;
  margin: bigint;
  leverage: bigint;
  realised: bigint;
  updated_at: Millis;
}

export type PerpOrderState =
  | 'untriggered'
  | 'new'
  | 'partial'
  | 'filled'
  | 'cancelled'
  | 'expired'
  | 'rejected';

export interface PerpOrdersTable {
  id: Generated<bigint>;
  symbol: string;
  order_no: bigint;
  /** 0 for the insurance fund's unwind orders. */
  user_id: bigint;
  side: 'buy' | 'sell';
  type: 'limit' | 'market' | 'stop_market' | 'stop_limit' | 'take_profit_market' | 'take_profit_limit';
  price: bigint;
  qty: bigint;
  filled_qty: bigint;
  filled_value: bigint;
  fee: bigint;
  hold: bigint;
  leverage: bigint;
  reduce_only: bigint;
  close_position: bigint;
  post_only: bigint;
  ioc: bigint;
  trigger_kind: 'stop' | 'take_profit' | null;
  trigger_price: bigint | null;
  trigger_ref: 'last' | 'mark' | null;
  trigger_condition: 'gte' | 'lte' | null;
  price_protect: bigint;
  /** The order number of the other half of a position's SL/TP pair. */
  oco: bigint | null;
  state: PerpOrderState;
  end_reason: string | null;
  seq: bigint;
  idempotency_key: string | null;
  /** A hash of the request that placed it (perpetual.md §4b.7); null before 0035 and for the fund's. */
  request_fingerprint: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface PerpLotsTable {
  symbol: string;
  lot_no: bigint;
  user_id: bigint;
  qty: bigint;
  entry: bigint;
  bankruptcy: bigint;
}

export interface PerpTradesTable {
  id: Generated<bigint>;
  symbol: string;
  seq: bigint;
  kind: 'trade' | 'unwind' | 'adl';
  price: bigint;
  qty: bigint;
  value: bigint;
  taker_side: 'buy' | 'sell';
  maker_order_no: bigint;
  taker_order_no: bigint;
  maker_user_id: bigint;
  taker_user_id: bigint;
  maker_fee: bigint;
  taker_fee: bigint;
  created_at: Millis;
}

export interface PerpFundingsTable {
  id: Generated<bigint>;
  symbol: string;
  funding_at: Millis;
  rate: bigint;
  mark: bigint;
  paid: bigint;
  received: bigint;
  residual: bigint;
  positions: bigint;
  seq: bigint;
  created_at: Millis;
}

export interface PerpFundingPaymentsTable {
  id: Generated<bigint>;
  symbol: string;
  user_id: bigint;
  funding_at: Millis;
  qty: bigint;
  rate: bigint;
  mark: bigint;
  amount: bigint;
  created_at: Millis;
}

export interface PerpLiquidationsTable {
  id: Generated<bigint>;
  symbol: string;
  user_id: bigint;
  kind: 'liquidation' | 'adl';
  qty: bigint;
  entry: bigint;
  margin: bigint;
  mark: bigint;
  price: bigint;
  pnl: bigint;
  remainder: bigint;
  lot_no: bigint;
  seq: bigint;
  created_at: Millis;
}

export interface PerpInsuranceMovesTable {
  id: Generated<bigint>;
  symbol: string;
  kind: 'takeover' | 'unwind' | 'bankrupt' | 'funding' | 'adl' | 'topup';
  amount: bigint;
  balance_after: bigint;
  ref: string;
  created_at: Millis;
}

export interface PerpPremiumsTable {
  symbol: string;
  minute: bigint;
  premium: bigint;
}

export interface PerpMarginRequestsTable {
  user_id: bigint;
  idempotency_key: string;
  symbol: string;
  direction: 'add' | 'remove';
  amount: bigint;
  created_at: Millis;
}
