// Staff's work on projects: drafting, funding the inventory, publishing, switching off, cancelling,
// and the back office's lists of projects and their records. Every change is audited.

import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { LpMode } from '../../platform/schema.ts';
import { toMillis } from '../../platform/time.ts';
import { demandOf } from './allocation.ts';
import { DAY_MS, type LaunchpadDeps, type LaunchpadStaff, system } from './deps.ts';
import { cancel } from './distribution.ts';
import * as repo from './repository.ts';
import { referralConfig } from './rewards.ts';
import { parseDescriptions, pick, projectState, projectView, toRecordView } from './views.ts';

export interface ProjectTerms {
  name: string;
  coin: string;
  coinName: string;
  coinDecimals: number;
  quote: string;
  startAt: number;
  endAt: number;
  totalIssue: bigint;
  price: bigint;
  lockDays: number;
  perMin: bigint;
  perMax: bigint;
  individualLimit: bigint;
  maxPurchases: number;
  softCap: bigint;
  mode: LpMode;
  referralBudgetBp: bigint;
  descriptions: Record<string, string>;
}

/** What `createProject` can answer besides the codes every route can. */
export const CREATE_PROJECT_ERRORS = [
  'LP_PROJECT_INVALID',
  'AMOUNT_INVALID',
  'CONFIG_LIMITS_INVALID',
] as const satisfies readonly ResultKey[];

/** Creates a draft project and its coin row (audited). */
export async function createProject(
  deps: LaunchpadDeps,
  staff: LaunchpadStaff,
  terms: ProjectTerms,
): Promise<bigint> {
  validateTerms(terms);
  const { db, clock, audit } = deps;
  const config = await referralConfig(deps);
  return db.transaction().execute(async (trx) => {
    await deps.coins.addCoin(trx, {
      symbol: terms.coin,
      name: terms.coinName,
      displayDecimals: terms.coinDecimals,
    });
    const id = await repo.insertProject(trx, {
      ...toColumns(terms),
      referral_budget_bp: terms.referralBudgetBp ?? config.budgetBp,
      status: 'draft',
      created_at: toMillis(clock.now()),
    });
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.create',
      target: `lp:${id}`,
      after: terms,
      ip: staff.ip,
    });
    return id;
  });
}

/** What `updateProject` can answer besides the codes every route can. */
export const UPDATE_PROJECT_ERRORS = [
  'LP_PROJECT_INVALID',
  'LP_NOT_EDITABLE',
  'RECORD_NOT_FOUND',
  'AMOUNT_INVALID',
  'CONFIG_LIMITS_INVALID',
] as const satisfies readonly ResultKey[];

/** Changes a draft's terms (audited); a scheduled project's terms are what customers bought on. */
export async function updateProject(
  deps: LaunchpadDeps,
  staff: LaunchpadStaff,
  id: bigint,
  terms: ProjectTerms,
): Promise<void> {
  validateTerms(terms);
  const { db, audit } = deps;
  await db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    if (project.status !== 'draft' || project.coin !== terms.coin || project.quote !== terms.quote)
      throw new AppError('LP_NOT_EDITABLE');
    await repo.updateProject(trx, id, { ...toColumns(terms), referral_budget_bp: terms.referralBudgetBp });
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.update',
      target: `lp:${id}`,
      before: project,
      after: terms,
      ip: staff.ip,
    });
  });
}

/** What `fundInventory` can answer besides the codes every route can. */
export const FUND_INVENTORY_ERRORS = [
  'LP_NOT_EDITABLE',
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/**
 * Records the issuer's tokens arriving in the project's inventory (issuer → inventory: the total
 * issue), once per project (audited).
 */
export async function fundInventory(deps: LaunchpadDeps, staff: LaunchpadStaff, id: bigint): Promise<void> {
  const { db, audit, ledger } = deps;
  await db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    if (project.status !== 'draft') throw new AppError('LP_NOT_EDITABLE');
    await ledger.post(trx, {
      type: 'lp.inventory',
      ref: `lp-project:${id}`,
      memo: project.name,
      by: staff.actor,
      postings: [
        {
          owner: system('lp_issuer', id),
          asset: project.coin,
          kind: 'available',
          amount: -project.total_issue,
        },
        {
          owner: system('lp_inventory', id),
          asset: project.coin,
          kind: 'available',
          amount: project.total_issue,
        },
      ],
    });
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.fund_inventory',
      target: `lp:${id}`,
      after: { coin: project.coin, amount: project.total_issue },
      ip: staff.ip,
    });
  });
}

/** What `scheduleProject` can answer besides the codes every route can. */
export const SCHEDULE_PROJECT_ERRORS = [
  'LP_NOT_EDITABLE',
  'LP_INVENTORY_SHORT',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/** Publishes a draft (audited): only when its inventory already holds the total issue (rule 2). */
export async function scheduleProject(deps: LaunchpadDeps, staff: LaunchpadStaff, id: bigint): Promise<void> {
  const { db, audit, ledger } = deps;
  await db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    if (project.status !== 'draft') throw new AppError('LP_NOT_EDITABLE');
    const held = await ledger.balance(trx, system('lp_inventory', id), project.coin, 'available');
    if (held < project.total_issue) throw new AppError('LP_INVENTORY_SHORT');
    await repo.setProjectStatus(trx, id, 'scheduled');
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.schedule',
      target: `lp:${id}`,
      ip: staff.ip,
    });
  });
}

