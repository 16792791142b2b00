// Where withdrawals go: the user's saved withdrawal addresses and bank cards.

import { AppError, type ResultKey } from '@bourse/shared';
import type { BankCard, WithdrawAddress } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import { isUniqueViolation } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { isValidAddress } from './address-format.ts';
import { requireCoin } from './coins.ts';
import { MAX_SAVED_PER_USER, type WalletDeps } from './deps.ts';
import * as repo from './repository.ts';

export function maskCard(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `**** ${digits.slice(-4)}`;
}

/** Whether the user has saved a withdrawal address (the profile's `is_address`). */
export function hasWithdrawAddress(deps: WalletDeps, userId: bigint): Promise<boolean> {
  return repo.hasAddress(deps.db, userId);
}

/** What `listAddresses` can answer besides the codes every route can. */
export const LIST_ADDRESSES_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

export async function listAddresses(
  deps: WalletDeps,
  userId: bigint,
  coin?: string,
): Promise<WithdrawAddress[]> {
  const rows = await repo.listAddresses(deps.db, userId, coin);
  return rows.map((row) => ({
    id: String(row.id),
    coin: row.coin,
    network: row.network,
    address: row.address,
    remark: row.remark,
    created_at: fromMillis(row.created_at),
  }));
}

/** What `addAddress` can answer besides the codes every route can. */
export const ADD_ADDRESS_ERRORS = [
  'COIN_UNAVAILABLE',
  'NETWORK_UNAVAILABLE',
  'ADDRESS_INVALID',
  'WITHDRAW_ADDRESS_EXISTS',
  'SAVED_LIMIT_REACHED',
] as const satisfies readonly ResultKey[];

/** Saves a withdrawal address after checking it against the network's format (checksums included). */
export async function addAddress(
  deps: WalletDeps,
  auth: AuthContext,
  input: { coin: string; network: string; address: string; remark: string },
): Promise<WithdrawAddress> {
  const { db, clock } = deps;
  const c = await requireCoin(deps, db, input.coin);
  const network = c.networks.find((n) => n.network === input.network);
  if (!network?.enabled || network.addressFormat === 'bank') throw new AppError('NETWORK_UNAVAILABLE');
  if (!isValidAddress(network.addressFormat, input.address)) throw new AppError('ADDRESS_INVALID');
  const id = await db
    .transaction()
    .execute(async (trx) => {
      const existing = await repo.listAddresses(trx, auth.userId, input.coin);
      if (existing.some((a) => a.network === input.network && a.address === input.address))
        throw new AppError('WITHDRAW_ADDRESS_EXISTS');
      if ((await repo.countAddresses(trx, auth.userId)) >= BigInt(MAX_SAVED_PER_USER))
        throw new AppError('SAVED_LIMIT_REACHED');
      return repo.insertAddress(trx, {
        user_id: auth.userId,
        coin: input.coin,
        network: input.network,
        address: input.address,
        remark: input.remark,
        created_at: toMillis(clock.now()),
      });
    })
    .catch((error: unknown) => {
      // why: two requests at once both pass the check above; the store's unique index stops the second.
      if (isUniqueViolation(error)) throw new AppError('WITHDRAW_ADDRESS_EXISTS');
      throw error;
    });
  const saved = (await listAddresses(deps, auth.userId)).find((a) => a.id === String(id));
  if (!saved) throw new AppError('INTERNAL_ERROR');
  return saved;
}

/** What `deleteAddress` can answer besides the codes every route can. */
export const DELETE_ADDRESS_ERRORS = ['WITHDRAW_ADDRESS_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** Deletes one of the user's addresses; someone else's answers WITHDRAW_ADDRESS_NOT_FOUND. */
export async function deleteAddress(deps: WalletDeps, auth: AuthContext, id: bigint): Promise<void> {
  if (!(await repo.deleteAddress(deps.db, auth.userId, id))) throw new AppError('WITHDRAW_ADDRESS_NOT_FOUND');
}

export async function listBankCards(deps: WalletDeps, userId: bigint): Promise<BankCard[]> {
  const rows = await repo.listBankCards(deps.db, userId);
  return rows.map((row) => ({
    id: String(row.id),
    number: maskCard(row.number),
    name: row.name,
    bank: row.bank,
    bank_code: row.bank_code,
    created_at: fromMillis(row.created_at),
  }));
}

/** What `addBankCard` can answer besides the codes every route can. */
export const ADD_BANK_CARD_ERRORS = [
  'BANK_CARD_INVALID',
  'SAVED_LIMIT_REACHED',
] as const satisfies readonly ResultKey[];

export async function addBankCard(
  deps: WalletDeps,
  auth: AuthContext,
  input: { number: string; name: string; bank: string; bankCode: string },
): Promise<BankCard> {
  const { db, clock } = deps;
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d{8,30}$/.test(number)) throw new AppError('BANK_CARD_INVALID');
  const id = await db.transaction().execute(async (trx) => {
    if ((await repo.countBankCards(trx, auth.userId)) >= BigInt(MAX_SAVED_PER_USER))
      throw new AppError('SAVED_LIMIT_REACHED');
    return repo.insertBankCard(trx, {
      user_id: auth.userId,
      number,
      name: input.name,
      bank: input.bank,
      bank_code: input.bankCode,
      created_at: toMillis(clock.now()),
    });
  });
  const saved = (await listBankCards(deps, auth.userId)).find((card) => card.id === String(id));
  if (!saved) throw new AppError('INTERNAL_ERROR');
  return saved;
}

/** What `deleteBankCard` can answer besides the codes every route can. */
export const DELETE_BANK_CARD_ERRORS = ['BANK_CARD_NOT_FOUND'] as const satisfies readonly ResultKey[];

export async function deleteBankCard(deps: WalletDeps, auth: AuthContext, id: bigint): Promise<void> {
  if (!(await repo.deleteBankCard(deps.db, auth.userId, id))) throw new AppError('BANK_CARD_NOT_FOUND');
}
