// Referral rewards: the pure arithmetic (products §2 rules 3–5), which takes what the store says and
// returns what to post, then the use cases around it: writing a project's rewards at distribution,
// paying or voiding pending ones, the programme's configuration, and the customer's and staff's lists.

import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { Db } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import type { LpRewardStatus } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AgentService } from './agents.ts';
import {
  BATCH,
  DAY_MS,
  type LaunchpadDeps,
  type LaunchpadStaff,
  PAGE,
  PENDING_DAYS,
  type ProjectRow,
  REALNAME_VERIFIED,
  REFERRAL_SETTING,
  REWARDS,
  system,
} from './deps.ts';
import * as repo from './repository.ts';
import { toRewardView } from './views.ts';

const BP = 10_000n;

/** The referral programme as the operator configured it (products §2 "Data"). */
export interface ReferralConfig {
  /** Rates per generation in basis points, Σ ≤ 1,000. */
  ratesBp: [bigint, bigint, bigint];
  /** 1: first generation only (the production default); 3: generations 2 and 3 too. */
  generations: 1 | 3;
  /** Atoms of the quote coin one beneficiary may earn per project and per calendar month (UTC). */
  capPerProject: bigint;
  capPerMonth: bigint;
  /** The share of a project's raise set aside for rewards, unless the project says otherwise. */
  budgetBp: bigint;
  /** KYC countries (ISO 3166 alpha-2) where rewards are not paid. */
  blockedCountries: string[];
  /** Who acknowledged the legal warning for generations 2–3, and when; null while nobody has. */
  acknowledgedBy: string | null;
  acknowledgedAt: number | null;
}

const ATOMS = 100_000_000n;

export const DEFAULT_REFERRAL: ReferralConfig = {
  ratesBp: [300n, 100n, 50n],
  generations: 1,
  capPerProject: 1_000n * ATOMS,
  capPerMonth: 5_000n * ATOMS,
  budgetBp: 500n,
  blockedCountries: [],
  acknowledgedBy: null,
  acknowledgedAt: null,
};

/** reward = floor(paid · rate / 10,000). */
export function rewardOf(paid: bigint, rateBp: bigint): bigint {
  return (paid * rateBp) / BP;
}

/** The budget a raise sets aside: floor(raise · budget / 10,000). */
export function budgetOf(raise: bigint, budgetBp: bigint): bigint {
  return (raise * budgetBp) / BP;
}

/**
 * Splits what is due into what may be paid and what is over a cap: the room left under the
 * beneficiary's project and month caps and the project's remaining budget.
 */
export function applyCaps(
  due: bigint,
  room: { project: bigint; month: bigint; budget: bigint },
): { amount: bigint; capped: bigint } {
  let allowed = room.project;
  if (room.month < allowed) allowed = room.month;
  if (room.budget < allowed) allowed = room.budget;
  if (allowed < 0n) allowed = 0n;
  const amount = due < allowed ? due : allowed;
  return { amount, capped: due - amount };
}

/** `YYYY-MM` of a time (UTC): the monthly cap's period. */
export function monthOf(at: number): string {
  return new Date(at).toISOString().slice(0, 7);
}

// --- distribution and settlement ------------------------------------------------------------------

/**
 * Writes the rewards of every paid record (products §2): per generation up the buyer's chain,
 * void for a shared signal, an unverified buyer or a blocked country, capped per project, per
 * month and by the budget left; paid now to a verified, active beneficiary, pending otherwise.
 * Returns the atoms paid or held for pending rewards.
 */