/** What `setDisabled` can answer besides the codes every route can. */
export const SET_DISABLED_ERRORS = [
  'LP_NOT_EDITABLE',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/** Refuses (or allows again) subscriptions to a scheduled project: "forbidden" (audited). */
export async function setDisabled(
  deps: LaunchpadDeps,
  staff: LaunchpadStaff,
  id: bigint,
  disabled: boolean,
  reason: string,
): Promise<void> {
  const { db, audit } = deps;
  await db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    if (project.status !== 'scheduled') throw new AppError('LP_NOT_EDITABLE');
    await repo.setProjectStatus(trx, id, 'scheduled', { disabled: disabled ? 1n : 0n });
    await audit.record(trx, {
      actor: staff.actor,
      action: disabled ? 'launchpad.disable' : 'launchpad.enable',
      target: `lp:${id}`,
      reason,
      ip: staff.ip,
    });
  });
}

/** What `cancelProject` can answer besides the codes every route can. */
export const CANCEL_PROJECT_ERRORS = [
  'LP_NOT_EDITABLE',
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/** Cancels a project before distribution with full refunds (rule 7; audited, with a reason). */
export async function cancelProject(
  deps: LaunchpadDeps,
  staff: LaunchpadStaff,
  id: bigint,
  reason: string,
): Promise<void> {
  const { db, audit, clock } = deps;
  await db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    if (project.status !== 'scheduled' && project.status !== 'draft') throw new AppError('LP_NOT_EDITABLE');
    await cancel(deps, trx, project, staff.actor, clock.now());
    await audit.record(trx, {
      actor: staff.actor,
      action: 'launchpad.cancel',
      target: `lp:${id}`,
      reason,
      ip: staff.ip,
    });
  });
}

/** Every project for the back office, with totals from the records and the inventory held. */
export async function listProjectsForStaff(deps: LaunchpadDeps) {
  const { db, clock, ledger } = deps;
  const rows = await repo.listProjects(db);
  const totals = await repo.projectTotals(
    db,
    rows.map((r) => r.id),
  );
  const now = clock.now();
  return Promise.all(
    rows.map(async (row) => ({
      ...projectView(deps.clock, row, totals.get(row.id), 'ja-JP'),
      disabled: row.disabled === 1n,
      referral_budget_bp: Number(row.referral_budget_bp),
      descriptions: parseDescriptions(row.descriptions),
      inventory: fromAtoms(await ledger.balance(db, system('lp_inventory', row.id), row.coin, 'available')),
      state: projectState(row, now),
    })),
  );
}

/** What `listProjectRecordsForStaff` can answer besides the codes every route can. */
export const LIST_PROJECT_RECORDS_FOR_STAFF_ERRORS = [
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

export async function listProjectRecordsForStaff(deps: LaunchpadDeps, id: bigint) {
  const { db } = deps;
  const project = await repo.findProject(db, id);
  if (!project) throw new AppError('RECORD_NOT_FOUND');
  const rows = await repo.listProjectRecords(db, id);
  return rows.map((r) => ({
    ...toRecordView({ ...r, ...pick(project), id: r.id }),
    user_id: String(r.user_id),
  }));
}

function toColumns(terms: ProjectTerms) {
  return {
    name: terms.name,
    coin: terms.coin,
    quote: terms.quote,
    start_at: toMillis(terms.startAt),
    end_at: toMillis(terms.endAt),
    total_issue: terms.totalIssue,
    price: terms.price,
    lock_days: BigInt(terms.lockDays),
    per_min: terms.perMin,
    per_max: terms.perMax,
    individual_limit: terms.individualLimit,
    max_purchases: BigInt(terms.maxPurchases),
    soft_cap: terms.softCap,
    mode: terms.mode,
    release_at: toMillis(terms.endAt + terms.lockDays * DAY_MS),
    descriptions: JSON.stringify(terms.descriptions),
  };
}

/** Terms that make sense together: positive amounts, a window, min ≤ max ≤ issue, a price. */
function validateTerms(t: ProjectTerms): void {
  const ok =
    /^[A-Z0-9]{2,16}$/.test(t.coin) &&
    /^[A-Z0-9]{2,16}$/.test(t.quote) &&
    t.coin !== t.quote &&
    t.name.trim().length > 0 &&
    t.name.length <= 100 &&
    t.endAt > t.startAt &&
    t.totalIssue > 0n &&
    t.price > 0n &&
    t.perMin > 0n &&
    t.perMin <= t.perMax &&
    t.perMax <= t.totalIssue &&
    t.individualLimit >= t.perMin &&
    t.maxPurchases >= 1 &&
    t.lockDays >= 0 &&
    t.lockDays <= 3650 &&
    t.softCap >= 0n &&
    t.coinDecimals >= 0 &&
    t.coinDecimals <= 8 &&
    t.referralBudgetBp >= 0n &&
    t.referralBudgetBp <= 10_000n &&
    demandOf(t.perMin, t.price) >= 0n;
  if (!ok) throw new AppError('LP_PROJECT_INVALID');
}
