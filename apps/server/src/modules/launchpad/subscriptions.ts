// Subscriptions: a customer's purchase (paid and locked, or a frozen commitment) and their records.

import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { AuthContext } from '../../platform/auth-hook.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import { toMillis } from '../../platform/time.ts';
import type { Owner } from '../ledger/service.ts';
import { costOf } from './allocation.ts';
import { type LaunchpadDeps, type ProjectRow, system } from './deps.ts';
import * as repo from './repository.ts';
import { pick, projectState, type RecordView, toRecordView } from './views.ts';

/** What `subscribe` can answer besides the codes every route can. */
export const SUBSCRIBE_ERRORS = [
  'LP_NOT_STARTED',
  'LP_CLOSED',
  'LP_FORBIDDEN',
  'LP_BELOW_MIN',
  'LP_ABOVE_MAX',
  'LP_INDIVIDUAL_LIMIT',
  'LP_TOTAL_ISSUE',
  'LP_REPEAT',
  'BALANCE_INSUFFICIENT',
  'REALNAME_REQUIRED',
  'TERMS_NOT_ACCEPTED',
  'QTY_INVALID',
  'ILLEGAL_OPERATION',
  'PLEASE_LOGIN',
  'AMOUNT_INVALID',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/**
 * Subscribes `quantity` token atoms. First come, first served: paid now, tokens locked until
 * release. Pro-rata: the cost is frozen until the end of the window. Refused, changing nothing,
 * with the spec's messages; the same idempotency key answers the first record again.
 */
export async function subscribe(
  deps: LaunchpadDeps,
  auth: AuthContext,
  input: { projectId: bigint; quantity: bigint; idempotencyKey: string },
): Promise<RecordView> {
  const { db, clock } = deps;
  const userId = auth.userId;
  const previous = await repo.findRecordByKey(db, userId, input.idempotencyKey);
  if (previous) return recordById(deps, previous.id);
  const account = await deps.users.getAccount(userId);
  if (!account) throw new AppError('PLEASE_LOGIN');
  if (account.tradeBanned || account.status === 'frozen') throw new AppError('LP_FORBIDDEN');
  await deps.identityGate.requireForTrading(userId);
  await deps.termsGate.requireAccepted(userId);
  if (input.quantity <= 0n) throw new AppError('QTY_INVALID');
  const now = clock.now();
  let recordId: bigint;
  try {
    recordId = await db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, input.projectId);
      if (!project || project.status === 'draft') throw new AppError('LP_CLOSED');
      const state = projectState(project, now);
      if (state === 'forbidden') throw new AppError('LP_FORBIDDEN');
      if (state === 'not_started') throw new AppError('LP_NOT_STARTED');
      if (state !== 'open') throw new AppError('LP_CLOSED');
      if (input.quantity < project.per_min) throw new AppError('LP_BELOW_MIN');
      if (input.quantity > project.per_max) throw new AppError('LP_ABOVE_MAX');
      const mine = await repo.userTotals(trx, project.id, userId);
      if (mine.records >= project.max_purchases) throw new AppError('LP_REPEAT');
      if (project.mode === 'fcfs') {
        if (mine.quantity + input.quantity > project.individual_limit)
          throw new AppError('LP_INDIVIDUAL_LIMIT');
        const sold = (await repo.projectTotals(trx, [project.id])).get(project.id)?.quantity ?? 0n;
        const remaining = project.total_issue - sold;
        if (input.quantity > remaining)
          throw new AppError('LP_TOTAL_ISSUE', { remaining: fromAtoms(remaining > 0n ? remaining : 0n) });
      } else if (input.quantity > project.total_issue) {
        throw new AppError('LP_TOTAL_ISSUE', { remaining: fromAtoms(project.total_issue) });
      }
      return place(deps, trx, project, userId, input.quantity, input.idempotencyKey, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const again = await repo.findRecordByKey(db, userId, input.idempotencyKey);
      if (again) return recordById(deps, again.id);
    }
    throw error;
  }
  return recordById(deps, recordId);
}

/** Writes a subscription the checks allowed: the record and its entry (paid and locked, or frozen). */
export async function place(
  deps: LaunchpadDeps,
  trx: Db,
  project: ProjectRow,
  userId: bigint,
  quantity: bigint,
  idempotencyKey: string,
  now: number,
): Promise<bigint> {
  const cost = costOf(quantity, project.price);
  const fcfs = project.mode === 'fcfs';
  const id = await repo.insertRecord(trx, {
    project_id: project.id,
    user_id: userId,
    requested: quantity,
    committed: cost,
    quantity: fcfs ? quantity : 0n,
    paid: fcfs ? cost : 0n,
    refunded: 0n,
    status: fcfs ? 'locked' : 'committed',
    idempotency_key: idempotencyKey,
    created_at: toMillis(now),
    release_at: project.release_at,
  });
  const user: Owner = { userId };
  await deps.ledger.post(trx, {
    type: 'lp.subscribe',
    ref: `lp-record:${id}`,
    memo: project.name,
    by: `user:${userId}`,
    postings: fcfs
      ? [
          { owner: user, asset: project.quote, kind: 'available', amount: -cost },
          { owner: system('lp_escrow', project.id), asset: project.quote, kind: 'available', amount: cost },
          {
            owner: system('lp_inventory', project.id),
            asset: project.coin,
            kind: 'available',
            amount: -quantity,
          },
          { owner: user, asset: project.coin, kind: 'locked', amount: quantity },
        ]
      : [
          { owner: user, asset: project.quote, kind: 'available', amount: -cost },
          { owner: user, asset: project.quote, kind: 'frozen', amount: cost },
        ],
  });
  return id;
}

/** The user's subscription records, newest first (the spec's record fields). */
export async function listRecords(
  deps: LaunchpadDeps,
  userId: bigint,
  page: HistoryPage,
): Promise<{ list: RecordView[]; has_more: boolean }> {
  const rows = await repo.listUserRecords(deps.db, userId, historyWindow(page));
  const { list, has_more } = historyAnswer(rows, page, toRecordView);
  return { list, has_more };
}

async function recordById(deps: LaunchpadDeps, id: bigint): Promise<RecordView> {
  const { db } = deps;
  const record = await repo.findRecord(db, id);
  if (!record) throw new AppError('RECORD_NOT_FOUND');
  const project = await repo.findProject(db, record.project_id);
  if (!project) throw new AppError('RECORD_NOT_FOUND');
  return toRecordView({ ...record, ...pick(project), id: record.id });
}
