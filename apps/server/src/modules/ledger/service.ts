import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppError } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation, type UserRange } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { type CheckOptions, LedgerChecker, type LedgerRun } from './check.ts';
import * as repo from './repository.ts';

// why: `trial` is trial money (delivery contracts only, never withdrawable); `trial_frozen` holds
// it while a trial contract is open.
// why: `mining` holds a day's mining output until its release delay has passed.
// why: `trial_profit` holds real USDT won with trial money, locked until the account's real
// turnover releases it to `available` (or the grant expires and it returns to the house).
export const ACCOUNT_KINDS = [
  'available',
  'frozen',
  'locked',
  'trial',
  'trial_frozen',
  'trial_profit',
  'margin',
  'mining',
] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
/** Kinds whose user balances must equal the open reservations registered for them. */
export type ReservedKind =
  | 'frozen'
  | 'locked'
  | 'margin'
  | 'mining'
  | 'trial'
  | 'trial_frozen'
  | 'trial_profit';

/** The ledger's figures at one point: see {@link LedgerService.totals}. */
export interface LedgerTotals {
  lastEntryId: bigint;
  totals: { asset: string; kind: AccountKind; users: bigint; system: bigint }[];
}

/** The platform's own accounts: where money comes from and goes to outside the users. */
export const SYSTEM_ACCOUNTS = [
  'external_deposits',
  'external_withdrawals',
  'fees',
  'house',
  'insurance',
  'rewards',
  'demo',
  'conversion',
  'adjustments',
  'trial',
  'treasury',
  'mining_sales',
] as const;
/**
 * A launchpad project's own accounts (`<name>:<project id>`): the issuer who supplies the tokens
 * and receives the proceeds, the inventory of tokens for sale, and the escrow of money paid.
 */
export type ProjectAccount = `${'lp_issuer' | 'lp_inventory' | 'lp_escrow'}:${string}`;
/** A mining output coin's pool (`mining_pool:<COIN>`): the operator funds it; daily output is paid from it. */
export type PoolAccount = `mining_pool:${string}`;
/**
 * A perpetual market's own accounts (`<name>:<symbol>`, perpetual.md §2): trade settlement (may be
 * negative), the funding account (0 after every funding event), the insurance fund, and the fees
 * its trades pay (`perp_fees`: the platform's fee income is `fees` and every market's
 * `perp_fees`). Each market's batch locks only its own, so no platform row couples two markets.
 */
export type PerpMarketAccount =
  `${'perp_fees' | 'perp_settlement' | 'perp_funding' | 'perp_insurance'}:${string}`;
export type SystemAccount =
  | (typeof SYSTEM_ACCOUNTS)[number]
  | ProjectAccount
  | PoolAccount
  | PerpMarketAccount;

export type Owner = { userId: bigint } | { system: SystemAccount };

/** One line of an entry: a signed amount in atoms (10^8 per unit); positive credits the account. */
export interface Posting {
  owner: Owner;
  asset: string;
  kind: AccountKind;
  amount: bigint;
}

export interface EntryInput {
  /** What happened, e.g. `deposit.credit`, `withdrawal.freeze`, `conversion`, `adjustment`. */
  type: string;
  /** What it refers to, e.g. `deposit:12`. (type, ref) is unique: an entry is posted once. */
  ref: string;
  /** Shown with the movement in the user's bills and in the back office. */
  memo?: string;
  /** Who caused it: `user:3`, `staff:7`, `system`. */
  by?: string;
  postings: Posting[];
}

export interface StatementLine {
  id: bigint;
  entryId: bigint;
  type: string;
  ref: string;
  memo: string;
  asset: string;
  kind: AccountKind;
  amount: bigint;
  balanceAfter: bigint;
  createdAt: number;
}

/**
 * Open reservations of one source (e.g. pending withdrawals): what each user's balance of the
 * source's kind (`frozen` unless said otherwise) must hold.
 */
/**
 * The open reservations of the users in `users` (ids in (after, through]), per user and asset: a
 * source must read those users' alone, since the check compares them a slice of users at a time.
 */
