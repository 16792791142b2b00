import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of the ledger's tables (this module alone writes them): plain functions of a db or transaction. */

/** The id of an account, created with a zero balance when it does not exist yet. */
export async function ensureAccount(
  db: Db,
  account: { owner: string; userId: bigint | null; asset: string; kind: string },
): Promise<bigint> {
  await db
    .insertInto('ledger_accounts')
    .values({ owner: account.owner, user_id: account.userId, asset: account.asset, kind: account.kind })
    .onConflict((oc) => oc.columns(['owner', 'asset', 'kind']).doNothing())
    .execute();
  const row = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('owner', '=', account.owner)
    .where('asset', '=', account.asset)
    .where('kind', '=', account.kind)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Adds `amount` to an account's balance in one statement and returns the new balance. With
 * `mayGoNegative` false the update only happens when the result stays at or above zero; the
 * answer is then undefined and nothing changed. One statement, so concurrent postings to the same
 * account serialise on the row and can never both pass the check.
 */
export async function addToBalance(
  db: Db,
  accountId: bigint,
  amount: bigint,
  mayGoNegative: boolean,
): Promise<bigint | undefined> {
  let query = db
    .updateTable('ledger_accounts')
    .set({ balance: sql`balance + ${amount}` })
    .where('id', '=', accountId);
  if (!mayGoNegative) query = query.where(sql<boolean>`balance + ${amount} >= 0`);
  const row = await query.returning('balance').executeTakeFirst();
  return row?.balance;
}

export async function insertEntry(
  db: Db,
  entry: { type: string; ref: string; memo: string; createdBy: string; now: Millis },
): Promise<bigint> {
  const row = await db
    .insertInto('journal_entries')
    .values({
      type: entry.type,
      ref: entry.ref,
      memo: entry.memo,
      created_by: entry.createdBy,
      created_at: entry.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertPosting(
  db: Db,
  posting: { entryId: bigint; accountId: bigint; amount: bigint; balanceAfter: bigint },
): Promise<bigint> {
  const row = await db
    .insertInto('postings')
    .values({
      entry_id: posting.entryId,
      account_id: posting.accountId,
      amount: posting.amount,
      balance_after: posting.balanceAfter,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findBalance(db: Db, owner: string, asset: string, kind: string): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('owner', '=', owner)
    .where('asset', '=', asset)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

export function listUserAccounts(db: Db, userId: bigint) {
  return db
    .selectFrom('ledger_accounts')
    .select(['asset', 'kind', 'balance'])
    .where('user_id', '=', userId)
    .where('balance', '!=', 0n)
    .orderBy('asset')
    .orderBy('kind')
    .execute();
}

function statementQuery(db: Db, userId: bigint) {
  return db
    .selectFrom('postings')
    .innerJoin('ledger_accounts', 'ledger_accounts.id', 'postings.account_id')
    .innerJoin('journal_entries', 'journal_entries.id', 'postings.entry_id')
    .select([
      'postings.id as id',
      'postings.entry_id as entryId',
      'journal_entries.type as type',
      'journal_entries.ref as ref',
      'journal_entries.memo as memo',
      'ledger_accounts.asset as asset',
      'ledger_accounts.kind as kind',
      'postings.amount as amount',
      'postings.balance_after as balanceAfter',
      'journal_entries.created_at as createdAt',
    ])
    .where('ledger_accounts.user_id', '=', userId);
}

/** The user's postings, newest first. */
export function listStatement(
  db: Db,
  userId: bigint,
  options: { asset?: string; limit: number; beforeId?: bigint },
) {
  let query = statementQuery(db, userId);
  if (options.asset) query = query.where('ledger_accounts.asset', '=', options.asset);
  if (options.beforeId !== undefined) query = query.where('postings.id', '<', options.beforeId);
  return query.orderBy('postings.id', 'desc').limit(options.limit).execute();
}

export function findStatementLine(db: Db, userId: bigint, postingId: bigint) {
  return statementQuery(db, userId).where('postings.id', '=', postingId).executeTakeFirst();
}

/** Per asset, the sum of every account's balance (zero in a sound ledger). */
export function sumBalancesByAsset(db: Db) {
  return db
    .selectFrom('ledger_accounts')
    .select(['asset', sql<bigint>`cast(coalesce(sum(balance), 0) as bigint)`.as('total')])
    .groupBy('asset')
    .execute();
}

/** Accounts whose stored balance differs from the sum of their postings. */
export function findBalancesNotMatchingPostings(db: Db) {
  return db
    .selectFrom('ledger_accounts')
    .leftJoin(
      db
        .selectFrom('postings')
        .select(['account_id', sql<bigint>`cast(sum(amount) as bigint)`.as('total')])
        .groupBy('account_id')
        .as('folded'),
      'folded.account_id',
      'ledger_accounts.id',
    )
    .select([
      'ledger_accounts.id',
      'ledger_accounts.owner',
      'ledger_accounts.asset',
      'ledger_accounts.kind',
      'ledger_accounts.balance',
      sql<bigint>`cast(coalesce(folded.total, 0) as bigint)`.as('folded'),
    ])
    .where(sql<boolean>`ledger_accounts.balance <> coalesce(folded.total, 0)`)
    .execute();
}

/** Entries whose postings do not sum to zero per asset. */
export function findUnbalancedEntries(db: Db) {
  return db
    .selectFrom('postings')
    .innerJoin('ledger_accounts', 'ledger_accounts.id', 'postings.account_id')
    .select([
      'postings.entry_id as entryId',
      'ledger_accounts.asset as asset',
      sql<bigint>`cast(sum(postings.amount) as bigint)`.as('total'),
    ])
    .groupBy(['postings.entry_id', 'ledger_accounts.asset'])
    .having(sql<boolean>`sum(postings.amount) <> 0`)
    .execute();
}

export function findNegativeUserBalances(db: Db) {
  return db
    .selectFrom('ledger_accounts')
    .select(['owner', 'asset', 'kind', 'balance'])
    .where('user_id', 'is not', null)
    .where('balance', '<', 0n)
    .execute();
}

/** Every user's balance of one kind (e.g. `frozen`) per asset. */
export function listUserBalancesOfKind(db: Db, kind: string) {
  return db
    .selectFrom('ledger_accounts')
    .select(['user_id', 'asset', 'balance'])
    .where('user_id', 'is not', null)
    .where('kind', '=', kind)
    .execute();
}
