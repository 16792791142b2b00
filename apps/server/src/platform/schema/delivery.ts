// Delivery (time-boxed) contracts and trial grants.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export interface DeliveryProductsTable {
  symbol: string;
  status: 'open' | 'closed';
  max_exposure: bigint;
  updated_at: Millis;
}

export interface DeliveryPeriodsTable {
  symbol: string;
  seconds: bigint;
  /** Payout ratio in basis points: 8000 pays amount × 1.80 on a win. */
  ratio_bps: bigint;
  min_amount: bigint;
  max_amount: bigint;
}

export type ContractStatusValue = 'opening' | 'open' | 'settling' | 'settled' | 'closed';
export type ContractResultValue = 'win' | 'loss' | 'draw' | 'refund';

/** The house's delivery result per UTC day (start, unix ms), market, funding and result. */
export interface DeliveryPnlDaysTable {
  day: bigint;
  symbol: string;
  funding: string;
  result: string;
  count: bigint;
  amount: bigint;
  profit: bigint;
}

export interface DeliveryContractsTable {
  id: Generated<bigint>;
  user_id: bigint;
  symbol: string;
  direction: 'up' | 'down';
  period: bigint;
  amount: bigint;
  funding: 'real' | 'trial';
  grant_id: bigint | null;
  ratio_bps: bigint;
  /** The first index tick recorded after acceptance: null while the contract is `opening`. */
  open_price: bigint | null;
  open_price_at: Millis | null;
  open_source: string | null;
  /** JSON: the sources that made the opening tick (decimal-string prices). */
  open_constituents: string | null;
  /** Acceptance time. */
  opened_at: Millis;
  /** Opening tick + period; while `opening`, acceptance + period. */
  expires_at: Millis;
  status: ContractStatusValue;
  result: ContractResultValue | null;
  close_price: bigint | null;
  close_at: Millis | null;
  close_source: string | null;
  close_constituents: string | null;
  payout: bigint | null;
  profit: bigint | null;
  settled_at: Millis | null;
  idempotency_key: string;
}

export interface TrialGrantPlansTable {
  id: Generated<bigint>;
  name: string;
  amount: bigint;
  validity_days: bigint;
  profit_cap_percent: bigint;
  trigger: 'signup' | 'campaign';
  active: bigint;
  created_at: Millis;
  updated_at: Millis;
}

export interface TrialGrantsTable {
  id: Generated<bigint>;
  user_id: bigint;
  plan_id: bigint;
  name: string;
  amount: bigint;
  remaining: bigint;
  profit_cap: bigint;
  profit_paid: Generated<bigint>;
  expires_at: Millis;
  status: 'active' | 'expired';
  grant_key: string;
  granted_by: string;
  created_at: Millis;
  /** Keyed hash of the verified identity the grant was given for; unique per plan. */
  identity_hash: string | null;
  /** Trial profit credited to the user's `trial_profit` balance and not yet released or expired. */
  profit_locked: Generated<bigint>;
  profit_released: Generated<bigint>;
  profit_expired: Generated<bigint>;
  /** Real turnover needed to release what is locked (grows with each profit credited). */
  turnover_required: Generated<bigint>;
  /** Real turnover counted toward `turnover_required` (never above it). */
  turnover_done: Generated<bigint>;
}