export async function createRewards(
  deps: LaunchpadDeps,
  agents: AgentService,
  trx: Db,
  project: ProjectRow,
  allocations: readonly { recordId: bigint; paid: bigint }[],
  records: readonly repo.RecordRow[],
  budget: bigint,
  now: number,
): Promise<bigint> {
  const config = await referralConfig(deps, trx);
  const month = monthOf(now);
  let left = budget;
  let owed = 0n;
  for (const allocation of allocations) {
    if (allocation.paid === 0n) continue;
    const record = records.find((r) => r.id === allocation.recordId);
    if (!record) continue;
    const buyerId = record.user_id;
    const chain = (await deps.users.listAncestors(trx, buyerId)).filter(
      (a) => a.generation <= config.generations,
    );
    if (chain.length === 0) continue;
    const buyer = await deps.users.getAccount(buyerId, trx);
    let voidAll = '';
    if (buyer?.realnameStatus !== REALNAME_VERIFIED) voidAll = 'buyer not verified';
    for (const ancestor of chain) {
      if (voidAll) break;
      const shared = await repo.sharedSignals(trx, buyerId, ancestor.userId);
      if (shared.length > 0) voidAll = `buyer shares ${shared.join(', ')} with user ${ancestor.userId}`;
    }
    for (const ancestor of chain) {
      const rate =
        (await agents.ratesOverride(trx, ancestor.userId))?.[ancestor.generation - 1] ??
        config.ratesBp[ancestor.generation - 1] ??
        0n;
      const due = rewardOf(allocation.paid, rate);
      if (due === 0n) continue;
      const base = {
        project_id: project.id,
        source_id: record.id,
        buyer_id: buyerId,
        beneficiary_id: ancestor.userId,
        generation: BigInt(ancestor.generation),
        asset: project.quote,
        base: allocation.paid,
        rate_bp: rate,
        month,
        created_at: toMillis(now),
      };
      const beneficiary = await deps.users.getAccount(ancestor.userId, trx);
      const country = await repo.kycCountry(trx, ancestor.userId);
      let reason = voidAll;
      if (!reason && country && config.blockedCountries.includes(country))
        reason = `rewards are not paid in ${country}`;
      if (reason) {
        await repo.insertReward(trx, {
          ...base,
          amount: due,
          capped: 0n,
          status: 'void',
          reason,
          settled_at: toMillis(now),
        });
        continue;
      }
      const sums = await repo.rewardSums(trx, ancestor.userId, month, project.id);
      const { amount, capped } = applyCaps(due, {
        project: config.capPerProject - sums.project,
        month: config.capPerMonth - sums.month,
        budget: left,
      });
      const payable = beneficiary?.realnameStatus === REALNAME_VERIFIED && beneficiary.status === 'active';
      const status: LpRewardStatus = amount === 0n ? 'capped' : payable ? 'paid' : 'pending';
      const rewardId = await repo.insertReward(trx, {
        ...base,
        amount,
        capped,
        status,
        reason: capped > 0n ? 'over a cap' : '',
        settled_at: status === 'pending' ? null : toMillis(now),
      });
      left -= amount;
      if (status === 'capped') continue;
      owed += amount;
      if (status === 'paid') await payReward(deps, trx, rewardId, ancestor.userId, project, amount);
    }
  }
  return owed;
}

async function payReward(
  deps: LaunchpadDeps,
  trx: Db,
  rewardId: bigint,
  userId: bigint,
  project: { name: string; quote: string },
  amount: bigint,
) {
  await deps.ledger.post(trx, {
    type: 'lp.reward',
    ref: `lp-reward:${rewardId}`,
    memo: project.name,
    postings: [
      { owner: REWARDS, asset: project.quote, kind: 'available', amount: -amount },
      { owner: { userId }, asset: project.quote, kind: 'available', amount },
    ],
  });
}

async function voidRewardEntry(
  deps: LaunchpadDeps,
  trx: Db,
  reward: repo.RewardRow,
  reason: string,
  now: number,
) {
  await deps.ledger.post(trx, {
    type: 'lp.reward_void',
    ref: `lp-reward:${reward.id}`,
    memo: reason,
    postings: [
      { owner: REWARDS, asset: reward.asset, kind: 'available', amount: -reward.amount },
      {
        owner: system('lp_issuer', reward.project_id),
        asset: reward.asset,
        kind: 'available',
        amount: reward.amount,
      },
    ],
  });
  await repo.setRewardStatus(trx, reward.id, { status: 'void', reason, settled_at: toMillis(now) });
}

/**
 * Pending rewards: paid once the beneficiary is verified (and not frozen); void, the money back
 * to the issuer, once 30 days have passed without it.
 */
export async function settlePendingRewards(deps: LaunchpadDeps): Promise<number> {
  const { db, clock } = deps;
  const now = clock.now();
  let settled = 0;
  for (const reward of await repo.listPendingRewards(db, BATCH)) {
    const beneficiary = await deps.users.getAccount(reward.beneficiary_id);
    const payable = beneficiary?.realnameStatus === REALNAME_VERIFIED && beneficiary.status === 'active';
    const expired = now >= fromMillis(reward.created_at) + PENDING_DAYS * DAY_MS;
    if (!payable && !expired) continue;
    await db.transaction().execute(async (trx) => {
      const current = await repo.findReward(trx, reward.id);
      if (current?.status !== 'pending') return;
      if (payable) {
        const project = await repo.findProject(trx, reward.project_id);
        await payReward(
          deps,
          trx,
          reward.id,
          reward.beneficiary_id,
          { name: project?.name ?? '', quote: reward.asset },
          reward.amount,
        );
        await repo.setRewardStatus(trx, reward.id, { status: 'paid', settled_at: toMillis(now) });
      } else {
        await voidRewardEntry(deps, trx, current, `not verified within ${PENDING_DAYS} days`, now);
      }
      settled += 1;
    });
  }
  return settled;
}

// --- configuration --------------------------------------------------------------------------------

