// The seed's double-entry books: every journal entry it writes goes through `post`, which keeps
// each account's running balance, so every posting's `balance_after` is its account's total in id
// order, every entry balances per asset, and no user balance goes below zero, as the ledger
// module guarantees for the platform's own entries.
import type { PriceModel } from './seed-prices.ts';
import type { SeedWriter } from './seed-store.ts';

export interface Account {
  id: number;
  balance: bigint;
  isUser: boolean;
}

/** One line of an entry: `u<id>` for a user, or a platform account's name. */
export interface SeedPosting {
  owner: number | string;
  asset: string;
  kind: 'available' | 'frozen';
  amount: bigint;
}

export class SeedBooks {
  readonly #writer: SeedWriter;
  readonly #accounts = new Map<string, Account>();
  #nextAccount: number;
  #nextEntry: number;
  #nextPosting: number;
  entries = 0;
  postings = 0;
  accountsCreated = 0;
  /** Postings per user id, for the users worth reporting (the active account). */
  readonly watched = new Map<number, number>();

  constructor(writer: SeedWriter, next: { account: number; entry: number; posting: number }) {
    this.#writer = writer;
    this.#nextAccount = next.account;
    this.#nextEntry = next.entry;
    this.#nextPosting = next.posting;
  }

  /** An account the platform created before the seed, with its balance as it stands. */
  load(owner: string, asset: string, kind: string, id: number, balance: bigint): void {
    this.#accounts.set(`${owner}|${asset}|${kind}`, { id, balance, isUser: owner.startsWith('user:') });
  }

  /** A user's balance of one kind (0 when the account does not exist yet). */
  balance(userId: number, asset: string, kind: 'available' | 'frozen' = 'available'): bigint {
    return this.#accounts.get(`user:${userId}|${asset}|${kind}`)?.balance ?? 0n;
  }

  post(entry: {
    type: string;
    ref: string;
    memo: string;
    by: string;
    at: number;
    lines: SeedPosting[];
  }): void {
    const sums = new Map<string, bigint>();
    const lines = entry.lines
      .filter((line) => line.amount !== 0n)
      .map((line) => {
        sums.set(line.asset, (sums.get(line.asset) ?? 0n) + line.amount);
        const owner = typeof line.owner === 'number' ? `user:${line.owner}` : `system:${line.owner}`;
        return { ...line, ownerKey: owner, key: `${owner}|${line.asset}|${line.kind}` };
      })
      // why: the ledger stores an entry's postings by account key, so statements read alike.
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const [asset, sum] of sums)
      if (sum !== 0n) throw new Error(`seed entry ${entry.type} ${entry.ref} does not balance in ${asset}`);
    const entryId = this.#nextEntry++;
    this.entries++;
    this.#writer.add('journal_entries', [entryId, entry.type, entry.ref, entry.memo, entry.by, entry.at]);
    for (const line of lines) {
      let account = this.#accounts.get(line.key);
      if (!account) {
        const isUser = typeof line.owner === 'number';
        account = { id: this.#nextAccount++, balance: 0n, isUser };
        this.#accounts.set(line.key, account);
        this.accountsCreated++;
        this.#writer.add('ledger_accounts', [
          account.id,
          line.ownerKey,
          isUser ? line.owner : null,
          line.asset,
          line.kind,
          0,
        ]);
      }
      account.balance += line.amount;
      if (account.isUser && account.balance < 0n)
        throw new Error(`seed entry ${entry.type} ${entry.ref} takes ${line.key} below zero`);
      this.postings++;
      this.#writer.add('postings', [this.#nextPosting++, entryId, account.id, line.amount, account.balance]);
      if (typeof line.owner === 'number' && this.watched.has(line.owner))
        this.watched.set(line.owner, (this.watched.get(line.owner) ?? 0) + 1);
    }
  }

  /** Every account's balance, for the store to hold once the postings are written. */
  balances(): [number, bigint][] {
    return [...this.#accounts.values()].map((a) => [a.id, a.balance]);
  }
}

/** A deterministic generator (mulberry32), so one scale always builds the same store. */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Due {
  at: number;
  /** Does the work when its time comes. */
  run: () => void;
  /** Writes the row as it stands when the time has not come by the end of the year. */
  open: () => void;
}

/** Work due at a later time (a settlement, a review), taken in time order. */
export class Agenda {
  readonly #heap: Due[] = [];

  add(at: number, run: () => void, open: () => void): void {
    const heap = this.#heap;
    heap.push({ at, run, open });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= heap[i]!.at) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  /** Runs, in time order, everything due at or before `at`. */
  runUntil(at: number): void {
    const heap = this.#heap;
    while (heap.length > 0 && heap[0]!.at <= at) {
      const top = heap[0]!;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < heap.length && heap[l]!.at < heap[m]!.at) m = l;
          if (r < heap.length && heap[r]!.at < heap[m]!.at) m = r;
          if (m === i) break;
          [heap[m], heap[i]] = [heap[i]!, heap[m]!];
          i = m;
        }
      }
      top.run();
    }
  }

  /** What is still waiting (after the seed's end: open reservations). */
  pending(): Due[] {
    return [...this.#heap];
  }
}

/** What the year's generators share: the books, the writer, the clock of the year and its customers. */
export interface SeedContext {
  readonly books: SeedBooks;
  readonly writer: SeedWriter;
  readonly agenda: Agenda;
  readonly prices: PriceModel;
  /** The end of the seeded year (the seed's start time). */
  readonly now: number;
  readonly activeUser: number;
  random(): number;
  /** A whole number from `low` to `high`, both included. */
  int(low: number, high: number): number;
  /** A customer who had registered by `at`, other than `not` and the active account. */
  user(at: number, not?: number): number;
  /** A customer holding at least `need` of `asset` when one is found quickly, else any other. */
  seller(asset: string, need: bigint, at: number, not?: number): number;
  /** Notes that `user` is about to receive `asset` (sellers are drawn from its holders). */
  holds(user: number, asset: string): void;
  /** Makes sure `user` holds `need` of `asset`, with a credited deposit when they do not. */
  fund(user: number, asset: string, need: bigint, at: number): void;
  /** The next id of `table`, counted as a row written. */
  next(table: string): number;
  /** The next id of `table`, counted when its row is written ({@link count}). */
  nextId(table: string): number;
  count(table: string): void;
}
