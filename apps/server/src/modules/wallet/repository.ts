import { sql } from 'kysely';
import type { Db, UserRange } from '../../platform/db.ts';
import type { DepositStatus, Millis, WithdrawalStatus } from '../../platform/schema.ts';

/**
 * Queries of the wallet's tables: `wallet_coins`, `wallet_networks`, `deposits`, `withdrawals`,
 * `conversions`, `bank_cards`, `withdraw_addresses`. Plain functions of a db or transaction.
 */

// --- configuration ----------------------------------------------------------------------------

export function listWalletCoins(db: Db) {
  return db.selectFrom('wallet_coins').selectAll().execute();
}

export function findWalletCoin(db: Db, coin: string) {
  return db.selectFrom('wallet_coins').selectAll().where('coin', '=', coin).executeTakeFirst();
}

/** Inserts coin settings that do not exist yet; existing rows keep their values. */
export async function insertMissingWalletCoins(
  db: Db,
  rows: {
    coin: string;
    icon: string;
    display_decimals: bigint;
    convertible: bigint;
    deposit_enabled: bigint;
    withdraw_enabled: bigint;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('wallet_coins')
    .values(rows)
    .onConflict((oc) => oc.column('coin').doNothing())
    .execute();
}

export async function upsertWalletCoin(
  db: Db,
  row: {
    coin: string;
    icon: string;
    display_decimals: bigint;
    convertible: bigint;
    deposit_enabled: bigint;
    withdraw_enabled: bigint;
  },
): Promise<void> {
  const { coin, ...values } = row;
  await db
    .insertInto('wallet_coins')
    .values(row)
    .onConflict((oc) => oc.column('coin').doUpdateSet(values))
    .execute();
}

export function listNetworks(db: Db, coin?: string) {
  let query = db.selectFrom('wallet_networks').selectAll();
  if (coin) query = query.where('coin', '=', coin);
  return query.orderBy('coin').orderBy('sort').orderBy('id').execute();
}

export function findNetwork(db: Db, coin: string, network: string) {
  return db
    .selectFrom('wallet_networks')
    .selectAll()
    .where('coin', '=', coin)
    .where('network', '=', network)
    .executeTakeFirst();
}

export type NetworkValues = {
  coin: string;
  network: string;
  address_format: string;
  deposit_address: string;
  min_deposit: bigint;
  min_withdraw: bigint;
  max_withdraw: bigint;
  withdraw_fee: bigint;
  enabled: bigint;
  sort: bigint;
};

/** Inserts networks that do not exist yet (by coin and name); existing rows keep their values. */
export async function insertMissingNetworks(db: Db, rows: NetworkValues[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('wallet_networks')
    .values(rows)
    .onConflict((oc) => oc.columns(['coin', 'network']).doNothing())
    .execute();
}

export async function upsertNetwork(db: Db, row: NetworkValues): Promise<void> {
  const { coin, network, ...values } = row;
  await db
    .insertInto('wallet_networks')
    .values(row)
    .onConflict((oc) => oc.columns(['coin', 'network']).doUpdateSet(values))
    .execute();
}

// --- deposits ---------------------------------------------------------------------------------

export async function insertDeposit(
  db: Db,
  row: {
    user_id: bigint;
    coin: string;
    network: string;
    address: string;
    amount: bigint;
    tx_hash: string;
    voucher: string;
    created_at: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('deposits')
    .values({ ...row, status: 'confirming', reviewed_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export function findDeposit(db: Db, id: bigint) {
  return db.selectFrom('deposits').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deposits newest first: `limit` of them after `offset`, below the id `beforeId` when given. */
export function listDeposits(
  db: Db,
  filter: {
    userId?: bigint;
    coin?: string;
    status?: DepositStatus;
    limit: number;
    offset: number;
    beforeId?: bigint;
  },
) {
  let query = db.selectFrom('deposits').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  if (filter.coin) query = query.where('coin', '=', filter.coin);
  if (filter.status) query = query.where('status', '=', filter.status);
  return query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/**
 * Moves a deposit out of `confirming`; answers false when it was not confirming any more (another
 * reviewer acted first), so the caller's transaction rolls back.
 */
export async function settleDeposit(
  db: Db,
  id: bigint,
  values: {
    status: DepositStatus;
    credited_amount: bigint;
    reason: string;
    reviewed_by: string;
    reviewed_at: Millis;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('deposits')
    .set(values)
    .where('id', '=', id)
    .where('status', '=', 'confirming')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// --- withdrawals ------------------------------------------------------------------------------

export async function insertWithdrawal(
  db: Db,
  row: {
    user_id: bigint;
    coin: string;
    network: string;
    type: 'address' | 'bank';
    destination: string;
    amount: bigint;
    fee: bigint;
    idempotency_key: string;
    created_at: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('withdrawals')
    .values({ ...row, status: 'review', reviewed_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export function findWithdrawal(db: Db, id: bigint) {
  return db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findWithdrawalByKey(db: Db, userId: bigint, key: string) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Withdrawals newest first: `limit` of them after `offset`, below the id `beforeId` when given. */
export function listWithdrawals(
  db: Db,
  filter: {
    userId?: bigint;
    coin?: string;
    status?: WithdrawalStatus;
    limit: number;
    offset: number;
    beforeId?: bigint;
  },
) {
  let query = db.selectFrom('withdrawals').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  if (filter.coin) query = query.where('coin', '=', filter.coin);
  if (filter.status) query = query.where('status', '=', filter.status);
  return query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/** Moves a withdrawal out of `review`; false when it was not under review any more. */
export async function settleWithdrawal(
  db: Db,
  id: bigint,
  values: { status: WithdrawalStatus; reason: string; reviewed_by: string; reviewed_at: Millis },
): Promise<boolean> {
  const result = await db
    .updateTable('withdrawals')
    .set(values)
    .where('id', '=', id)
    .where('status', '=', 'review')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Records that the customer's notice of a reviewed withdrawal's outcome was written. */
export async function markWithdrawalNotified(db: Db, id: bigint, at: Millis): Promise<void> {
  await db.updateTable('withdrawals').set({ notified_at: at }).where('id', '=', id).execute();
}

/** Amount plus fee of every withdrawal under review, per user and coin: what `frozen` must hold. */
export async function sumPendingWithdrawals(db: Db, users: UserRange) {
  return db
    .selectFrom('withdrawals')
    .select(['user_id', 'coin', sql<bigint>`cast(sum(amount + fee) as bigint)`.as('total')])
    .where('status', '=', 'review')
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .groupBy(['user_id', 'coin'])
    .execute();
}

export async function countByStatusSince(
  db: Db,
  table: 'deposits' | 'withdrawals',
  since: Millis,
): Promise<{ pending: bigint; since: bigint }> {
  const pendingStatus = table === 'deposits' ? 'confirming' : 'review';
  // why: two counts, each a seek (the status index, the `created_at` index), instead of one pass
  // over every deposit or withdrawal ever made.
  const pending = await db
    .selectFrom(table)
    .select(sql<bigint>`cast(count(*) as bigint)`.as('n'))
    .where('status', '=', pendingStatus)
    .executeTakeFirstOrThrow();
  const recent = await db
    .selectFrom(table)
    .select(sql<bigint>`cast(count(*) as bigint)`.as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const row = { pending: pending.n, since: recent.n };
  return { pending: BigInt(row.pending), since: BigInt(row.since) };
}

// --- conversions ------------------------------------------------------------------------------

export async function insertConversion(
  db: Db,
  row: {
    user_id: bigint;
    from_coin: string;
    to_coin: string;
    amount: bigint;
    rate: bigint;
    fee: bigint;
    received: bigint;
    idempotency_key: string;
    created_at: Millis;
  },
): Promise<bigint> {
  const inserted = await db.insertInto('conversions').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export function findConversionByKey(db: Db, userId: bigint, key: string) {
  return db
    .selectFrom('conversions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

// --- withdrawal addresses and bank cards ------------------------------------------------------

export function listAddresses(db: Db, userId: bigint, coin?: string) {
  let query = db.selectFrom('withdraw_addresses').selectAll().where('user_id', '=', userId);
  if (coin) query = query.where('coin', '=', coin);
  return query.orderBy('id', 'desc').execute();
}

export function findAddress(db: Db, userId: bigint, id: bigint) {
  return db
    .selectFrom('withdraw_addresses')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function countAddresses(db: Db, userId: bigint): Promise<bigint> {
  const row = await db
    .selectFrom('withdraw_addresses')
    .select(sql<bigint>`cast(count(*) as bigint)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return BigInt(row.n);
}

export async function hasAddress(db: Db, userId: bigint): Promise<boolean> {
  const row = await db
    .selectFrom('withdraw_addresses')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertAddress(
  db: Db,
  row: {
    user_id: bigint;
    coin: string;
    network: string;
    address: string;
    remark: string;
    created_at: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('withdraw_addresses')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function deleteAddress(db: Db, userId: bigint, id: bigint): Promise<boolean> {
  const result = await db
    .deleteFrom('withdraw_addresses')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}

export function listBankCards(db: Db, userId: bigint) {
  return db
    .selectFrom('bank_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
}

export function findBankCard(db: Db, userId: bigint, id: bigint) {
  return db
    .selectFrom('bank_cards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function countBankCards(db: Db, userId: bigint): Promise<bigint> {
  const row = await db
    .selectFrom('bank_cards')
    .select(sql<bigint>`cast(count(*) as bigint)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return BigInt(row.n);
}

export async function insertBankCard(
  db: Db,
  row: { user_id: bigint; number: string; name: string; bank: string; bank_code: string; created_at: Millis },
): Promise<bigint> {
  const inserted = await db.insertInto('bank_cards').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function deleteBankCard(db: Db, userId: bigint, id: bigint): Promise<boolean> {
  const result = await db
    .deleteFrom('bank_cards')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}
