import type {
  ClearingEvent,
  CommandResult,
  InsuranceLot,
  Move,
  MoveReason,
  PerpAccount,
  PerpOrder,
  PerpPosition,
} from './state.ts';
import { BrokenRule } from './state.ts';

export const SET: PerpAccount = { system: 'SET' };
export const FUND: PerpAccount = { system: 'FUND' };
export const IF: PerpAccount = { system: 'IF' };
export const FEE: PerpAccount = { system: 'FEE' };
export const avail = (user: bigint): PerpAccount => ({ user, kind: 'avail' });
export const hold = (user: bigint): PerpAccount => ({ user, kind: 'hold' });
export const pos = (user: bigint): PerpAccount => ({ user, kind: 'pos' });

/**
 * What one command is doing: the moves it posts, the events it raises and the records it touched,
 * with the running figures it must see (users' available balances it was told of, the insurance
 * fund, the funding account). Discarded whole when the command is refused.
 */
export class Journal {
  readonly moves: Move[] = [];
  readonly events: ClearingEvent[] = [];
  readonly orders = new Set<PerpOrder>();
  readonly positions = new Set<PerpPosition>();
  readonly lots = new Set<InsuranceLot>();
  readonly closedLots: bigint[] = [];
  /** Users whose positions a fill of this command changed: checked against maintenance before it ends (§4b.4). */
  readonly touched = new Set<bigint>();
  /** The funding account within this command (0 before and after a funding event). */
  fund = 0n;

  /** Known available balances; a move out of `avail` needs one. */
  readonly available: Map<bigint, bigint>;
  /** The insurance fund, moved in place. */
  readonly insurance: { value: bigint };

  constructor(available: Map<bigint, bigint>, insurance: { value: bigint }) {
    this.available = available;
    this.insurance = insurance;
  }

  /** Posts `amount` from one account to another; nothing for 0, and a negative amount goes the other way. */
  move(from: PerpAccount, to: PerpAccount, amount: bigint, why: MoveReason): void {
    if (amount === 0n) return;
    if (amount < 0n) {
      this.move(to, from, -amount, why);
      return;
    }
    this.#apply(from, -amount);
    this.#apply(to, amount);
    this.moves.push({ from, to, amount, why });
  }

  #apply(account: PerpAccount, delta: bigint): void {
    if ('system' in account) {
      if (account.system === 'IF') this.insurance.value += delta;
      else if (account.system === 'FUND') this.fund += delta;
      return;
    }
    if (account.kind !== 'avail') return;
    const known = this.available.get(account.user);
    // why: a credit to a user the host did not name needs no figure; a debit does (it was checked).
    if (known !== undefined) this.available.set(account.user, known + delta);
    else if (delta < 0n) throw new BrokenRule(`available balance of user ${account.user} was not given`);
  }

  /** The available balance the command may still take from a user (0 when not given). */
  availableOf(user: bigint): bigint {
    return this.available.get(user) ?? 0n;
  }

  result<T>(error: string | null, value?: T): CommandResult<T> {
    return {
      ok: error === null,
      error,
      value,
      moves: error === null ? this.moves : [],
      events: error === null ? this.events : [],
      orders:
        error === null ? [...this.orders].map((o) => ({ ...o, trigger: o.trigger && { ...o.trigger } })) : [],
      positions: error === null ? [...this.positions].map((p) => ({ ...p })) : [],
      lots: error === null ? [...this.lots].filter((l) => l.qty !== 0n).map((l) => ({ ...l })) : [],
      closedLots: error === null ? this.closedLots : [],
    };
  }
}