export type ReservationSource = (
  db: Db,
  users: UserRange,
) => Promise<{ userId: bigint; asset: string; amount: bigint }[]>;

const ASSET_RE = /^[A-Z0-9]{1,16}$/;
/** One user balance (the snapshot's read). */
export interface UserBalance {
  userId: bigint;
  asset: string;
  kind: AccountKind;
  balance: bigint;
}

/** Users whose balances one statement of a snapshot's read takes. */
const BALANCE_SLICE_USERS = 500n;

function ownerKey(owner: Owner): string {
  return 'userId' in owner ? `user:${owner.userId}` : `system:${owner.system}`;
}

/** The key of an account in {@link LedgerService.balancesForUpdate}'s answer. */
export function balanceKey(owner: Owner, asset: string, kind: AccountKind): string {
  return repo.accountKeyOf({ owner: ownerKey(owner), asset, kind });
}

/**
 * The one order in which a transaction may lock account rows (PostgreSQL): the platform's own
 * accounts before users', each group by ascending id. The hot rows every use case shares (the
 * fees, conversion and house accounts) are thus always taken first, so two transactions that
 * meet on them queue there instead of each holding what the other waits for.
 */
export function lockOrder(a: { id: bigint; isUser: boolean }, b: { id: bigint; isUser: boolean }): number {
  if (a.isUser !== b.isUser) return a.isUser ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Thrown (under `onLockOrderBroken: 'refuse'`, as in tests) when a posting would take a platform
 * account after its transaction has taken a user's: a fault of the use case (it must take the
 * platform accounts first, with {@link LedgerService.balancesForUpdate}), never of its input.
 */
export class LockOrderError extends Error {}

/**
 * The double-entry ledger: the only code that changes a balance. Every change is one journal
 * entry whose postings sum to zero per asset; a user account never goes below zero, checked by the
 * same statement that moves it, inside the caller's transaction.
 *
 * **Lock order** (PostgreSQL; SQLite has one writer). Every posting takes its accounts' rows in
 * {@link lockOrder}: platform accounts first, then users', by ascending id within each. A use case
 * that posts several entries, or posts after reading balances for update, takes every platform
 * account it will post to in its first lock ({@link balancesForUpdate}); the ledger checks every
 * posting against this, and one that would take a platform account after the transaction has
 * taken a user's is refused in tests ({@link LockOrderError}) and logged in production. Users' rows taken by later postings of the same transaction may come
 * after higher ids, so a deadlock between two such use cases stays possible, though only when
 * they share no platform row; PostgreSQL then aborts one of them and the store runs it again
 * (`retryOnConflict` in the platform's db), so it never reaches a customer.
 */
