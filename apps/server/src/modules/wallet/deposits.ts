// Deposits: the customer's requests with a voucher, and the staff review that credits or rejects them.

import { AppError, fromAtoms, MAX_AMOUNT_ATOMS, type ResultKey } from '@bourse/shared';
import type { DepositPage, DepositRecord, StaffDeposit } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { toMillis } from '../../platform/time.ts';
import type { UploadedFile } from '../../platform/uploads.ts';
import { isDepositNetwork, requireCoin, toDepositNetwork } from './coins.ts';
import { MAX_PENDING_DEPOSITS, type WalletDeps } from './deps.ts';
import { requireDeposit, toDepositRecord, toStaffDeposit } from './records.ts';
import * as repo from './repository.ts';

// --- the customer's deposits --------------------------------------------------------------------

/** What `getDepositPage` can answer besides the codes every route can. */
export const GET_DEPOSIT_PAGE_ERRORS = [
  'COIN_UNAVAILABLE',
  'DEPOSIT_DISABLED',
  'NETWORK_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

export async function getDepositPage(deps: WalletDeps, coin: string, network?: string): Promise<DepositPage> {
  const c = await requireCoin(deps, deps.db, coin);
  if (!c.settings.depositEnabled) throw new AppError('DEPOSIT_DISABLED');
  const networks = c.networks.filter(isDepositNetwork).filter((n) => !network || n.network === network);
  if (networks.length === 0) throw new AppError('NETWORK_UNAVAILABLE');
  return {
    coin,
    name: c.coin.name,
    decimals: c.settings.displayDecimals,
    networks: networks.map(toDepositNetwork),
  };
}

/** What `submitDeposit` can answer besides the codes every route can. */
export const SUBMIT_DEPOSIT_ERRORS = [
  'COIN_UNAVAILABLE',
  'DEPOSIT_DISABLED',
  'NETWORK_UNAVAILABLE',
  'AMOUNT_INVALID',
  'AMOUNT_BELOW_MIN',
  'TX_HASH_INVALID',
  'VOUCHER_REQUIRED',
  'UPLOAD_NOT_IMAGE',
  'UPLOAD_TOO_LARGE',
  'IMAGE_TOO_LARGE',
  'UPLOAD_BUSY',
  'UPLOAD_FAILED',
  'TOO_MANY_REQUESTS',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/**
 * Records a deposit for review: the network must take deposits, the amount be at least its
 * minimum, and the transfer voucher an image (checked, re-encoded and stored under a random name).
 */
export async function submitDeposit(
  deps: WalletDeps,
  auth: AuthContext,
  input: { coin: string; network: string; amount: bigint; hash: string; voucher: UploadedFile | undefined },
): Promise<DepositRecord> {
  const { db, clock, uploads } = deps;
  const c = await requireCoin(deps, db, input.coin);
  if (!c.settings.depositEnabled) throw new AppError('DEPOSIT_DISABLED');
  const network = c.networks.find((n) => n.network === input.network);
  if (!network || !isDepositNetwork(network)) throw new AppError('NETWORK_UNAVAILABLE');
  // why: every check the row can fail comes before the voucher is stored, so a refused deposit
  // leaves no image behind; the route's schema already bounds amounts.
  if (input.amount <= 0n || input.amount > MAX_AMOUNT_ATOMS) throw new AppError('AMOUNT_INVALID');
  if (input.amount < network.minDeposit) throw new AppError('AMOUNT_BELOW_MIN');
  if (!input.voucher || input.voucher.data.length === 0) throw new AppError('VOUCHER_REQUIRED');
  const pending = await repo.listDeposits(db, {
    userId: auth.userId,
    status: 'confirming',
    limit: MAX_PENDING_DEPOSITS,
    offset: 0,
  });
  if (pending.length >= MAX_PENDING_DEPOSITS) throw new AppError('TOO_MANY_REQUESTS');
  const stored = await uploads.storeImage(input.voucher);
  let id: bigint;
  try {
    id = await repo.insertDeposit(db, {
      user_id: auth.userId,
      coin: input.coin,
      network: network.network,
      address: network.depositAddress,
      amount: input.amount,
      tx_hash: input.hash,
      voucher: stored.name,
      created_at: toMillis(clock.now()),
    });
  } catch (error) {
    // why: a voucher no deposit names would stay for ever; the insert's own fault is what counts.
    await uploads.removeImage(stored.name).catch(() => {});
    throw error;
  }
  return getDeposit(deps, auth.userId, id);
}

/** What `listUserDeposits` can answer besides the codes every route can. */
export const LIST_USER_DEPOSITS_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

export async function listUserDeposits(
  deps: WalletDeps,
  userId: bigint,
  query: { coin?: string } & HistoryPage,
): Promise<{ list: DepositRecord[]; page: number; has_more: boolean }> {
  const rows = await repo.listDeposits(deps.db, { userId, coin: query.coin, ...historyWindow(query) });
  return historyAnswer(rows, query, toDepositRecord);
}

/** What `getDeposit` can answer besides the codes every route can. */
export const GET_DEPOSIT_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** One of the user's deposits; someone else's answers RECORD_NOT_FOUND like a missing one. */
export async function getDeposit(deps: WalletDeps, userId: bigint, id: bigint): Promise<DepositRecord> {
  const row = await repo.findDeposit(deps.db, id);
  if (!row || row.user_id !== userId) throw new AppError('RECORD_NOT_FOUND');
  return toDepositRecord(row);
}

// --- staff review -------------------------------------------------------------------------------

/** What `confirmDeposit` can answer besides the codes every route can. */
export const CONFIRM_DEPOSIT_ERRORS = [
  'AMOUNT_INVALID',
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/**
 * Credits a confirming deposit with the amount that really arrived: one ledger entry from
 * `external_deposits`, the row, and the audit record in one transaction. A deposit no longer
 * confirming (acted on already) answers ILLEGAL_OPERATION and changes nothing.
 */
export async function confirmDeposit(
  deps: WalletDeps,
  input: {
    depositId: bigint;
    creditedAmount: bigint;
    staff: StaffActor;
  },
): Promise<StaffDeposit> {
  const { db, clock, ledger, audit, notices } = deps;
  const { depositId, creditedAmount, staff } = input;
  if (creditedAmount <= 0n) throw new AppError('AMOUNT_INVALID');
  const result = await db.transaction().execute(async (trx) => {
    const before = await requireDeposit(trx, depositId);
    const now = toMillis(clock.now());
    const moved = await repo.settleDeposit(trx, depositId, {
      status: 'credited',
      credited_amount: creditedAmount,
      reason: '',
      reviewed_by: staff.actor,
      reviewed_at: now,
    });
    if (!moved) throw new AppError('ILLEGAL_OPERATION');
    await ledger.post(trx, {
      type: 'deposit.credit',
      ref: `deposit:${depositId}`,
      memo: `${before.coin} ${before.network}`,
      by: staff.actor,
      postings: [
        {
          owner: { system: 'external_deposits' },
          asset: before.coin,
          kind: 'available',
          amount: -creditedAmount,
        },
        {
          owner: { userId: before.user_id },
          asset: before.coin,
          kind: 'available',
          amount: creditedAmount,
        },
      ],
    });
    const after = await requireDeposit(trx, depositId);
    await audit.record(trx, {
      actor: staff.actor,
      action: 'deposit.confirm',
      target: `deposit:${depositId}`,
      before: { status: before.status, amount: fromAtoms(before.amount) },
      after: { status: after.status, credited_amount: fromAtoms(after.credited_amount) },
      ip: staff.ip,
    });
    await notices?.notify(trx, before.user_id, 'DEPOSIT_CREDITED', {
      coin: before.coin,
      amount: fromAtoms(creditedAmount),
    });
    return { deposit: toStaffDeposit(after), userId: before.user_id };
  });
  notices?.changed(result.userId);
  return result.deposit;
}

/** What `rejectDeposit` can answer besides the codes every route can. */
export const REJECT_DEPOSIT_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];

/** Rejects a confirming deposit with a reason (nothing is credited), audited. */
export async function rejectDeposit(
  deps: WalletDeps,
  input: {
    depositId: bigint;
    reason: string;
    staff: StaffActor;
  },
): Promise<StaffDeposit> {
  const { db, clock, audit, notices } = deps;
  const reason = input.reason.trim().slice(0, 500);
  if (!reason) throw new AppError('PARAM_MISSING');
  const result = await db.transaction().execute(async (trx) => {
    const before = await requireDeposit(trx, input.depositId);
    const moved = await repo.settleDeposit(trx, input.depositId, {
      status: 'rejected',
      credited_amount: 0n,
      reason,
      reviewed_by: input.staff.actor,
      reviewed_at: toMillis(clock.now()),
    });
    if (!moved) throw new AppError('ILLEGAL_OPERATION');
    await audit.record(trx, {
      actor: input.staff.actor,
      action: 'deposit.reject',
      target: `deposit:${input.depositId}`,
      before: { status: before.status, amount: fromAtoms(before.amount) },
      after: { status: 'rejected' },
      reason,
      ip: input.staff.ip,
    });
    await notices?.notify(trx, before.user_id, 'DEPOSIT_REJECTED', {
      coin: before.coin,
      amount: fromAtoms(before.amount),
      reason,
    });
    return {
      deposit: toStaffDeposit(await requireDeposit(trx, input.depositId)),
      userId: before.user_id,
    };
  });
  notices?.changed(result.userId);
  return result.deposit;
}
