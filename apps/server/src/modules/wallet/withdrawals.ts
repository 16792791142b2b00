// Withdrawals: the customer's requests (amount and fee frozen until reviewed), and the staff review that
// pays them out or returns them, each through the ledger.

import { AppError, ATOMS_PER_UNIT, fromAtoms, type ResultKey } from '@bourse/shared';
import type { StaffWithdrawal, WithdrawalRecord, WithdrawPage } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import { isUniqueViolation } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { toMillis } from '../../platform/time.ts';
import { isValidAddress } from './address-format.ts';
import { isWithdrawNetwork, requireCoin, toWithdrawNetwork, usdtPrices } from './coins.ts';
import type { NetworkSettings } from './config.ts';
import type { WalletDeps } from './deps.ts';
import { listAddresses, listBankCards, maskCard } from './destinations.ts';
import { requireWithdrawal, toStaffWithdrawal, toWithdrawalRecord, type WithdrawalRow } from './records.ts';
import * as repo from './repository.ts';

// --- the customer's withdrawals -----------------------------------------------------------------

/** What `getWithdrawPage` can answer besides the codes every route can. */
export const GET_WITHDRAW_PAGE_ERRORS = [
  'COIN_UNAVAILABLE',
  'WITHDRAW_DISABLED',
] as const satisfies readonly ResultKey[];

export async function getWithdrawPage(
  deps: WalletDeps,
  auth: AuthContext,
  coin: string,
): Promise<WithdrawPage> {
  const { db, ledger, users, secondFactor } = deps;
  const c = await requireCoin(deps, db, coin);
  if (!c.settings.withdrawEnabled) throw new AppError('WITHDRAW_DISABLED');
  const [available, addresses, cards, info, blocked, hasTotp] = await Promise.all([
    ledger.balance(db, { userId: auth.userId }, coin, 'available'),
    listAddresses(deps, auth.userId, coin),
    listBankCards(deps, auth.userId),
    users.getUserInfo(auth.userId),
    users.isWithdrawBlocked(auth.userId),
    secondFactor.isTotpEnabled(auth.userId),
  ]);
  const networks = c.networks.filter(isWithdrawNetwork);
  return {
    coin,
    name: c.coin.name,
    decimals: c.settings.displayDecimals,
    available: fromAtoms(available),
    networks: networks.map(toWithdrawNetwork),
    addresses: addresses.filter((a) => networks.some((n) => n.network === a.network)),
    bank_cards: networks.some((n) => n.addressFormat === 'bank') ? cards : [],
    paypassword: info.paypassword,
    withdraw_blocked: blocked ? 1 : 0,
    totp: hasTotp ? 1 : 0,
  };
}