export class LedgerService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #reservations = new Map<string, { kind: ReservedKind; source: ReservationSource }>();
  readonly #lockRows: boolean;
  /** What each open transaction has locked (PostgreSQL): row ids, and whether a user's is among them. */
  readonly #held = new WeakMap<object, { ids: Set<bigint>; userTaken: boolean }>();
  readonly #onLockOrderBroken: 'refuse' | ((message: string) => void);
  readonly #checker: LedgerChecker;

  /**
   * `lockRows`: the store takes row locks (`FOR UPDATE`, PostgreSQL); SQLite's one write lock needs
   * none. `onLockOrderBroken`: `refuse` throws {@link LockOrderError}; a function is told instead.
   */
  constructor(deps: {
    db: Db;
    clock: Clock;
    lockRows?: boolean;
    onLockOrderBroken?: 'refuse' | ((message: string) => void);
    /** Slice sizes and schedule of the ledger check (tests use small slices). */
    check?: CheckOptions;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#lockRows = deps.lockRows ?? false;
    this.#onLockOrderBroken = deps.onLockOrderBroken ?? 'refuse';
    this.#checker = new LedgerChecker(
      deps.db,
      () => [...this.#reservations.values()].map((r) => ({ kind: r.kind, source: r.source })),
      deps.check,
    );
  }

  /**
   * Posts one balanced entry inside `trx`. Throws BALANCE_INSUFFICIENT when a user account would
   * go below zero and ILLEGAL_OPERATION when the same (type, ref) was posted before; either way
   * the caller's transaction must roll back (throwing out of it does).
   */
  async post(trx: Db, entry: EntryInput): Promise<{ entryId: bigint }> {
    const sums = new Map<string, bigint>();
    if (entry.postings.length < 2) throw new Error(`entry ${entry.type} ${entry.ref} needs two postings`);
    for (const posting of entry.postings) {
      if (posting.amount === 0n) throw new Error(`entry ${entry.type} ${entry.ref} has a zero posting`);
      if (!ASSET_RE.test(posting.asset)) throw new Error(`bad asset ${posting.asset}`);
      if (!(ACCOUNT_KINDS as readonly string[]).includes(posting.kind))
        throw new Error(`bad kind ${posting.kind}`);
      sums.set(posting.asset, (sums.get(posting.asset) ?? 0n) + posting.amount);
    }
    for (const [asset, sum] of sums) {
      if (sum !== 0n)
        throw new Error(`entry ${entry.type} ${entry.ref} does not balance in ${asset}: ${sum}`);
    }

    let entryId: bigint;
    try {
      entryId = await repo.insertEntry(trx, {
        type: entry.type,
        ref: entry.ref,
        memo: (entry.memo ?? '').slice(0, 500),
        createdBy: entry.by ?? 'system',
        now: toMillis(this.#clock.now()),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('ILLEGAL_OPERATION');
      throw error;
    }

    const keys = entry.postings.map((posting) => ({
      owner: ownerKey(posting.owner),
      userId: 'userId' in posting.owner ? posting.owner.userId : null,
      asset: posting.asset,
      kind: posting.kind,
    }));
    const created = new Set<string>();
    const ids = await repo.ensureAccounts(trx, keys, created);
    const changes = entry.postings
      .map((posting, i) => {
        const key = repo.accountKeyOf(keys[i] as repo.AccountKey);
        const accountId = ids.get(key);
        if (accountId === undefined)
          throw new Error(`no account for ${ownerKey(posting.owner)} ${posting.asset}`);
        const isUser = 'userId' in posting.owner;
        return { id: accountId, accountId, key, amount: posting.amount, isUser, isNew: created.has(key) };
      })
      .sort(lockOrder);
    const rows: { entryId: bigint; accountId: bigint; amount: bigint; balanceAfter: bigint }[] = [];
    const repeats = new Set(changes.map((c) => c.accountId)).size !== changes.length;
    if (this.#lockRows) this.#take(trx, changes, `${entry.type} ${entry.ref}`);
    if (this.#lockRows || repeats) {
      // why: one row at a time, in the lock order (and an account posted twice gets a balance
      // after each posting).
      for (const { accountId, amount, isUser } of changes) {
        const balanceAfter = await repo.addToBalance(trx, accountId, amount, !isUser);
        if (balanceAfter === undefined) throw new AppError('BALANCE_INSUFFICIENT');
        rows.push({ entryId, accountId, amount, balanceAfter });
      }
    } else {
      // why: SQLite has one writer, which no other can wait for: all of the entry's balances move
      // in one statement.
      const after = await repo.addToBalances(trx, changes);
      for (const { accountId, amount } of changes) {
        const balanceAfter = after.get(accountId);
        if (balanceAfter === undefined) throw new AppError('BALANCE_INSUFFICIENT');
        rows.push({ entryId, accountId, amount, balanceAfter });
      }
    }
    // why: postings are stored by account key, whatever order their rows were locked in, so an
    // entry's lines read the same on every store (statements list them in posting id order).
    const stored = rows
      .map((row, i) => ({ row, key: changes[i]!.key }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ row }) => row);
    await repo.insertPostings(trx, stored);
    return { entryId };
  }

  /**
   * Several balances in one read, keyed as {@link balanceKey} makes them; accounts that do not
   * exist yet are absent (their balance is 0). The rows stay locked for the rest of `trx`, so a
   * caller that checks many debits against this answer (the spot sequencer's batch) sees no other
   * writer change them before its entry is posted.
   */
  async balancesForUpdate(
    trx: Db,
    accounts: readonly { owner: Owner; asset: string; kind: AccountKind }[],
  ): Promise<Map<string, bigint>> {
    const keys = accounts.map((a) => ({
      owner: ownerKey(a.owner),
      userId: 'userId' in a.owner ? a.owner.userId : null,
      asset: a.asset,
      kind: a.kind,
    }));
    if (!this.#lockRows) {
      const found = await repo.findAccounts(trx, keys);
      return new Map([...found].map(([key, account]) => [key, account.balance]));
    }
    // why: a platform account is created if missing, so that it is locked now and not first taken
    // by a later posting, after users' rows (another transaction may create it meanwhile).
    await repo.ensureAccounts(
      trx,
      keys.filter((key) => key.userId === null),
    );
    // why: their ids first (no lock), so that the rows are then locked in the lock order.
    const found = await repo.findAccounts(trx, keys);
    const locking = [...found.entries()]
      .map(([key, account]) => ({ key, id: account.id, isUser: key.startsWith('user:') }))
      .sort(lockOrder);
    this.#take(trx, locking, 'balances for update');
    const balances = await repo.lockAccounts(
      trx,
      locking.map((a) => a.id),
    );
    return new Map(locking.map((a) => [a.key, balances.get(a.id) ?? 0n]));
  }

  /**
   * Records the rows a transaction is about to lock, in the lock order, and refuses a platform
   * account taken after a user's ({@link LockOrderError}).
   */
  #take(trx: Db, accounts: readonly { id: bigint; isUser: boolean; isNew?: boolean }[], what: string): void {
    let held = this.#held.get(trx);
    if (!held) {
      held = { ids: new Set(), userTaken: false };
      this.#held.set(trx, held);
    }
    for (const { id, isUser, isNew } of accounts) {
      if (held.ids.has(id)) continue;
      // why: an account this transaction created is its alone until it commits: nobody waits on it.
      if (!isUser && held.userTaken && !isNew) {
        const message = `${what}: platform account ${id} locked after a user's account`;
        if (this.#onLockOrderBroken === 'refuse') throw new LockOrderError(message);
        this.#onLockOrderBroken(message);
      }
      held.ids.add(id);
      if (isUser) held.userTaken = true;
    }
  }

  /**
   * Every user balance other than zero, with the last journal entry they include, read inside
   * `trx` (one transaction: the proof of reserves' cut point).
   */
  async userBalancesAt(trx: Db): Promise<{ ledgerSeq: bigint; rows: UserBalance[] }> {
    const rows: UserBalance[] = [];
    const ledgerSeq = await this.eachUserBalanceSlice(trx, (slice) => {
      rows.push(...slice);
    });
    return { ledgerSeq, rows };
  }

  /**
   * Every user's non-zero balances as `trx` sees them, handed to `visit` a slice of users at a
   * time, in user id order (a user's rows in one slice); answers the id of the last journal entry
   * `trx` sees. Give it a repeatable-read transaction for balances of one moment.
   */
  async eachUserBalanceSlice(trx: Db, visit: (rows: UserBalance[]) => void | Promise<void>): Promise<bigint> {
    const ledgerSeq = await repo.lastEntryId(trx);
    const last = await repo.lastAccountUserId(trx);
    // why: a year's 931,000 balances read in one statement held the event loop about 2 s (SQLite's
    // driver blocks while it runs; on PostgreSQL, turning the rows into objects did for 0.9 s),
    // and kept as one array they made every collection of the heap long. Slices of users, each
    // handed on and let go, with a turn of the loop between them.
    for (let after = 0n; after < last; after += BALANCE_SLICE_USERS) {
      const through = after + BALANCE_SLICE_USERS;
      const rows = await repo.listNonZeroUserAccounts(trx, { after, through });
      await visit(
        rows.map((row) => ({
          userId: row.user_id as bigint,
          asset: row.asset,
          kind: row.kind as AccountKind,
          balance: row.balance,
        })),
      );
      await yieldToLoop();
    }
    return ledgerSeq;
  }

  /** A user's balances as they stood after journal entry `seq`, from the postings (their statement). */
  async userBalancesAtEntry(
    db: Db,
    userId: bigint,
    seq: bigint,
  ): Promise<{ asset: string; kind: AccountKind; balance: bigint }[]> {
    return (await repo.userBalancesAtEntry(db, userId, seq)).map((row) => ({
      ...row,
      kind: row.kind as AccountKind,
    }));
  }

  /** One balance; 0 when the account does not exist yet. */
  balance(db: Db, owner: Owner, asset: string, kind: AccountKind): Promise<bigint> {
    return repo.findBalance(db, ownerKey(owner), asset, kind);
  }

  /** Every non-empty account of a user. */
  async userBalances(
    db: Db,
    userId: bigint,
  ): Promise<{ asset: string; kind: AccountKind; balance: bigint }[]> {
    const rows = await repo.listUserAccounts(db, userId);
    return rows.map((row) => ({ asset: row.asset, kind: row.kind as AccountKind, balance: row.balance }));
  }

  /** The user's movements, newest first, `limit` at a time (`beforeId` pages back). */
  async statement(
    db: Db,
    userId: bigint,
    options: { asset?: string; limit: number; beforeId?: bigint },
  ): Promise<StatementLine[]> {
    const rows = await repo.listStatement(db, userId, options);
    return rows.map(toStatementLine);
  }

  async statementLine(db: Db, userId: bigint, postingId: bigint): Promise<StatementLine | undefined> {
    const row = await repo.findStatementLine(db, userId, postingId);
    return row && toStatementLine(row);
  }

  /**
   * What the books hold, read in one unit of work on `db` (a transaction or a store no one
   * writes): the last journal entry's id, and per asset and account kind the sum of the users'
   * balances and of the platform's own accounts. Backups record it and restores compare it.
   */
  async totals(db: Db = this.#db): Promise<LedgerTotals> {
    const lastEntryId = await repo.lastEntryId(db);
    const rows = await repo.sumBalancesByAssetAndKind(db);
    return {
      lastEntryId,
      totals: rows.map((row) => ({
        asset: row.asset,
        kind: row.kind as AccountKind,
        users: row.users,
        system: row.system,
      })),
    };
  }

  /**
   * Adds a source of open reservations that users' balances of `kind` (default `frozen`) must
   * equal in total, with every other source of that kind.
   */
  addReservationSource(name: string, source: ReservationSource, kind: ReservedKind = 'frozen'): void {
    this.#reservations.set(name, { kind, source });
  }

  /**
   * Checks the whole books on `db` (a transaction, or a store no one writes): per asset every
   * balance sums to zero; every entry balances; each stored balance equals the fold of its
   * postings; no user balance is negative; each user's balance of a reserved kind equals the open
   * reservations of every registered source. Not recorded: see {@link verify} for the routine run.
   */
  checkInvariants(db: Db = this.#db): Promise<{ ok: boolean; problems: string[] }> {
    return this.#checker.checkAll(db);
  }

  /**
   * The routine check, recorded: the postings since the last verified one (all of them weekly,
   * or with `full`), every account and the reservations, in slices that give the event loop back.
   */
  verify(options: { full?: boolean } = {}): Promise<LedgerRun> {
    return this.#checker.verify(options);
  }

  /** Ends a running check between two slices and waits for it. */
  stopChecks(): Promise<void> {
    return this.#checker.stop();
  }
}

function toStatementLine(row: Awaited<ReturnType<typeof repo.listStatement>>[number]): StatementLine {
  return {
    id: row.id,
    entryId: row.entryId,
    type: row.type,
    ref: row.ref,
    memo: row.memo,
    asset: row.asset,
    kind: row.kind as AccountKind,
    amount: row.amount,
    balanceAfter: row.balanceAfter,
    createdAt: fromMillis(row.createdAt),
  };
}
