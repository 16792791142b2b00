import { fromAtoms } from '@bourse/shared';
import type { LpRewardStatus } from '../../platform/schema.ts';
import { fromMillis } from '../../platform/time.ts';
import { maskName } from '../users/service.ts';
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
