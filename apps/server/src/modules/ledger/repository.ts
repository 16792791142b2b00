import { sql } from 'kysely';
import { type Db, executeSql, placeholderRows, repeated, type UserRange } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of the ledger's tables (this module alone writes them): plain functions of a db or transaction. */

export interface AccountKey {
  owner: string;
  userId: bigint | null;
  asset: string;
  kind: string;
}

export const accountKeyOf = (account: { owner: string; asset: string; kind: string }): string =>
  `${account.owner}|${account.asset}|${account.kind}`;

/**
 * Accounts by key (`owner|asset|kind`), in one read: their ids and balances, without locking
 * them ({@link lockAccounts} does). Accounts that do not exist are absent from the answer.
 */
export async function findAccounts(
  db: Db,
  accounts: readonly AccountKey[],
): Promise<Map<string, { id: bigint; balance: bigint }>> {
  const found = new Map<string, { id: bigint; balance: bigint }>();
  const wanted = new Set(accounts.map(accountKeyOf));
  const owners = [...new Set(accounts.map((a) => a.owner))];
  // why: narrowed by asset and kind too, so a user's other coins are not read and thrown away.
  const assets = [...new Set(accounts.map((a) => a.asset))];
  const kinds = [...new Set(accounts.map((a) => a.kind))];
  // why: chunks keep every statement under SQLite's bound-parameter limit. Hand-written SQL
  // (`executeSql`): every spot batch reads its accounts twice.
  for (let i = 0; i < owners.length; i += 400) {
    const chunk = owners.slice(i, i + 400);
    const { rows } = await executeSql<{
      id: bigint;
      owner: string;
      asset: string;
      kind: string;
      balance: bigint;
    }>(
      db,
      `select id, owner, asset, kind, balance from ledger_accounts
        where owner in (${repeated('?', chunk.length)}) and asset in (${repeated('?', assets.length)})
          and kind in (${repeated('?', kinds.length)})
        order by id`,
      [...chunk, ...assets, ...kinds],
    );
    for (const row of rows) {
      const key = accountKeyOf(row);
      if (wanted.has(key)) found.set(key, { id: row.id, balance: row.balance });
    }
  }
  return found;
}

/**
 * Locks the rows of `ids` for the rest of the transaction (PostgreSQL `FOR UPDATE`), in the order
 * given (the caller's lock order: each statement locks its rows in `order by`, and the chunks follow
 * one another), and answers their balances by id.
 */
export async function lockAccounts(db: Db, ids: readonly bigint[]): Promise<Map<bigint, bigint>> {
  const balances = new Map<bigint, bigint>();
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    const { rows } = await executeSql<{ id: bigint; balance: bigint }>(
      db,
      `select id, balance from ledger_accounts where id in (${repeated('?', chunk.length)})
        order by user_id is not null, id for update`,
      chunk,
    );
    for (const row of rows) balances.set(row.id, row.balance);
  }
  return balances;
}

/**
 * The ids of `accounts` by key, creating those that do not exist yet with a zero balance: one
 * read when they all exist (the usual case), one insert and one read more when some do not.
 */
