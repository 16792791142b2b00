import { expect } from 'vitest';
import {
  type ClearingSnapshot,
  type CommandResult,
  demoSpec,
  PerpClearing,
  type PerpSpec,
} from '../src/index.ts';
import type { PerpAccount } from '../src/state.ts';

/** USDT (or base) decimal string to atoms: `U('979.5')` = 97 950 000 000n. */
export function U(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).replaceAll(' ', '').split('.');
  const atoms = BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(8, '0').slice(0, 8));
  return negative ? -atoms : atoms;
}

/** A price in ticks of 0.1: `P('60000.0')` = 600 000n. */
export function P(decimal: string, spec: PerpSpec = btc()): bigint {
  return U(decimal) / spec.tickAtoms;
}

export function btc(): PerpSpec {
  return demoSpec('BTC-USDT', 10_000_000n, 100_000n);
}

function key(account: PerpAccount): string {
  return 'system' in account ? account.system : `${account.user}:${account.kind}`;
}

/**
 * A clearing with an in-memory ledger: every command's moves are applied to balances; deposits
 * and withdrawals are counted; the five invariants of perpetual.md §5 are checked after each
 * command ({@link check}).
 */
export class Market {
  readonly clearing: PerpClearing;
  readonly balances = new Map<string, bigint>();
  deposits = 0n;
  last!: CommandResult<unknown>;

  constructor(spec: PerpSpec = btc(), snapshot?: ClearingSnapshot) {
    this.clearing = new PerpClearing(spec, snapshot);
  }

  /**
   * A market in a given state: positions and lots as listed, their margins in the users' position
   * accounts, SET and the fund consistent with them (what earlier trades would have left).
   */
  static at(
    state: {
      mark: string;
      positions: { user: bigint; qty: string; entry: string; margin: string; leverage?: number }[];
      insurance?: string;
    },
    spec: PerpSpec = btc(),
  ): Market {
    const positions = state.positions.map((p, i) => ({
      id: BigInt(i + 1),
      userId: p.user,
      qty: U(p.qty),
      entry: U(p.entry),
      margin: U(p.margin),
      leverage: p.leverage ?? 5,
      realised: 0n,
    }));
    const market = new Market(spec, {
      figures: {
        seq: 0n,
        nextOrderId: 1n,
        nextPositionId: BigInt(positions.length + 1),
        mark: P(state.mark, spec),
        last: 0n,
        frozen: false,
        insurance: U(state.insurance ?? '0'),
      },
      positions,
      orders: [],
      lots: [],
      leverage: positions.map((p) => [p.userId, p.leverage]),
    });
    let set = 0n;
    for (const p of positions) {
      market.balances.set(`${p.userId}:pos`, (market.balances.get(`${p.userId}:pos`) ?? 0n) + p.margin);
      set += p.qty < 0n ? p.entry : -p.entry;
    }
    market.balances.set('SET', set);
    market.balances.set('IF', U(state.insurance ?? '0'));
    market.deposits = [...market.balances.values()].reduce((a, b) => a + b, 0n);
    market.check();
    return market;
  }

  balance(account: PerpAccount | string): bigint {
    return this.balances.get(typeof account === 'string' ? account : key(account)) ?? 0n;
  }

  avail(user: bigint): bigint {
    return this.balance({ user, kind: 'avail' });
  }

  deposit(user: bigint, amount: bigint): void {
    this.balances.set(`${user}:avail`, this.avail(user) + amount);
    this.deposits += amount;
  }

  /** Seeds the insurance fund (an operator's deposit into it). */
  fundInsurance(amount: bigint): void {
    this.balances.set('IF', this.balance('IF') + amount);
    this.deposits += amount;
    this.clearing.adjustInsurance(amount);
  }

  /** Runs one clearing command with every user's available balance known, applies and checks it. */
  run<T>(command: (c: PerpClearing) => CommandResult<T>): CommandResult<T> {
    for (const [k, amount] of this.balances) {
      const [user, kind] = k.split(':');
      if (kind === 'avail') this.clearing.setAvailable(BigInt(user), amount);
    }
    const result = command(this.clearing);
    for (const move of result.moves) {
      this.balances.set(key(move.from), this.balance(move.from) - move.amount);
      this.balances.set(key(move.to), this.balance(move.to) + move.amount);
    }
    this.last = result as CommandResult<unknown>;
    this.check();
    return result;
  }

  ok<T>(command: (c: PerpClearing) => CommandResult<T>): CommandResult<T> {
    const result = this.run(command);
    expect(result.error).toBeNull();
    return result;
  }

  /** The five invariants of perpetual.md §5, plus the clearing's own figures against the ledger. */
  check(): void {
    let total = 0n;
    for (const [k, amount] of this.balances) {
      total += amount;
      if (k.includes(':')) expect(amount, `${k} below zero`).toBeGreaterThanOrEqual(0n);
    }
    expect(total, 'Σ balances = deposits − withdrawals').toBe(this.deposits);
    expect(this.balance('FUND'), 'FUND = 0').toBe(0n);
    let longs = 0n;
    let shorts = 0n;
    let longE = 0n;
    let shortE = 0n;
    const margins = new Map<bigint, bigint>();
    for (const p of this.clearing.positions()) {
      if (p.qty > 0n) [longs, longE] = [longs + p.qty, longE + p.entry];
      if (p.qty < 0n) [shorts, shortE] = [shorts - p.qty, shortE + p.entry];
      margins.set(p.userId, (margins.get(p.userId) ?? 0n) + p.margin);
    }
    for (const l of this.clearing.lots()) {
      if (l.qty > 0n) [longs, longE] = [longs + l.qty, longE + l.entry];
      if (l.qty < 0n) [shorts, shortE] = [shorts - l.qty, shortE + l.entry];
    }
    expect(longs, 'Σ long Q = Σ short Q').toBe(shorts);
    expect(this.balance('SET'), 'SET = Σ short E − Σ long E').toBe(shortE - longE);
    for (const [user, margin] of margins)
      expect(this.balance({ user, kind: 'pos' }), `pos of ${user}`).toBe(margin);
    const holds = new Map<bigint, bigint>();
    for (const o of this.clearing.openOrders()) holds.set(o.userId, (holds.get(o.userId) ?? 0n) + o.hold);
    for (const [k, amount] of this.balances) {
      if (k.endsWith(':hold')) expect(amount, k).toBe(holds.get(BigInt(k.split(':')[0])) ?? 0n);
    }
    expect(this.clearing.figures.insurance, 'insurance').toBe(this.balance('IF'));
  }
}
