// The launchpad: projects, subscription records, referral rewards and agents.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export type LpMode = 'pro_rata' | 'fcfs';
/** draft → scheduled → distributed; scheduled → cancelled. Open and allocating follow from the clock. */
export type LpProjectStatus = 'draft' | 'scheduled' | 'distributed' | 'cancelled';
/** committed (pro-rata, frozen) → locked → released; committed → refunded; locked → refunded (cancelled). */
export type LpRecordStatus = 'committed' | 'locked' | 'released' | 'refunded';
export type LpRewardStatus = 'pending' | 'paid' | 'void' | 'capped';
export type AgentStatus = 'pending' | 'approved' | 'rejected' | 'suspended';

export interface LpProjectsTable {
  id: Generated<bigint>;
  name: string;
  coin: string;
  quote: string;
  start_at: Millis;
  end_at: Millis;
  /** Token atoms. */
  total_issue: bigint;
  /** Quote atoms per whole token. */
  price: bigint;
  lock_days: bigint;
  /** Token atoms per purchase. */
  per_min: bigint;
  per_max: bigint;
  /** Token atoms one user may hold from the project. */
  individual_limit: bigint;
  max_purchases: bigint;
  /** Quote atoms: a raise below it cancels the project. */
  soft_cap: bigint;
  mode: LpMode;
  /** Share of the raise set aside for referral rewards, in basis points. */
  referral_budget_bp: bigint;
  status: LpProjectStatus;
  /** 1: subscriptions refused ("forbidden"). */
  disabled: Generated<bigint>;
  release_at: Millis;
  /** JSON: locale → description text. */
  descriptions: Generated<string>;
  distributed_at: Millis | null;
  created_at: Millis;
}

export interface LpRecordsTable {
  id: Generated<bigint>;
  project_id: bigint;
  user_id: bigint;
  /** Token atoms asked for. */
  requested: bigint;
  /** Quote atoms taken (FCFS) or frozen (pro-rata). */
  committed: bigint;
  /** Token atoms allocated (0 until distribution in pro-rata). */
  quantity: bigint;
  paid: bigint;
  refunded: bigint;
  status: LpRecordStatus;
  idempotency_key: string;
  created_at: Millis;
  release_at: Millis;
  released_at: Millis | null;
}

export interface LpRewardsTable {
  id: Generated<bigint>;
  project_id: bigint;
  /** The launchpad record whose paid amount earned it. */
  source_id: bigint;
  buyer_id: bigint;
  beneficiary_id: bigint;
  generation: bigint;
  asset: string;
  base: bigint;
  rate_bp: bigint;
  /** Atoms paid (or to be paid while pending). */
  amount: bigint;
  /** Atoms over a cap: recorded, never paid. */
  capped: bigint;
  status: LpRewardStatus;
  reason: Generated<string>;
  /** `YYYY-MM` (UTC) of the distribution: the monthly cap's period. */
  month: string;
  created_at: Millis;
  settled_at: Millis | null;
}

export interface AgentsTable {
  user_id: bigint;
  status: AgentStatus;
  /** JSON `[g1, g2, g3]` basis points, or null for the platform's rates. */
  rates_override: string | null;
  note: Generated<string>;
  applied_at: Millis;
  decided_at: Millis | null;
  decided_by: string | null;
}
