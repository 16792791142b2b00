import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { sql } from 'kysely';
import { type Db, isPostgres, readerOf, type UserRange } from '../../platform/db.ts';
import { Pace } from '../../platform/pace.ts';
import * as repo from './repository.ts';

/** Open reservations that the users' balances of `kind` must equal (with every other source of that kind). */
export interface HeldSource {
  kind: string;
  source: (db: Db, users: UserRange) => Promise<{ userId: bigint; asset: string; amount: bigint }[]>;
}

export interface CheckResult {
  ok: boolean;
  problems: string[];
}

/** One recorded run of the routine check: the postings it verified and what it found. */
export interface LedgerRun extends CheckResult {
  /** `full`: every posting since the first; `since`: the postings after the last verified one. */
  mode: 'full' | 'since';
  /** Postings verified: ids in (fromPostingId, throughPostingId]. */
  fromPostingId: bigint;
  throughPostingId: bigint;
  /** When the run read the ledger's last posting id (unix ms, real time). */
  readAt: number;
  /** How long it took (ms). */
  tookMs: number;
}

export interface CheckOptions {
  /** Postings read per slice; the event loop is given back between slices. */
  postingsPerSlice?: number;
  /** Accounts read per slice. */
  accountsPerSlice?: number;
  /** Users whose reservations are compared per slice (user ids, not counting gaps). */
  usersPerSlice?: number;
  /**
   * How long a transaction can stay open on this store, so that a posting id read as the last
   * one may still be followed by a lower id committing later (PostgreSQL's sequences hand out ids
   * at insert, not at commit); 0 where ids commit in order (SQLite has one writer).
   */
  settleMs?: number;
  /** A routine run verifies every posting from the first again when the last full one is older. */
  fullEveryMs?: number;
  /** Real time (unix ms): watermarks are about how long transactions stay open, not business time. */
  now?: () => number;
}

const DEFAULTS = {
  postingsPerSlice: 500,
  accountsPerSlice: 2000,
  usersPerSlice: 2000,
  settleMs: 120_000,
  fullEveryMs: 7 * 24 * 60 * 60_000,
};
const KEEP_RUNS_MS = 30 * 24 * 60 * 60_000;

/**
 * The ledger's invariants, checked in slices so a year of postings never holds the event loop:
 * - every posting's `balance_after` is the previous posting's (of its account, by id) plus its
 *   amount; with the first at 0, the last one is then the fold of the account's postings;
 * - every entry's postings sum to zero per asset;
 * - every account's stored balance equals its last posting's `balance_after` (0 without any),
 *   and no user balance is below zero;
 * - each user's balance of a reserved kind equals the open reservations of every source.
 * The postings are immutable, so the first two are checked once per posting: a routine run
 * verifies the postings after the last verified one, and every `fullEveryMs` all of them. The
 * accounts (a balance can only be edited outside the ledger's code, and that is what the check is
 * for) are read in full on every run. Each statement reads one consistent state (an entry, or an
 * account with its last posting, commits as a whole), and each slice of users' reservations is
 * compared on one snapshot, so a run under trading never reports a problem that is not there.
 *
 * why not a worker thread with its own connection: the reservations come from every module's own
 * queries, registered on the ledger at start; slices that yield keep each synchronous SQLite
 * statement short, and cost one thread. Per-asset sums need no scan of their own: each account
 * equal to the fold of its postings and each entry balanced make them zero; the full check
 * ({@link LedgerChecker.checkAll}) still sums them in one statement.
 */
export class LedgerChecker {
  readonly #db: Db;
  readonly #held: () => HeldSource[];
  readonly #options: Required<CheckOptions>;
  #running: Promise<LedgerRun> | undefined;
  #stopping = false;

