// Trial money: grants of a plan (the welcome grant on verification), taking a contract's amount from
// a grant, the turnover that releases locked trial profit, and the expiry of grants.

import { AppError } from '@bourse/shared';
import type { Db } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { DAY_MS, type DeliveryDeps, TURNOVER_MULTIPLE_SETTING, USDT } from './deps.ts';
import { type GrantRow, minTurnoverMultiple } from './records.ts';
import * as repo from './repository.ts';

/**
 * Locks (in id order) the user's live grants still short of their turnover, and answers them the
 * soonest to expire first: the order turnover is counted in.
 */
export async function lockGrantsNeedingTurnover(trx: Db, userId: bigint, now: number): Promise<GrantRow[]> {
  const ids = (await repo.listGrantsNeedingTurnover(trx, userId, toMillis(now))).sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const locked: GrantRow[] = [];
  for (const id of ids) {
    const grant = await repo.lockGrant(trx, id);
    if (grant?.status === 'active' && fromMillis(grant.expires_at) > now) locked.push(grant);
  }
  return locked.sort((a, b) =>
    a.expires_at !== b.expires_at ? (a.expires_at < b.expires_at ? -1 : 1) : a.id < b.id ? -1 : 1,
  );
}

/**
 * Counts one real contract's amount as turnover: toward each locked grant in turn, up to what it
 * still needs (turnover beyond every grant's need is not kept for later profit). A grant whose
 * turnover is complete has its locked profit released to the user's available USDT, once.
 */
export async function countTurnover(
  deps: DeliveryDeps,
  trx: Db,
  grants: GrantRow[],
  amount: bigint,
): Promise<void> {
  let left = amount;
  for (const grant of grants) {
    if (left === 0n) return;
    const need = grant.turnover_required - grant.turnover_done;
    if (need <= 0n) continue;
    const counted = left < need ? left : need;
    await repo.addTurnover(trx, grant.id, counted);
    left -= counted;
    if (counted === need && grant.profit_locked > 0n) await releaseProfit(deps, trx, grant);
  }
}

/** Releases a grant's locked trial profit to the user's available USDT (a `trial.release` entry). */
async function releaseProfit(deps: DeliveryDeps, trx: Db, grant: GrantRow): Promise<void> {
  const amount = grant.profit_locked;
  if (!(await repo.releaseTrialProfit(trx, grant.id, amount))) return;
  const user = { userId: grant.user_id };
  await deps.ledger.post(trx, {
    type: 'trial.release',
    // why: the cumulative amount released names each release of a grant apart.
    ref: `grant:${grant.id}:${grant.profit_released + amount}`,
    memo: grant.name,
    by: 'system',
    postings: [
      { owner: user, asset: USDT, kind: 'trial_profit', amount: -amount },
      { owner: user, asset: USDT, kind: 'available', amount },
    ],
  });
}

/**
 * The turnover multiple in force, in hundredths (`1000` is 10×): the back office's setting (or
 * the configured default), raised to the least that keeps trial money's expected value at or
 * below zero for the payout ratios configured now (see {@link minTurnoverMultiple}).
 */
export async function turnoverMultiple(deps: DeliveryDeps, db: Db = deps.db): Promise<bigint> {
  const set = await deps.settings.get(TURNOVER_MULTIPLE_SETTING, db);
  const chosen = set ? BigInt(set) : BigInt(Math.round(deps.trialTurnoverMultiple * 100));
  const least = minTurnoverMultiple(await repo.maxRatioBps(db));
  return least === undefined || chosen >= least ? chosen : least;
}

/**
 * Gives an account whose identity was just approved the grants of every active sign-up plan
 * (the "welcome" trial money), inside the caller's transaction (the approval's). A plan is
 * granted once per identity: skipped when this account or another with the same identity
 * (`identityHash`, the document's keyed hash) has it, also when both are approved at once.
 */
export async function grantVerifiedTrials(
  deps: DeliveryDeps,
  trx: Db,
  userId: bigint,
  identityHash: string,
): Promise<void> {
  for (const plan of await repo.listActiveSignupPlans(trx)) {
    if (await repo.hasGrantOfPlan(trx, userId, plan.id)) continue;
    await grantPlan(deps, trx, {
      userId,
      plan,
      key: `signup:${plan.id}:${userId}`,
      by: 'system',
      identityHash,
    });
  }
}

/**
 * Grants a plan's trial money to a user inside `trx`: the grant row and its `trial.grant` entry
 * from the `trial` account. `key` is unique: the same key twice is a unique violation. Answers
 * undefined, granting nothing, when the identity already has a grant of the plan.
 */