/** What `requestWithdrawal` can answer besides the codes every route can. */
export const REQUEST_WITHDRAWAL_ERRORS = [
  'PLATFORM_HALTED',
  'COIN_UNAVAILABLE',
  'WITHDRAW_DISABLED',
  'NETWORK_UNAVAILABLE',
  'WITHDRAW_ADDRESS_NOT_FOUND',
  'ADDRESS_INVALID',
  'BANK_CARD_NOT_FOUND',
  'AMOUNT_INVALID',
  'AMOUNT_BELOW_MIN',
  'AMOUNT_ABOVE_MAX',
  'WITHDRAW_BLOCKED',
  'WITHDRAW_PASSWORD_NOT_SET',
  'WITHDRAW_PASSWORD_WRONG',
  'REALNAME_REQUIRED',
  'TERMS_NOT_ACCEPTED',
  'TOTP_REQUIRED',
  'TOTP_WRONG',
  'BALANCE_INSUFFICIENT',
  'IDEMPOTENCY_KEY_REUSED',
  'TOO_MANY_REQUESTS',
  'ILLEGAL_OPERATION',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/**
 * Requests a withdrawal: to a saved address (on its network) or a saved bank card (the coin's
 * bank network). The amount must be within the network's minimum and maximum; withdrawals must
 * not be blocked (24 h after a login-password change); the withdrawal password must be set and
 * right. Amount plus fee move from available to frozen in the same transaction as the record.
 * The same idempotency key again answers the first request's record and moves nothing.
 */
export async function requestWithdrawal(
  deps: WalletDeps,
  auth: AuthContext,
  input: {
    coin: string;
    type: 'address' | 'bank';
    addressId?: bigint;
    bankCardId?: bigint;
    amount: bigint;
    payPassword: string;
    idempotencyKey: string;
    totpCode?: string;
  },
): Promise<WithdrawalRecord> {
  const { db, clock, ledger, users } = deps;
  await deps.platformHalt.requireRunning();
  const previous = await repo.findWithdrawalByKey(db, auth.userId, input.idempotencyKey);
  if (previous) return sameWithdrawal(previous, input);

  const c = await requireCoin(deps, db, input.coin);
  if (!c.settings.withdrawEnabled) throw new AppError('WITHDRAW_DISABLED');
  let network: NetworkSettings | undefined;
  let destination: string;
  if (input.type === 'address') {
    if (input.addressId === undefined) throw new AppError('PARAM_MISSING');
    const address = await repo.findAddress(db, auth.userId, input.addressId);
    if (!address || address.coin !== input.coin) throw new AppError('WITHDRAW_ADDRESS_NOT_FOUND');
    network = c.networks.find((n) => n.network === address.network);
    if (!network?.enabled || network.addressFormat === 'bank') throw new AppError('NETWORK_UNAVAILABLE');
    if (!isValidAddress(network.addressFormat, address.address)) throw new AppError('ADDRESS_INVALID');
    destination = address.address;
  } else {
    if (input.bankCardId === undefined) throw new AppError('PARAM_MISSING');
    const card = await repo.findBankCard(db, auth.userId, input.bankCardId);
    if (!card) throw new AppError('BANK_CARD_NOT_FOUND');
    network = c.networks.find((n) => n.addressFormat === 'bank' && n.enabled);
    if (!network) throw new AppError('NETWORK_UNAVAILABLE');
    destination = `${card.bank} (${card.bank_code}) ${maskCard(card.number)} ${card.name}`;
  }
  if (input.amount <= 0n) throw new AppError('AMOUNT_INVALID');
  if (input.amount < network.minWithdraw) throw new AppError('AMOUNT_BELOW_MIN');
  if (network.maxWithdraw > 0n && input.amount > network.maxWithdraw) throw new AppError('AMOUNT_ABOVE_MAX');
  if (await users.isWithdrawBlocked(auth.userId)) throw new AppError('WITHDRAW_BLOCKED');
  await deps.termsGate.requireAccepted(auth.userId);
  const price = (await usdtPrices(deps)).get(input.coin) ?? 0n;
  await deps.identityGate.requireForWithdrawal(auth.userId, (input.amount * price) / ATOMS_PER_UNIT);
  await users.verifyWithdrawPassword(auth, input.payPassword);
  await deps.secondFactor.verifySecondFactor(auth.userId, input.totpCode);

  const fee = network.withdrawFee;
  const held = input.amount + fee;
  try {
    const id = await db.transaction().execute(async (trx) => {
      const withdrawalId = await repo.insertWithdrawal(trx, {
        user_id: auth.userId,
        coin: input.coin,
        network: network.network,
        type: input.type,
        destination,
        amount: input.amount,
        fee,
        idempotency_key: input.idempotencyKey,
        created_at: toMillis(clock.now()),
      });
      await ledger.post(trx, {
        type: 'withdrawal.freeze',
        ref: `withdrawal:${withdrawalId}`,
        memo: `${input.coin} ${network.network}`,
        by: `user:${auth.userId}`,
        postings: [
          { owner: { userId: auth.userId }, asset: input.coin, kind: 'available', amount: -held },
          { owner: { userId: auth.userId }, asset: input.coin, kind: 'frozen', amount: held },
        ],
      });
      return withdrawalId;
    });
    return getWithdrawal(deps, auth.userId, id);
  } catch (error) {
    // why: the same key sent twice at once: the unique index lets one in; the other answers it.
    if (!isUniqueViolation(error)) throw error;
    const first = await repo.findWithdrawalByKey(db, auth.userId, input.idempotencyKey);
    if (!first) throw error;
    return sameWithdrawal(first, input);
  }
}

/** What `listUserWithdrawals` can answer besides the codes every route can. */
export const LIST_USER_WITHDRAWALS_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

export async function listUserWithdrawals(
  deps: WalletDeps,
  userId: bigint,
  query: { coin?: string } & HistoryPage,
): Promise<{ list: WithdrawalRecord[]; page: number; has_more: boolean }> {
  const rows = await repo.listWithdrawals(deps.db, { userId, coin: query.coin, ...historyWindow(query) });
  return historyAnswer(rows, query, toWithdrawalRecord);
}

/** What `getWithdrawal` can answer besides the codes every route can. */
export const GET_WITHDRAWAL_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** One of the user's withdrawals; someone else's answers RECORD_NOT_FOUND like a missing one. */
export async function getWithdrawal(deps: WalletDeps, userId: bigint, id: bigint): Promise<WithdrawalRecord> {
  const row = await repo.findWithdrawal(deps.db, id);
  if (!row || row.user_id !== userId) throw new AppError('RECORD_NOT_FOUND');
  return toWithdrawalRecord(row);
}

function sameWithdrawal(
  row: WithdrawalRow,
  input: { coin: string; type: string; amount: bigint },
): WithdrawalRecord {
  if (row.coin !== input.coin || row.type !== input.type || row.amount !== input.amount)
    throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return toWithdrawalRecord(row);
}

// --- staff review -------------------------------------------------------------------------------

/** What `approveWithdrawal` can answer besides the codes every route can. */
export const APPROVE_WITHDRAWAL_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/**
 * Passes a withdrawal under review: the frozen amount leaves to `external_withdrawals` and the
 * fee to `fees`, with the row and the audit record in one transaction. Acting twice answers
 * ILLEGAL_OPERATION.
 */
export async function approveWithdrawal(
  deps: WalletDeps,
  input: { withdrawalId: bigint; staff: StaffActor },
): Promise<StaffWithdrawal> {
  const { db, clock, ledger, audit, notices } = deps;
  const { withdrawalId, staff } = input;
  const result = await db.transaction().execute(async (trx) => {
    const before = await requireWithdrawal(trx, withdrawalId);
    const moved = await repo.settleWithdrawal(trx, withdrawalId, {
      status: 'passed',
      reason: '',
      reviewed_by: staff.actor,
      reviewed_at: toMillis(clock.now()),
    });
    if (!moved) throw new AppError('ILLEGAL_OPERATION');
    const user = { userId: before.user_id };
    await ledger.post(trx, {
      type: 'withdrawal.complete',
      ref: `withdrawal:${withdrawalId}`,
      memo: `${before.coin} ${before.network}`,
      by: staff.actor,
      postings: [
        { owner: user, asset: before.coin, kind: 'frozen', amount: -(before.amount + before.fee) },
        {
          owner: { system: 'external_withdrawals' },
          asset: before.coin,
          kind: 'available',
          amount: before.amount,
        },
        ...(before.fee > 0n
          ? [
              {
                owner: { system: 'fees' as const },
                asset: before.coin,
                kind: 'available' as const,
                amount: before.fee,
              },
            ]
          : []),
      ],
    });
    await audit.record(trx, {
      actor: staff.actor,
      action: 'withdrawal.approve',
      target: `withdrawal:${withdrawalId}`,
      before: { status: before.status, amount: fromAtoms(before.amount), fee: fromAtoms(before.fee) },
      after: { status: 'passed' },
      ip: staff.ip,
    });
    if (notices) {
      await notices.notify(trx, before.user_id, 'WITHDRAWAL_PASSED', {
        coin: before.coin,
        amount: fromAtoms(before.amount),
      });
      await repo.markWithdrawalNotified(trx, withdrawalId, toMillis(clock.now()));
    }
    return {
      withdrawal: toStaffWithdrawal(await requireWithdrawal(trx, withdrawalId)),
      userId: before.user_id,
    };
  });
  notices?.changed(result.userId);
  return result.withdrawal;
}

/** What `rejectWithdrawal` can answer besides the codes every route can. */
export const REJECT_WITHDRAWAL_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/** Rejects a withdrawal under review with a reason: amount and fee return to available, audited. */
export async function rejectWithdrawal(
  deps: WalletDeps,
  input: {
    withdrawalId: bigint;
    reason: string;
    staff: StaffActor;
  },
): Promise<StaffWithdrawal> {
  const { db, clock, ledger, audit, notices } = deps;
  const { withdrawalId, staff } = input;
  const reason = input.reason.trim().slice(0, 500);
  if (!reason) throw new AppError('PARAM_MISSING');
  const result = await db.transaction().execute(async (trx) => {
    const before = await requireWithdrawal(trx, withdrawalId);
    const moved = await repo.settleWithdrawal(trx, withdrawalId, {
      status: 'rejected',
      reason,
      reviewed_by: staff.actor,
      reviewed_at: toMillis(clock.now()),
    });
    if (!moved) throw new AppError('ILLEGAL_OPERATION');
    const held = before.amount + before.fee;
    const user = { userId: before.user_id };
    await ledger.post(trx, {
      type: 'withdrawal.reject',
      ref: `withdrawal:${withdrawalId}`,
      memo: reason,
      by: staff.actor,
      postings: [
        { owner: user, asset: before.coin, kind: 'frozen', amount: -held },
        { owner: user, asset: before.coin, kind: 'available', amount: held },
      ],
    });
    await audit.record(trx, {
      actor: staff.actor,
      action: 'withdrawal.reject',
      target: `withdrawal:${withdrawalId}`,
      before: { status: before.status, amount: fromAtoms(before.amount), fee: fromAtoms(before.fee) },
      after: { status: 'rejected' },
      reason,
      ip: staff.ip,
    });
    if (notices) {
      await notices.notify(trx, before.user_id, 'WITHDRAWAL_REJECTED', {
        coin: before.coin,
        amount: fromAtoms(before.amount),
        reason,
      });
      await repo.markWithdrawalNotified(trx, withdrawalId, toMillis(clock.now()));
    }
    return {
      withdrawal: toStaffWithdrawal(await requireWithdrawal(trx, withdrawalId)),
      userId: before.user_id,
    };
  });
  notices?.changed(result.userId);
  return result.withdrawal;
}
