import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../shared/test/property-runs.ts';
import { PerpClearing as Clearing, type PerpClearing, type PlaceInput } from '../src/index.ts';
import { btc, Market, P, U } from './harness.ts';

/**
 * Free mode: random orders (reduce-only ones included, and reduce-only orders of the whole
 * position, the pair that once opened a short with negative margin), marks (small steps and
 * jumps that liquidate), funding events and margin changes by four users, in any order and from
 * any account, each user holding only what they deposited (sometimes nothing) and the fund
 * starting anywhere from empty. After every command the five invariants of perpetual.md §5 hold
 * (the harness checks them: conservation, no user account below zero, Σ long Q = Σ short Q), no
 * margin is negative and the fund is never below zero; no command throws (a throw is a broken
 * rule); a clearing rebuilt from the snapshot is the same clearing.
 *
 * 60 random sequences by default, within the test time limit; `PROPERTY_SCALE` multiplies them
 * (a nightly-style run: `PROPERTY_SCALE=80`, about 5 000 sequences).
 */
const RUNS = propertyRuns(60);

const USERS = [1n, 2n, 3n, 4n];
const user = fc.constantFrom(...USERS);
const side = fc.constantFrom<'buy' | 'sell'>('buy', 'sell');
/** Offsets from the mark in basis points: inside the band mostly, sometimes outside. */
const offset = fc.integer({ min: -600, max: 600 });
const lots = fc.integer({ min: 1, max: 40 });

type Op =
  | { kind: 'limit'; user: bigint; side: 'buy' | 'sell'; offset: number; lots: number; reduceOnly: boolean }
  | { kind: 'market'; user: bigint; side: 'buy' | 'sell'; lots: number; reduceOnly: boolean }
  | {
      kind: 'trigger';
      user: bigint;
      side: 'buy' | 'sell';
      offset: number;
      lots: number;
      stop: boolean;
      mark: boolean;
      close: boolean;
    }
  | { kind: 'stops'; user: bigint; below: number; above: number }
  | { kind: 'closeAll'; user: bigint; offset: number }
  | { kind: 'cancel'; user: bigint; pick: number }
  | { kind: 'mark'; bps: number }
  | { kind: 'fund'; rate: number }
  | { kind: 'margin'; user: bigint; add: boolean; amount: number }
  | { kind: 'leverage'; user: bigint; leverage: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      user,
      side,
      offset,
      lots,
      reduceOnly: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      user,
      side,
      lots,
      reduceOnly: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('trigger' as const),
      user,
      side,
      offset,
      lots,
      stop: fc.boolean(),
      mark: fc.boolean(),
      close: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('stops' as const),
      user,
      below: fc.integer({ min: 10, max: 3000 }),
      above: fc.integer({ min: 10, max: 3000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('closeAll' as const),
      user,
      offset: fc.integer({ min: -300, max: 300 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user, pick: fc.nat(20) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      bps: fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: -150, max: 150 }) },
        { weight: 1, arbitrary: fc.integer({ min: -2500, max: 2500 }) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('fund' as const),
      rate: fc.integer({ min: -1_500_000, max: 1_500_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('margin' as const),
      user,
      add: fc.boolean(),
      amount: fc.integer({ min: 1, max: 5_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('leverage' as const),
      user,
      leverage: fc.integer({ min: 1, max: 5 }),
    }),
  },
);

const at = (mark: bigint, bps: number) => (mark * BigInt(10_000 + bps)) / 10_000n;

function apply(m: Market, o: Op): void {
  const c = m.clearing;
  const mark = c.figures.mark;
  const qty = (n: number) => BigInt(n) * c.spec.lotAtoms;
  const place = (input: PlaceInput) => m.run((x: PerpClearing) => x.place(input));
  switch (o.kind) {
    case 'limit':
      place({
        userId: o.user,
        side: o.side,
        type: 'limit',
        price: at(mark, o.offset),
        qty: qty(o.lots),
        reduceOnly: o.reduceOnly,
      });
      return;
    case 'market':
      place({ userId: o.user, side: o.side, type: 'market', qty: qty(o.lots), reduceOnly: o.reduceOnly });
      return;
    case 'trigger':
      place({
        userId: o.user,
        side: o.side,
        type: o.offset % 2 === 0 ? 'market' : 'limit',
        price: at(mark, o.offset),
        qty: qty(o.lots),
        trigger: {
          kind: o.stop ? 'stop' : 'take_profit',
          price: at(mark, o.offset),
          ref: o.mark ? 'mark' : 'last',
          closePosition: o.close,
        },
      });
      return;
    case 'stops':
      m.run((x) =>
        x.attachStops(o.user, { stopLoss: at(mark, -o.below), takeProfit: at(mark, o.above), ref: 'mark' }),
      );
      return;
    case 'closeAll': {
      // A reduce-only limit of the whole position, whatever else rests (§4b.2: the second is refused).
      const p = c.position(o.user);
      if (!p || p.qty === 0n) return;
      place({
        userId: o.user,
        side: p.qty > 0n ? 'sell' : 'buy',
        type: 'limit',
        price: at(mark, o.offset),
        qty: p.qty > 0n ? p.qty : -p.qty,
        reduceOnly: true,
      });
      return;
    }
    case 'cancel': {
      const open = c.openOrders(o.user);
      if (open.length > 0) m.run((x) => x.cancel(o.user, open[o.pick % open.length]!.id));
      return;
    }
    case 'mark':
      m.run((x) => x.mark(at(mark, o.bps) > 0n ? at(mark, o.bps) : 1n));
      return;
    case 'fund':
      m.run((x) => x.fund(BigInt(o.rate), mark));
      return;
    case 'margin':
      m.run((x) =>
        o.add ? x.addMargin(o.user, U(String(o.amount))) : x.removeMargin(o.user, U(String(o.amount))),
      );
      return;
    case 'leverage':
      m.run((x) => x.setLeverage(o.user, o.leverage));
      return;
  }
}

/** What a user deposits: nothing, a little, enough for a few lots, plenty. */
const deposit = fc.constantFrom('0', '150', '2500', '40000', '200000');
const insurance = fc.constantFrom('0', '1', '300', '5000');

function checkRisk(m: Market): void {
  for (const p of m.clearing.positions())
    expect(p.margin, `margin of ${p.userId}`).toBeGreaterThanOrEqual(0n);
  expect(m.clearing.figures.insurance, 'the fund').toBeGreaterThanOrEqual(0n);
}

describe('perpetual clearing under random commands', () => {
  it(
    'keeps the invariants after every command, free mode, and rebuilds to the same state from its snapshot',
    () => {
      fc.assert(
        fc.property(
          fc.array(deposit, { minLength: USERS.length, maxLength: USERS.length }),
          insurance,
          fc.array(op, { minLength: 20, maxLength: 120 }),
          (deposits, fund, ops) => {
            const m = new Market();
            for (const [i, u] of USERS.entries()) m.deposit(u, U(deposits[i]!));
            m.fundInsurance(U(fund));
            m.ok((x) => x.mark(P('60000.0')));
            for (const o of ops) {
              apply(m, o);
              checkRisk(m);
            }
            const snapshot = m.clearing.snapshot();
            const rebuilt = new Clearing(btc(), snapshot);
            expect(rebuilt.snapshot()).toEqual(snapshot);
            expect(rebuilt.depth(50)).toEqual(m.clearing.depth(50));
          },
        ),
        { numRuns: RUNS },
      );
      // why: the default count fits the default time limit; a larger count asked for gets time in proportion.
    },
    RUNS > 60 ? RUNS * 250 : undefined,
  );
});
