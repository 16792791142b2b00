import { fromAtoms } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import type { LpMode, LpRecordStatus, LpRewardStatus } from '../../platform/schema.ts';
import { fromMillis } from '../../platform/time.ts';
import { maskName } from '../users/service.ts';
import type { ProjectRow } from './deps.ts';
import type * as repo from './repository.ts';

/** A referral reward as its beneficiary (buyer masked) or staff (buyer named) see it. */
export interface RewardView {
  id: string;
  project: string;
  buyer: string;
  generation: number;
  asset: string;
  base: string;
  rate_bp: number;
  amount: string;
  capped: string;
  status: LpRewardStatus;
  reason: string;
  created_at: number;
}

export function toRewardView(
  row: repo.RewardRow & { project_name: string; buyer_name: string },
  mask: boolean,
): RewardView {
  // why: a beneficiary sees who earned them a reward only as a masked name (never contacts).
  const buyer = mask ? maskName(row.buyer_name) : row.buyer_name;
  return {
    id: String(row.id),
    project: row.project_name,
    buyer,
    generation: Number(row.generation),
    asset: row.asset,
    base: fromAtoms(row.base),
    rate_bp: Number(row.rate_bp),
    amount: fromAtoms(row.amount),
    capped: fromAtoms(row.capped),
    status: row.status,
    reason: row.reason,
    created_at: fromMillis(row.created_at),
  };
}

/** The state a customer sees: from the stored status, the switch and the clock. */
export type ProjectState = 'not_started' | 'open' | 'allocating' | 'closed' | 'cancelled' | 'forbidden';

export interface ProjectView {
  id: string;
  name: string;
  coin: string;
  quote: string;
  mode: LpMode;
  state: ProjectState;
  status: string;
  start_at: number;
  end_at: number;
  release_at: number;
  lock_days: number;
  total_issue: string;
  price: string;
  per_min: string;
  per_max: string;
  individual_limit: string;
  max_purchases: number;
  soft_cap: string;
  /** Token atoms subscribed (pro-rata while open: demand, may pass the supply) or allocated. */
  subscribed: string;
  /** subscribed ÷ total issue, in percent with two decimals (Σ records ÷ supply; nothing else sets it). */
  progress: string;
  raised: string;
  participants: number;
  description: string;
  server_time: number;
}

export interface RecordView {
  id: string;
  project_id: string;
  name: string;
  coin: string;
  quote: string;
  price: string;
  requested: string;
  committed: string;
  quantity: string;
  paid: string;
  refunded: string;
  lock_days: number;
  created_at: number;
  release_at: number;
  released_at: number | null;
  /** frozen (committed, or locked until release), thawed (released), refunded. */
  status: 'frozen' | 'thawed' | 'refunded';
  stage: LpRecordStatus;
}

function percent(part: bigint, whole: bigint): string {
  if (whole === 0n) return '0.00';
  const hundredths = (part * 10_000n) / whole;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

export function projectState(row: ProjectRow, now: number): ProjectState {
  if (row.status === 'cancelled') return 'cancelled';
  if (row.status === 'distributed') return 'closed';
  if (row.status === 'draft') return 'not_started';
  if (row.disabled === 1n) return 'forbidden';
  if (now < fromMillis(row.start_at)) return 'not_started';
  if (now < fromMillis(row.end_at)) return 'open';
  return 'allocating';
}

function recordStatus(status: LpRecordStatus): RecordView['status'] {
  if (status === 'released') return 'thawed';
  if (status === 'refunded') return 'refunded';
  return 'frozen';
}

export function parseDescriptions(text: string): Record<string, string> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function projectView(
  clock: Clock,
  row: ProjectRow,
  totals: repo.Totals | undefined,
  locale: string,
): ProjectView {
  const now = clock.now();
  const state = projectState(row, now);
  const subscribed =
    row.status === 'distributed' || row.mode === 'fcfs'
      ? (totals?.quantity ?? 0n)
      : (totals?.requested ?? 0n);
  const descriptions = parseDescriptions(row.descriptions);
  return {
    id: String(row.id),
    name: row.name,
    coin: row.coin,
    quote: row.quote,
    mode: row.mode,
    state,
    status: row.status,
    start_at: fromMillis(row.start_at),
    end_at: fromMillis(row.end_at),
    release_at: fromMillis(row.release_at),
    lock_days: Number(row.lock_days),
    total_issue: fromAtoms(row.total_issue),
    price: fromAtoms(row.price),
    per_min: fromAtoms(row.per_min),
    per_max: fromAtoms(row.per_max),
    individual_limit: fromAtoms(row.individual_limit),
    max_purchases: Number(row.max_purchases),
    soft_cap: fromAtoms(row.soft_cap),
    subscribed: fromAtoms(subscribed),
    progress: percent(subscribed, row.total_issue),
    raised: fromAtoms(
      row.status === 'distributed' || row.mode === 'fcfs' ? (totals?.paid ?? 0n) : (totals?.committed ?? 0n),
    ),
    participants: Number(totals?.records ?? 0n),
    description: descriptions[locale] ?? descriptions['ja-JP'] ?? '',
    server_time: now,
  };
}

export function pick(project: ProjectRow) {
  return {
    name: project.name,
    coin: project.coin,
    quote: project.quote,
    price: project.price,
    lock_days: project.lock_days,
  };
}

export function toRecordView(
  row: repo.RecordRow & { name: string; coin: string; quote: string; price: bigint; lock_days: bigint },
): RecordView {
  return {
    id: String(row.id),
    project_id: String(row.project_id),
    name: row.name,
    coin: row.coin,
    quote: row.quote,
    price: fromAtoms(row.price),
    requested: fromAtoms(row.requested),
    committed: fromAtoms(row.committed),
    quantity: fromAtoms(row.quantity),
    paid: fromAtoms(row.paid),
    refunded: fromAtoms(row.refunded),
    lock_days: Number(row.lock_days),
    created_at: fromMillis(row.created_at),
    release_at: fromMillis(row.release_at),
    released_at: row.released_at === null ? null : fromMillis(row.released_at),
    status: recordStatus(row.status),
    stage: row.status,
  };
}