export async function referralConfig(deps: LaunchpadDeps, db: Db = deps.db): Promise<ReferralConfig> {
  const text = await deps.settings.get(REFERRAL_SETTING, db);
  if (!text) return DEFAULT_REFERRAL;
  const stored = JSON.parse(text) as Record<string, unknown>;
  const rates = (stored.ratesBp as string[] | undefined)?.map(BigInt) ?? DEFAULT_REFERRAL.ratesBp;
  return {
    ratesBp: [rates[0] ?? 0n, rates[1] ?? 0n, rates[2] ?? 0n],
    generations: stored.generations === 3 ? 3 : 1,
    capPerProject: BigInt((stored.capPerProject as string | undefined) ?? DEFAULT_REFERRAL.capPerProject),
    capPerMonth: BigInt((stored.capPerMonth as string | undefined) ?? DEFAULT_REFERRAL.capPerMonth),
    budgetBp: BigInt((stored.budgetBp as string | undefined) ?? DEFAULT_REFERRAL.budgetBp),
    blockedCountries: (stored.blockedCountries as string[] | undefined) ?? [],
    acknowledgedBy: (stored.acknowledgedBy as string | null | undefined) ?? null,
    acknowledgedAt: (stored.acknowledgedAt as number | null | undefined) ?? null,
  };
}

/** What `setReferralConfig` can answer besides the codes every route can. */
export const SET_REFERRAL_CONFIG_ERRORS = [
  'CONFIG_LIMITS_INVALID',
  'LP_ACK_REQUIRED',
  'COUNTRY_INVALID',
  'AMOUNT_INVALID',
] as const satisfies readonly ResultKey[];

/**
 * Saves the programme (audited). Generations 2 and 3 need the acknowledgement of the legal
 * warning (products §2), recorded with who gave it; Σ rates stays within 1,000 bp.
 */
export async function setReferralConfig(
  deps: LaunchpadDeps,
  staff: LaunchpadStaff | { actor: string; ip: string },
  input: Omit<ReferralConfig, 'acknowledgedBy' | 'acknowledgedAt'> & { acknowledge: boolean },
): Promise<ReferralConfig> {
  const { db, clock, audit } = deps;
  const sum = input.ratesBp.reduce((s, r) => s + r, 0n);
  if (input.ratesBp.some((r) => r < 0n) || sum > 1_000n) throw new AppError('CONFIG_LIMITS_INVALID');
  if (input.capPerProject < 0n || input.capPerMonth < 0n || input.budgetBp < 0n || input.budgetBp > 10_000n)
    throw new AppError('CONFIG_LIMITS_INVALID');
  const before = await referralConfig(deps);
  let acknowledgedBy = before.acknowledgedBy;
  let acknowledgedAt = before.acknowledgedAt;
  if (input.generations === 3 && before.generations !== 3) {
    if (!input.acknowledge) throw new AppError('LP_ACK_REQUIRED');
    acknowledgedBy = staff.actor;
    acknowledgedAt = clock.now();
  }
  const next: ReferralConfig = { ...input, acknowledgedBy, acknowledgedAt };
  await db.transaction().execute(async (trx) => {
    await deps.settings.set(
      trx,
      REFERRAL_SETTING,
      JSON.stringify({
        ...next,
        ratesBp: next.ratesBp.map(String),
        capPerProject: String(next.capPerProject),
        capPerMonth: String(next.capPerMonth),
        budgetBp: String(next.budgetBp),
      }),
    );
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.referral_config',
      target: 'referral',
      before,
      after: next,
      ip: staff.ip,
    });
  });
  return next;
}

// --- lists and staff review -----------------------------------------------------------------------

/** The user's referral rewards, newest first, with totals per status. */
export async function listRewards(deps: LaunchpadDeps, userId: bigint, page: HistoryPage) {
  const { db } = deps;
  const rows = await repo.listRewards(db, { beneficiaryId: userId }, historyWindow(page));
  const paid = await repo.rewardSums(db, userId, monthOf(deps.clock.now()), -1n);
  const { list, has_more } = historyAnswer(rows, page, (row) => toRewardView(row, true));
  return { list, has_more, month_total: fromAtoms(paid.month) };
}

export async function listRewardsForStaff(
  deps: LaunchpadDeps,
  filter: { projectId?: bigint; status?: LpRewardStatus },
  page: number,
) {
  const rows = await repo.listRewards(deps.db, filter, { limit: PAGE + 1, offset: (page - 1) * PAGE });
  return {
    list: rows.slice(0, PAGE).map((row) => ({
      ...toRewardView(row, false),
      beneficiary_id: String(row.beneficiary_id),
      buyer_id: String(row.buyer_id),
    })),
    has_more: rows.length > PAGE,
  };
}

/** What `voidReward` can answer besides the codes every route can. */
export const VOID_REWARD_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/** Voids a pending reward with a reason (audited); its money goes back to the issuer. */
export async function voidReward(
  deps: LaunchpadDeps,
  staff: LaunchpadStaff,
  id: bigint,
  reason: string,
): Promise<void> {
  const { db, audit, clock } = deps;
  await db.transaction().execute(async (trx) => {
    const reward = await repo.findReward(trx, id);
    if (!reward) throw new AppError('RECORD_NOT_FOUND');
    if (reward.status !== 'pending') throw new AppError('ILLEGAL_OPERATION');
    await voidRewardEntry(deps, trx, reward, reason, clock.now());
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.reward_void',
      target: `lp-reward:${id}`,
      reason,
      ip: staff.ip,
    });
  });
}