  constructor(db: Db, held: () => HeldSource[], options: CheckOptions = {}) {
    this.#db = db;
    this.#held = held;
    this.#options = {
      postingsPerSlice: options.postingsPerSlice ?? DEFAULTS.postingsPerSlice,
      accountsPerSlice: options.accountsPerSlice ?? DEFAULTS.accountsPerSlice,
      usersPerSlice: options.usersPerSlice ?? DEFAULTS.usersPerSlice,
      settleMs: options.settleMs ?? (isPostgres(db) ? DEFAULTS.settleMs : 0),
      fullEveryMs: options.fullEveryMs ?? DEFAULTS.fullEveryMs,
      now: options.now ?? Date.now,
    };
  }

  /**
   * Every invariant over the whole ledger, with the per-asset sums, read on `db` (a transaction,
   * or a store no one writes). Not recorded: for tests, backups and restores.
   */
  async checkAll(store: Db = this.#db): Promise<CheckResult> {
    const db = readerOf(store);
    const sums: string[] = [];
    for (const row of await repo.sumBalancesByAsset(db)) {
      if (row.total !== 0n) sums.push(`asset ${row.asset}: balances sum to ${row.total}, not 0`);
    }
    const found = await this.#check(db, 0n, await lastId(db, 'postings'), undefined);
    const problems = [...sums, ...found];
    return { ok: problems.length === 0, problems };
  }

  /**
   * The routine run: the postings since the last verified one (all of them when no full run is
   * younger than `fullEveryMs`, or `full`), every account, the reservations; recorded, so the
   * next run starts where this one could vouch for. A run asked for while one is going waits for
   * it and then runs, so what it reports was read after it was asked.
   */
  verify(options: { full?: boolean } = {}): Promise<LedgerRun> {
    const previous = this.#running?.catch(() => undefined);
    const run = (async () => {
      await previous;
      return this.#verify(options.full === true);
    })();
    this.#running = run;
    return run;
  }

  /** Stops a run between slices (it then fails with "stopped") and waits for it. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#running?.catch(() => undefined);
  }

  async #verify(full: boolean): Promise<LedgerRun> {
    const db = this.#db;
    const started = this.#options.now();
    const through = await lastId(db, 'postings');
    const last = await db
      .selectFrom('ledger_checks')
      .select('verified_through')
      .where('ok', '=', 1n)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const lastFull = await db
      .selectFrom('ledger_checks')
      .select('read_at')
      .where('ok', '=', 1n)
      .where('from_posting_id', '=', 0n)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const fullDue = !lastFull || Number(lastFull.read_at) <= started - this.#options.fullEveryMs;
    const from = full || fullDue || !last ? 0n : (last.verified_through ?? 0n);
    const id = (
      await db
        .insertInto('ledger_checks')
        .values({ read_at: BigInt(started), from_posting_id: from, through_posting_id: through })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    let problems: string[];
    try {
      // why: the routine run rests after each slice as long as it worked. Unpaced, a year's check
      // took most of the machine while it ran, and order entry's p99 went from 20 to 120 ms on
      // PostgreSQL (two cores). The full check for tests, backups and restores is not paced.
      problems = await this.#check(readerOf(db), from, through, new Pace());
    } catch (error) {
      problems = [`check failed: ${(error as Error).message}`];
    }
    const ok = problems.length === 0;
    // why: ids up to the last one read by a run at least `settleMs` before this one were all
    // committed when this run read them; above that, a lower id may still have been in flight.
    const settled = await db
      .selectFrom('ledger_checks')
      .select((eb) => eb.fn.max('through_posting_id').as('id'))
      .where('read_at', '<=', BigInt(started - this.#options.settleMs))
      .executeTakeFirst();
    const settledThrough = settled?.id ?? 0n;
    const verified = settledThrough > from ? (settledThrough < through ? settledThrough : through) : from;
    const finished = this.#options.now();
    await db
      .updateTable('ledger_checks')
      .set({
        ok: ok ? 1n : 0n,
        verified_through: ok ? verified : null,
        finished_at: BigInt(finished),
        problems: problems.slice(0, 50).join('\n').slice(0, 8000),
      })
      .where('id', '=', id)
      .execute();
    await db
      .deleteFrom('ledger_checks')
      .where('read_at', '<', BigInt(started - KEEP_RUNS_MS))
      .execute();
    return {
      ok,
      problems,
      mode: from === 0n ? 'full' : 'since',
      fromPostingId: from,
      throughPostingId: through,
      readAt: started,
      tookMs: finished - started,
    };
  }

  /** The problems found in postings (from, through], in every account, and in the reservations. */
  async #check(db: Db, from: bigint, through: bigint, pace: Pace | undefined): Promise<string[]> {
    const entries: string[] = [];
    const chain: string[] = [];
    const step = BigInt(this.#options.postingsPerSlice);
    for (let lo = from; lo < through; lo += step) {
      const hi = lo + step < through ? lo + step : through;
      for (const row of await unbalancedEntries(db, lo, hi)) {
        const line = `entry ${row.entryId}: postings in ${row.asset} sum to ${row.total}`;
        // why: an entry whose postings straddle two slices is read by both.
        if (!entries.includes(line)) entries.push(line);
      }
      for (const row of await brokenChains(db, lo, hi)) {
        chain.push(
          `posting ${row.id} of account ${row.owner} ${row.asset} ${row.kind}: balance after ${row.balance_after}, previous ${row.prev} + ${row.amount}`,
        );
      }
      await this.#yield(pace);
    }
    const mismatched: string[] = [];
    const negative: string[] = [];
    const lastAccount = await lastId(db, 'ledger_accounts');
    const accountStep = BigInt(this.#options.accountsPerSlice);
    for (let lo = 0n; lo < lastAccount; lo += accountStep) {
      for (const row of await accountsOff(db, lo, lo + accountStep)) {
        const name = `account ${row.owner} ${row.asset} ${row.kind}`;
        if (row.balance !== row.last)
          mismatched.push(`${name}: balance ${row.balance}, postings ${row.last}`);
        if (row.user_id !== null && row.balance < 0n)
          negative.push(`${name}: negative balance ${row.balance}`);
      }
      await this.#yield(pace);
    }
    return [...entries, ...chain, ...mismatched, ...negative, ...(await this.#reservations(db, pace))];
  }

  /**
   * Reserved-kind balances against the open reservations, a slice of users at a time, each slice
   * read on one snapshot: the comparison is per user, so slices read at different moments still
   * compare like with like, and no slice holds the store (on SQLite, its one connection) longer
   * than a few milliseconds (a year's 92,000 held balances and as many resting orders, read at
   * once, held it about 300 ms).
   */
  async #reservations(db: Db, pace: Pace | undefined): Promise<string[]> {
    const problems: string[] = [];
    const last = await db
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const lastUser = last?.id ?? 0n;
    const step = BigInt(this.#options.usersPerSlice);
    for (let after = 0n; after < lastUser; after += step) {
      const users = { after, through: after + step };
      const compare = (trx: Db) => this.#compareReservations(trx, users);
      // why: repeatable read is one snapshot on PostgreSQL, so trading meanwhile cannot make the
      // two sides differ; on SQLite the read thread's transaction is one snapshot of the WAL
      // (`readerOf`), and the writer goes on meanwhile.
      problems.push(
        ...(db.isTransaction
          ? await compare(db)
          : await db.transaction().setIsolationLevel('repeatable read').execute(compare)),
      );
      await this.#yield(pace);
    }
    return problems;
  }

  async #compareReservations(trx: Db, users: UserRange): Promise<string[]> {
    const problems: string[] = [];
    const sources = this.#held();
    const kinds = new Set(['frozen', ...sources.map((s) => s.kind)]);
    for (const kind of kinds) {
      const reserved = new Map<string, bigint>();
      for (const source of sources.filter((s) => s.kind === kind)) {
        for (const row of await source.source(trx, users)) {
          const key = `${row.userId}|${row.asset}`;
          reserved.set(key, (reserved.get(key) ?? 0n) + row.amount);
        }
      }
      const held = new Map<string, bigint>();
      for (const row of await repo.listHeldBalancesOfKind(trx, kind, users))
        held.set(`${row.user_id}|${row.asset}`, row.balance);
      for (const key of new Set([...reserved.keys(), ...held.keys()])) {
        const balance = held.get(key) ?? 0n;
        const open = reserved.get(key) ?? 0n;
        if (balance !== open)
          problems.push(`user|asset ${key}: ${kind} ${balance}, open reservations ${open}`);
      }
    }
    return problems;
  }

  async #yield(pace: Pace | undefined): Promise<void> {
    if (this.#stopping) throw new Error('stopped');
    await (pace ? pace.rest() : yieldToLoop());
  }
}

async function lastId(db: Db, table: 'postings' | 'ledger_accounts'): Promise<bigint> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0n;
}

