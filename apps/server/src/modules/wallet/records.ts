// Deposit and withdrawal rows as the customer and the back office see them.

import { AppError, fromAtoms } from '@bourse/shared';
import type { DepositRecord, StaffDeposit, StaffWithdrawal, WithdrawalRecord } from '@bourse/shared/api';
import type { Db } from '../../platform/db.ts';
import { fromMillis } from '../../platform/time.ts';
import { toUploadUrl } from '../../platform/uploads.ts';
import * as repo from './repository.ts';

export type DepositRow = NonNullable<Awaited<ReturnType<typeof repo.findDeposit>>>;

export type WithdrawalRow = NonNullable<Awaited<ReturnType<typeof repo.findWithdrawal>>>;

const ms = (value: bigint | null) => (value === null ? null : fromMillis(value));

export function toDepositRecord(row: DepositRow): DepositRecord {
  return {
    id: String(row.id),
    coin: row.coin,
    network: row.network,
    address: row.address,
    amount: fromAtoms(row.amount),
    credited_amount: fromAtoms(row.credited_amount),
    hash: row.tx_hash,
    voucher: toUploadUrl(row.voucher),
    status: row.status,
    reason: row.reason,
    created_at: fromMillis(row.created_at),
    reviewed_at: ms(row.reviewed_at),
  };
}

export function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    id: String(row.id),
    coin: row.coin,
    network: row.network,
    type: row.type,
    destination: row.destination,
    amount: fromAtoms(row.amount),
    fee: fromAtoms(row.fee),
    received: fromAtoms(row.status === 'passed' ? row.amount : 0n),
    status: row.status,
    reason: row.reason,
    created_at: fromMillis(row.created_at),
    reviewed_at: ms(row.reviewed_at),
    notified: row.notified_at !== null,
  };
}

export function toStaffDeposit(row: DepositRow): StaffDeposit {
  return { ...toDepositRecord(row), user_id: String(row.user_id), reviewed_by: row.reviewed_by };
}

export function toStaffWithdrawal(row: WithdrawalRow): StaffWithdrawal {
  return { ...toWithdrawalRecord(row), user_id: String(row.user_id), reviewed_by: row.reviewed_by };
}

export async function requireDeposit(db: Db, id: bigint): Promise<DepositRow> {
  const row = await repo.findDeposit(db, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return row;
}

export async function requireWithdrawal(db: Db, id: bigint): Promise<WithdrawalRow> {
  const row = await repo.findWithdrawal(db, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return row;
}
