import { TimeSlice } from '../../platform/pace.ts';
import type { AccountKind, UserBalance } from '../ledger/service.ts';

/** The user balances a snapshot counts, per asset (the design's section 2). */
// why: `trial_profit` is real USDT the platform owes once the turnover is placed: a liability.
export const COUNTED_KINDS: readonly AccountKind[] = [
  'available',
  'frozen',
  'locked',
  'margin',
  'mining',
  'trial_profit',
];
/** Trial money: never withdrawable, so not a liability; published on its own line. */
export const TRIAL_KINDS: readonly AccountKind[] = ['trial', 'trial_frozen'];

/** One slice of users: their ids and, per asset, each one's counted sum in two 64-bit words. */
interface Slice {
  ids: BigUint64Array;
  sums: Map<string, BigUint64Array>;
}

const WORD = 0xffff_ffff_ffff_ffffn;

/**
 * A snapshot's user balances added up as they are read, a slice of users at a time, kept in typed
 * arrays: per user and asset the counted kinds' sum, per asset the total, and the trial total.
 * why: a year's 931,000 balance rows kept as objects (and a map per user) made a heap whose
 * collections held the event loop 100–250 ms at a time while the snapshot ran.
 */
export class CountedBalances {
  /** Per asset, the counted total over every user. */
  readonly totals = new Map<string, bigint>();
  /** Per asset, the trial money's total. */
  readonly trialTotal = new Map<string, bigint>();
  readonly #slices: Slice[] = [];
  readonly #pace = new TimeSlice();
  #lastUser = 0n;
  #users = 0;

  /**
   * Adds one slice's rows: every row of a user in this slice, users in ascending id order and
   * after the previous slice's. Throws on a negative balance.
   */
  async add(rows: readonly UserBalance[]): Promise<void> {
    const ids: bigint[] = [];
    const sums = new Map<string, bigint[]>();
    for (const row of rows) {
      if (this.#pace.due()) await this.#pace.turn();
      if (row.balance < 0n)
        throw new Error(`user ${row.userId} has a negative ${row.asset} ${row.kind} balance`);
      if (TRIAL_KINDS.includes(row.kind)) {
        this.trialTotal.set(row.asset, (this.trialTotal.get(row.asset) ?? 0n) + row.balance);
        continue;
      }
      if (!COUNTED_KINDS.includes(row.kind)) continue;
      if (row.userId !== ids.at(-1)) {
        if (row.userId <= this.#lastUser) throw new Error(`user ${row.userId}'s balances came out of order`);
        ids.push(row.userId);
        this.#lastUser = row.userId;
      }
      const at = ids.length - 1;
      const column = sums.get(row.asset) ?? [];
      column[at] = (column[at] ?? 0n) + row.balance;
      sums.set(row.asset, column);
      this.totals.set(row.asset, (this.totals.get(row.asset) ?? 0n) + row.balance);
    }
    const slice: Slice = { ids: BigUint64Array.from(ids), sums: new Map() };
    for (const [asset, column] of sums) {
      const words = new BigUint64Array(ids.length * 2);
      for (let u = 0; u < ids.length; u++) {
        const sum = column[u] ?? 0n;
        words[2 * u] = sum >> 64n;
        words[2 * u + 1] = sum & WORD;
      }
      slice.sums.set(asset, words);
    }
    this.#slices.push(slice);
    this.#users += ids.length;
  }

  /**
   * The tree's input: the assets in order, the users in id order, and user u's balance of asset a
   * at `2 * (u * assets.length + a)` (high word, low word).
   */
  async treeInput(): Promise<{ assets: string[]; userIds: BigUint64Array; words: BigUint64Array }> {
    const assets = [...this.totals.keys()].sort();
    const k = assets.length;
    const userIds = new BigUint64Array(this.#users);
    const words = new BigUint64Array(this.#users * k * 2);
    let first = 0;
    for (const slice of this.#slices) {
      userIds.set(slice.ids, first);
      for (const [a, asset] of assets.entries()) {
        const column = slice.sums.get(asset);
        if (!column) continue;
        for (let u = 0; u < slice.ids.length; u++) {
          if (this.#pace.due()) await this.#pace.turn();
          const at = 2 * ((first + u) * k + a);
          words[at] = column[2 * u] as bigint;
          words[at + 1] = column[2 * u + 1] as bigint;
        }
      }
      first += slice.ids.length;
    }
    return { assets, userIds, words };
  }
}