/** Entries with a posting in (lo, hi] whose postings do not sum to zero per asset. */
async function unbalancedEntries(db: Db, lo: bigint, hi: bigint) {
  const result = await sql<{ entryId: bigint; asset: string; total: bigint }>`
    select p.entry_id as "entryId", a.asset as asset, cast(sum(p.amount) as bigint) as total
    from postings p join ledger_accounts a on a.id = p.account_id
    where p.entry_id in (select entry_id from postings where id > ${lo} and id <= ${hi})
    group by p.entry_id, a.asset
    having sum(p.amount) <> 0
    order by p.entry_id, a.asset`.execute(db);
  return result.rows;
}

/**
 * Postings in (lo, hi] whose `balance_after` is not the previous posting's of the same account
 * plus their amount: the previous one within the slice by a window, before it by one seek.
 */
async function brokenChains(db: Db, lo: bigint, hi: bigint) {
  const result = await sql<{
    id: bigint;
    owner: string;
    asset: string;
    kind: string;
    amount: bigint;
    balance_after: bigint;
    prev: bigint;
  }>`
    select t.id, a.owner, a.asset, a.kind, t.amount, t.balance_after, t.prev
    from (
      select p.id, p.account_id, p.amount, p.balance_after,
        coalesce(
          lag(p.balance_after) over (partition by p.account_id order by p.id),
          (select q.balance_after from postings q
            where q.account_id = p.account_id and q.id <= ${lo} order by q.id desc limit 1),
          0) as prev
      from postings p
      where p.id > ${lo} and p.id <= ${hi}
    ) t
    join ledger_accounts a on a.id = t.account_id
    where t.balance_after <> t.prev + t.amount
    order by t.id`.execute(db);
  return result.rows;
}

/**
 * Accounts in (lo, hi] whose stored balance differs from their last posting's `balance_after`
 * (0 without any), or that are a user's and below zero.
 */
async function accountsOff(db: Db, lo: bigint, hi: bigint) {
  const result = await sql<{
    owner: string;
    asset: string;
    kind: string;
    user_id: bigint | null;
    balance: bigint;
    last: bigint;
  }>`
    select t.owner, t.asset, t.kind, t.user_id, t.balance, t.last
    from (
      select a.id, a.owner, a.asset, a.kind, a.user_id, a.balance,
        coalesce((select q.balance_after from postings q
          where q.account_id = a.id order by q.id desc limit 1), 0) as last
      from ledger_accounts a
      where a.id > ${lo} and a.id <= ${hi}
    ) t
    where t.balance <> t.last or (t.user_id is not null and t.balance < 0)
    order by t.id`.execute(db);
  return result.rows;
}
