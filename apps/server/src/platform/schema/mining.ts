// Mining: products, instances, orders, revenues and days.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export type MiningType = 'sole' | 'shared';
export type MiningIncome = 'constant' | 'value';
/** draft → normal ↔ paused (sales); expired. "stopped" is shown while the pool cannot pay. */
export type MiningProductStatus = 'draft' | 'normal' | 'paused' | 'expired';

export interface MiningProductsTable {
  id: Generated<bigint>;
  name: string;
  type: MiningType;
  /** USDT atoms for a whole machine: hashrate + days × electricity + management. */
  unit_price: bigint;
  fee_hashrate: bigint;
  fee_electricity_day: bigint;
  fee_management: bigint;
  coin: string;
  income_type: MiningIncome;
  /** Coin atoms a whole machine earns a day (constant income). */
  daily_q: bigint;
  /** USDT atoms a whole machine earns a day (income by output value). */
  daily_value: bigint;
  days: bigint;
  /** Machines for sale, fixed once the product opens. */
  capacity: bigint;
  min_share_bp: bigint;
  step_bp: bigint;
  /** The platform coin a buyer must hold (available + locked), checked and not spent. */
  hold_coin: string;
  min_hold: bigint;
  min_referrals: bigint;
  max_orders: bigint;
  release_delay_days: bigint;
  status: MiningProductStatus;
  created_at: Millis;
}

export interface MiningInstancesTable {
  id: Generated<bigint>;
  product_id: bigint;
  /** Basis points of this machine sold (10,000 = all of it). */
  sold_bp: bigint;
  /** The first buyer's share link code (a shared machine's rest is sold through it). */
  share_code: string;
  created_at: Millis;
}

export interface MiningOrdersTable {
  id: Generated<bigint>;
  user_id: bigint;
  product_id: bigint;
  instance_id: bigint;
  share_bp: bigint;
  price: bigint;
  /** The first 00:00 (UTC) after the purchase: the first day accrues from here. */
  start_at: Millis;
  /** start + days, moved one day later per stopped day. */
  expire_at: Millis;
  stopped_days: Generated<bigint>;
  idempotency_key: string;
  created_at: Millis;
}

export interface MiningRevenuesTable {
  id: Generated<bigint>;
  order_id: bigint;
  user_id: bigint;
  /** The day's 00:00 (UTC), unix ms. */
  day: Millis;
  coin: string;
  /** The recorded index at the 00:00 ending the day (income by output value), with its source. */
  price_used: bigint | null;
  price_source: string | null;
  amount: bigint;
  release_at: Millis;
  released_at: Millis | null;
}

export interface MiningDaysTable {
  coin: string;
  day: Millis;
  status: 'paid' | 'stopped';
  needed: bigint;
  created_at: Millis;
}