export async function grantPlan(
  deps: DeliveryDeps,
  trx: Db,
  input: {
    userId: bigint;
    plan: NonNullable<Awaited<ReturnType<typeof repo.findPlan>>>;
    key: string;
    by: string;
    /** The keyed hash of the user's verified identity document: one grant of a plan per identity. */
    identityHash: string;
  },
): Promise<bigint | undefined> {
  const { clock, ledger } = deps;
  const { plan, userId } = input;
  const now = clock.now();
  const id = await repo.insertGrant(trx, {
    user_id: userId,
    plan_id: plan.id,
    name: plan.name,
    amount: plan.amount,
    remaining: plan.amount,
    profit_cap: (plan.amount * plan.profit_cap_percent) / 100n,
    expires_at: toMillis(now + Number(plan.validity_days) * DAY_MS),
    status: 'active',
    grant_key: input.key,
    granted_by: input.by,
    created_at: toMillis(now),
    identity_hash: input.identityHash,
  });
  if (id === undefined) return undefined;
  await ledger.post(trx, {
    type: 'trial.grant',
    ref: `grant:${id}`,
    memo: plan.name,
    by: input.by,
    postings: [
      { owner: { system: 'trial' }, asset: USDT, kind: 'available', amount: -plan.amount },
      { owner: { userId }, asset: USDT, kind: 'trial', amount: plan.amount },
    ],
  });
  return id;
}

/**
 * Takes `amount` from the grant that expires first among the user's usable ones (alive, with
 * enough left, below its profit cap), under the grant's row lock.
 */
export async function takeFromGrant(trx: Db, userId: bigint, amount: bigint, now: number): Promise<GrantRow> {
  const grants = await repo.listUserGrants(trx, userId);
  const alive = grants.filter((g) => g.status === 'active' && fromMillis(g.expires_at) > now);
  if (alive.length === 0) {
    throw new AppError(grants.length > 0 ? 'TRIAL_EXPIRED' : 'TRIAL_BALANCE_INSUFFICIENT');
  }
  const enough = alive.filter((g) => g.remaining >= amount);
  if (enough.length === 0) throw new AppError('TRIAL_BALANCE_INSUFFICIENT');
  const candidates = enough
    .filter((g) => g.profit_paid < g.profit_cap)
    .sort((a, b) => (a.expires_at < b.expires_at ? -1 : a.expires_at > b.expires_at ? 1 : 0));
  const chosen = candidates[0];
  if (!chosen) throw new AppError('TRIAL_PROFIT_CAP_REACHED');
  const locked = await repo.lockGrant(trx, chosen.id);
  if (locked?.status !== 'active' || fromMillis(locked.expires_at) <= now)
    throw new AppError('TRIAL_EXPIRED');
  if (locked.remaining < amount) throw new AppError('TRIAL_BALANCE_INSUFFICIENT');
  if (locked.profit_paid >= locked.profit_cap) throw new AppError('TRIAL_PROFIT_CAP_REACHED');
  await repo.changeGrant(trx, locked.id, { remainingDelta: -amount });
  return locked;
}

/** Ends a grant whose time has come: what is left of it returns to the `trial` account. */
export async function expireGrant(deps: DeliveryDeps, id: bigint, now: number): Promise<boolean> {
  const { db, ledger } = deps;
  return db.transaction().execute(async (trx) => {
    const grant = await repo.lockGrant(trx, id);
    if (grant?.status !== 'active' || fromMillis(grant.expires_at) > now) return false;
    // why: both platform accounts before the user's (the ledger's lock order), for two entries.
    await ledger.balancesForUpdate(trx, [
      { owner: { system: 'house' }, asset: USDT, kind: 'available' },
      { owner: { system: 'trial' }, asset: USDT, kind: 'available' },
    ]);
    await repo.changeGrant(trx, id, { expire: true });
    // why: trial profit the turnover has not released ends with its grant, back to the house.
    if (grant.profit_locked > 0n && (await repo.expireTrialProfit(trx, id, grant.profit_locked))) {
      await ledger.post(trx, {
        type: 'trial.profit_expire',
        ref: `grant:${id}`,
        memo: grant.name,
        by: 'system',
        postings: [
          {
            owner: { userId: grant.user_id },
            asset: USDT,
            kind: 'trial_profit',
            amount: -grant.profit_locked,
          },
          { owner: { system: 'house' }, asset: USDT, kind: 'available', amount: grant.profit_locked },
        ],
      });
    }
    if (grant.remaining > 0n) {
      await ledger.post(trx, {
        type: 'trial.expire',
        ref: `grant:${id}`,
        memo: grant.name,
        by: 'system',
        postings: [
          { owner: { userId: grant.user_id }, asset: USDT, kind: 'trial', amount: -grant.remaining },
          { owner: { system: 'trial' }, asset: USDT, kind: 'available', amount: grant.remaining },
        ],
      });
    }
    return true;
  });
}
