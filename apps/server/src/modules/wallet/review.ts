// The back office's queues of deposits and withdrawals, its dashboard figures and support's activity
// panel.

import { AppError, fromAtoms } from '@bourse/shared';
import type { StaffDeposit, StaffWithdrawal } from '@bourse/shared/api';
import { WALLET_PAGE_SIZE } from '@bourse/shared/api';
import type { DepositStatus, WithdrawalStatus } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { WalletDeps } from './deps.ts';
import { toStaffDeposit, toStaffWithdrawal } from './records.ts';
import * as repo from './repository.ts';

/** A row of a back-office queue: the record plus the customer's username ('' when unknown). */
export type StaffQueueRow<T> = T & { username: string };

/** The deposit queue (or any status), newest first, 20 a page. */
export async function listDeposits(
  deps: WalletDeps,
  query: { status?: string; page: number },
): Promise<{
  list: StaffQueueRow<StaffDeposit>[];
  page: number;
  has_more: boolean;
}> {
  const status = parseStatus<DepositStatus>(query.status, ['confirming', 'credited', 'rejected']);
  const rows = await repo.listDeposits(deps.db, {
    status,
    limit: WALLET_PAGE_SIZE + 1,
    offset: (Math.max(1, query.page) - 1) * WALLET_PAGE_SIZE,
  });
  return {
    list: await withUsernames(deps, rows.slice(0, WALLET_PAGE_SIZE).map(toStaffDeposit)),
    page: query.page,
    has_more: rows.length > WALLET_PAGE_SIZE,
  };
}

/** The withdrawal queue (or any status), newest first, 20 a page. */
export async function listWithdrawals(
  deps: WalletDeps,
  query: { status?: string; page: number },
): Promise<{
  list: StaffQueueRow<StaffWithdrawal>[];
  page: number;
  has_more: boolean;
}> {
  const status = parseStatus<WithdrawalStatus>(query.status, ['review', 'passed', 'rejected']);
  const rows = await repo.listWithdrawals(deps.db, {
    status,
    limit: WALLET_PAGE_SIZE + 1,
    offset: (Math.max(1, query.page) - 1) * WALLET_PAGE_SIZE,
  });
  return {
    list: await withUsernames(deps, rows.slice(0, WALLET_PAGE_SIZE).map(toStaffWithdrawal)),
    page: query.page,
    has_more: rows.length > WALLET_PAGE_SIZE,
  };
}

/** Dashboard figures: open reviews, and deposits and withdrawals requested since `since` (ms). */
export async function reviewFigures(
  deps: WalletDeps,
  since: number,
): Promise<{
  pendingDeposits: number;
  pendingWithdrawals: number;
  depositsToday: number;
  withdrawalsToday: number;
}> {
  const { db } = deps;
  const deposits = await repo.countByStatusSince(db, 'deposits', toMillis(since));
  const withdrawals = await repo.countByStatusSince(db, 'withdrawals', toMillis(since));
  return {
    pendingDeposits: Number(deposits.pending),
    pendingWithdrawals: Number(withdrawals.pending),
    depositsToday: Number(deposits.since),
    withdrawalsToday: Number(withdrawals.since),
  };
}

/** The user's five newest deposits and withdrawals, newest first (support's context panel). */
export async function recentActivity(deps: WalletDeps, userId: bigint) {
  const { db } = deps;
  const [deposits, withdrawals] = await Promise.all([
    repo.listDeposits(db, { userId, limit: 5, offset: 0 }),
    repo.listWithdrawals(db, { userId, limit: 5, offset: 0 }),
  ]);
  return [
    ...deposits.map((d) => ({
      kind: 'deposit' as const,
      coin: d.coin,
      amount: fromAtoms(d.amount),
      status: d.status,
      createdAt: fromMillis(d.created_at),
    })),
    ...withdrawals.map((w) => ({
      kind: 'withdrawal' as const,
      coin: w.coin,
      amount: fromAtoms(w.amount),
      status: w.status,
      createdAt: fromMillis(w.created_at),
    })),
  ]
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 8);
}

/** Adds each record's customer username (one look-up per distinct user on the page). */
async function withUsernames<T extends { user_id: string }>(
  deps: WalletDeps,
  records: T[],
): Promise<StaffQueueRow<T>[]> {
  const names = new Map<string, string>();
  for (const userId of new Set(records.map((r) => r.user_id))) {
    names.set(userId, (await deps.users.getAccount(BigInt(userId)))?.username ?? '');
  }
  return records.map((r) => ({ ...r, username: names.get(r.user_id) ?? '' }));
}

function parseStatus<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === '' || value === 'all') return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new AppError('PARAM_ERROR');
  return value as T;
}