export async function ensureAccounts(
  db: Db,
  accounts: readonly AccountKey[],
  /** Told the keys of the accounts this call created (they are the transaction's alone until it commits). */
  created?: Set<string>,
): Promise<Map<string, bigint>> {
  const found = await findAccounts(db, accounts);
  const ids = new Map([...found].map(([key, account]) => [key, account.id]));
  const missing = accounts.filter((a) => !ids.has(accountKeyOf(a)));
  if (missing.length === 0) return ids;
  for (const account of missing) created?.add(accountKeyOf(account));
  const unique = [...new Map(missing.map((a) => [accountKeyOf(a), a])).values()];
  for (let i = 0; i < unique.length; i += 200) {
    await db
      .insertInto('ledger_accounts')
      .values(
        unique
          .slice(i, i + 200)
          .map((a) => ({ owner: a.owner, user_id: a.userId, asset: a.asset, kind: a.kind })),
      )
      .onConflict((oc) => oc.columns(['owner', 'asset', 'kind']).doNothing())
      .execute();
  }
  for (const [key, account] of await findAccounts(db, unique)) ids.set(key, account.id);
  return ids;
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

/**
 * Adds to several balances in one statement per chunk and answers each account's new balance;
 * a user account (one with a `user_id`) only when it stays at or above zero. Accounts missing
 * from the answer did not change. Only where the store has one writer (SQLite): on PostgreSQL
 * the ledger updates rows one at a time, in its lock order.
 */
export async function addToBalances(
  db: Db,
  changes: readonly { accountId: bigint; amount: bigint }[],
): Promise<Map<bigint, bigint>> {
  const after = new Map<bigint, bigint>();
  // why: hand-written SQL (`executeSql`): every spot batch moves its balances here.
  for (let i = 0; i < changes.length; i += 400) {
    const chunk = changes.slice(i, i + 400);
    const result = await executeSql<{ id: bigint; balance: bigint }>(
      db,
      `update ledger_accounts
        set balance = ledger_accounts.balance + v.column2
        from (values ${repeated('(cast(? as bigint), cast(? as bigint))', chunk.length)}) as v
        where ledger_accounts.id = v.column1
          and (ledger_accounts.user_id is null or ledger_accounts.balance + v.column2 >= 0)
        returning ledger_accounts.id as id, ledger_accounts.balance as balance`,
      chunk.flatMap((c) => [c.accountId, c.amount]),
    );
    for (const row of result.rows) after.set(row.id, row.balance);
  }
  return after;
}

export async function insertEntry(
  db: Db,
  entry: { type: string; ref: string; memo: string; createdBy: string; now: Millis },
): Promise<bigint> {
  // why: hand-written SQL (`executeSql`): every spot batch writes one entry.
  const result = await executeSql<{ id: bigint }>(
    db,
    'insert into journal_entries (type, ref, memo, created_by, created_at) values (?, ?, ?, ?, ?) returning id',
    [entry.type, entry.ref, entry.memo, entry.createdBy, entry.now],
  );
  return result.rows[0]!.id;
}

/** An entry's postings, in the order given, in as few statements as the parameter limit allows. */
export async function insertPostings(
  db: Db,
  postings: readonly { entryId: bigint; accountId: bigint; amount: bigint; balanceAfter: bigint }[],
): Promise<void> {
  // why: hand-written SQL (`executeSql`): every spot batch posts, and building the query cost
  // about as much as running it.
  for (let i = 0; i < postings.length; i += 500) {
    const chunk = postings.slice(i, i + 500);
    await executeSql(
      db,
      `insert into postings (entry_id, account_id, amount, balance_after) values ${placeholderRows(chunk.length, 4)}`,
      chunk.flatMap((p) => [p.entryId, p.accountId, p.amount, p.balanceAfter]),
    );
  }
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

/**
 * The user's postings, newest first, `limit` of them before `beforeId` (or the newest).
 *
 * Read per account: a user has a few ledger accounts (coins × kinds) but, after a year, hundreds of
 * thousands of postings. Filtering postings by the accounts' owner made the store read every one
 * of them and sort them; instead each account is one seek on `postings (account_id, id)`, newest
 * first, stopped after `limit` rows, and only those (accounts × limit at most) are merged, sorted
 * and joined to their accounts and entries.
 */
export async function listStatement(
  db: Db,
  userId: bigint,
  options: { asset?: string; limit: number; beforeId?: bigint },
) {
  let accountsQuery = db.selectFrom('ledger_accounts').select('id').where('user_id', '=', userId);
  if (options.asset) accountsQuery = accountsQuery.where('asset', '=', options.asset);
  const accounts = await accountsQuery.execute();
  // why: SQLite caps a compound SELECT at 500 terms; a user with more accounts than this (none
  // today) is read in several statements whose answers are merged here.
  const accountsPerStatement = 100;
  const lines = [];
  for (let i = 0; i < accounts.length; i += accountsPerStatement) {
    const [first, ...rest] = accounts.slice(i, i + accountsPerStatement).map((account, n) => {
      let seek = db
        .selectFrom('postings')
        .select(['id', 'entry_id', 'account_id', 'amount', 'balance_after'])
        .where('account_id', '=', account.id);
      if (options.beforeId !== undefined) seek = seek.where('id', '<', options.beforeId);
      return db.selectFrom(seek.orderBy('id', 'desc').limit(options.limit).as(`account_${n}`)).selectAll();
    });
    const newest = first.unionAll(rest).orderBy('id', 'desc').limit(options.limit);
    const rows = await db
      .selectFrom(newest.as('page'))
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'page.account_id')
      .innerJoin('journal_entries', 'journal_entries.id', 'page.entry_id')
      .select([
        'page.id as id',
        'page.entry_id as entryId',
        'journal_entries.type as type',
        'journal_entries.ref as ref',
        'journal_entries.memo as memo',
        'ledger_accounts.asset as asset',
        'ledger_accounts.kind as kind',
        'page.amount as amount',
        'page.balance_after as balanceAfter',
        'journal_entries.created_at as createdAt',
      ])
      .orderBy('page.id', 'desc')
      .execute();
    lines.push(...rows);
  }
  if (accounts.length > accountsPerStatement) {
    lines.sort((a, b) => (a.id > b.id ? -1 : a.id < b.id ? 1 : 0));
  }
  return lines.slice(0, options.limit);
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

/** Per asset and kind, the sum of the users' balances and of the platform's own accounts. */
export function sumBalancesByAssetAndKind(db: Db) {
  return db
    .selectFrom('ledger_accounts')
    .select([
      'asset',
      'kind',
      sql<bigint>`cast(coalesce(sum(case when user_id is null then 0 else balance end), 0) as bigint)`.as(
        'users',
      ),
      sql<bigint>`cast(coalesce(sum(case when user_id is null then balance else 0 end), 0) as bigint)`.as(
        'system',
      ),
    ])
    .groupBy(['asset', 'kind'])
    .orderBy('asset')
    .orderBy('kind')
    .execute();
}

/**
 * Every user balance of one kind other than zero (e.g. `frozen`), per asset: by the partial index
 * on non-zero balances, so it reads the accounts that hold something, not every account.
 */
export function listHeldBalancesOfKind(db: Db, kind: string, users: UserRange) {
  return (
    db
      .selectFrom('ledger_accounts')
      .select(['user_id', 'asset', 'balance'])
      .where('kind', '=', kind)
      // why: a literal, not a parameter: the planner uses the partial index only for a condition it
      // can see is the index's own (with `balance <> ?` it read all 1.2 M accounts of a year).
      .where('balance', '<>', sql.lit(0n))
      .where('user_id', '>', users.after)
      .where('user_id', '<=', users.through)
      .execute()
  );
}

/** The last journal entry's id (0 when there is none). */
export async function lastEntryId(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0n;
}

/** Every user account with a balance other than zero, by user. */
export function listNonZeroUserAccounts(db: Db, users: UserRange) {
  return db
    .selectFrom('ledger_accounts')
    .select(['user_id', 'asset', 'kind', 'balance'])
    .where('user_id', '>', users.after)
    .where('user_id', '<=', users.through)
    .where('balance', '!=', 0n)
    .orderBy('user_id')
    .execute();
}

/** The highest user id that has a ledger account (0 when none). */
export async function lastAccountUserId(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select((eb) => eb.fn.max('user_id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0n;
}

/** A user's accounts with their balance after the last posting at or before entry `seq` (0 when none). */
export async function userBalancesAtEntry(db: Db, userId: bigint, seq: bigint) {
  const accounts = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'asset', 'kind'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const out: { asset: string; kind: string; balance: bigint }[] = [];
  for (const account of accounts) {
    const last = await db
      .selectFrom('postings')
      .select('balance_after')
      .where('account_id', '=', account.id)
      .where('entry_id', '<=', seq)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    out.push({ asset: account.asset, kind: account.kind, balance: last?.balance_after ?? 0n });
  }
  return out;
}
