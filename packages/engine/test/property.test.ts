import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertyTimeout } from '../../shared/test/property-runs.ts';
import {
  type Command,
  type EngineEvent,
  EventRecorder,
  FAST_BOOK,
  MAX_PRICE,
  type MarketSpec,
  NAIVE_BOOK,
  type OrderBook,
  type PlaceCommand,
  type ResultCode,
  type SelfTradePrevention,
} from '../src/index.ts';
import { FAST_BOOK_SMALL_WINDOW, makeSpec } from './harness.ts';

/** A command before `toCommands` gives it a sequence number and resolves its order id. */
type Step = Command extends infer C ? (C extends Command ? Omit<C, 'seq'> : never) : never;

const side = fc.constantFrom<'buy' | 'sell'>('buy', 'sell');
/** A reference, resolved by `toCommands`: fresh ids for places (sometimes a reused one), recent ids for cancels. */
const orderId = fc.nat(999);
const userId = fc.integer({ min: 1, max: 3 });
const qty = fc.integer({ min: 1, max: 12 });
/** Mostly a narrow band (deep interaction), sometimes anywhere in the band (ladder growth). */
const price = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 95, max: 106 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
);
const tif = fc.constantFrom<PlaceCommand['tif']>(undefined, 'gtc', 'ioc', 'fok', 'post-only');

const limitStep = fc.record({
  type: fc.constant('place' as const),
  orderId,
  userId,
  side,
  orderType: fc.constant('limit' as const),
  price,
  qty,
  tif,
});
const marketStep = fc.record({
  type: fc.constant('place' as const),
  orderId,
  userId,
  side,
  orderType: fc.constant('market' as const),
  qty: fc.integer({ min: 1, max: 30 }),
});
const amountStep = fc.record({
  type: fc.constant('place' as const),
  orderId,
  userId,
  side: fc.constant('buy' as const),
  orderType: fc.constant('market' as const),
  quoteAmount: fc.integer({ min: 1, max: 3_000 }),
});
const triggerStep = fc
  .record({
    orderId,
    userId,
    side,
    triggerPrice: fc.integer({ min: 94, max: 107 }),
    triggerDirection: fc.constantFrom<'up' | 'down'>('up', 'down'),
    kind: fc.constantFrom('limit', 'market', 'amount'),
    price: fc.integer({ min: 94, max: 107 }),
    qty,
    tif,
  })
  .map(({ kind, ...t }): Step => {
    const base = {
      type: 'place' as const,
      orderId: t.orderId,
      userId: t.userId,
      triggerPrice: t.triggerPrice,
      triggerDirection: t.triggerDirection,
    };
    if (kind === 'limit')
      return { ...base, side: t.side, orderType: 'limit', price: t.price, qty: t.qty, tif: t.tif };
    if (kind === 'market') return { ...base, side: t.side, orderType: 'market', qty: t.qty };
    return { ...base, side: 'buy', orderType: 'market', quoteAmount: t.qty * 100 };
  });
const cancelStep = fc.record({ type: fc.constant('cancel' as const), orderId, userId });
const reduceStep = fc.record({
  type: fc.constant('reduce' as const),
  orderId,
  userId,
  qty: fc.integer({ min: 0, max: 8 }),
});
const priceStep = fc.record({
  type: fc.constant('price-update' as const),
  price: fc.integer({ min: 90, max: 110 }),
});
/** Occasionally malformed: exercises validation paths and "rejected changes nothing". */
const junkStep = fc.record({
  type: fc.constant('place' as const),
  orderId: fc.integer({ min: -1, max: 2 }),
  userId,
  side,
  orderType: fc.constantFrom<'limit' | 'market'>('limit', 'market'),
  price: fc.integer({ min: 0, max: 110 }),
  qty: fc.integer({ min: -1, max: 2_000_000 }),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: limitStep },
  { weight: 3, arbitrary: marketStep },
  { weight: 2, arbitrary: amountStep },
  { weight: 2, arbitrary: triggerStep },
  { weight: 5, arbitrary: cancelStep },
  { weight: 2, arbitrary: reduceStep },
  { weight: 2, arbitrary: priceStep },
  { weight: 1, arbitrary: junkStep },
);

const specArb: fc.Arbitrary<MarketSpec> = fc
  .record({
    selfTradePrevention: fc.constantFrom<SelfTradePrevention>(
      'none',
      'cancel-newest',
      'cancel-oldest',
      'cancel-both',
    ),
    triggerSource: fc.constantFrom<'trade' | 'external'>('trade', 'external'),
  })
  .map((overrides) => makeSpec(overrides));

const scenario = fc.record({
  spec: specArb,
  steps: fc.array(step, { minLength: 1, maxLength: 250, size: 'max' }),
  /** Shifts every price by `drift × index` so the price range walks (ladder re-centring). */
  drift: fc.constantFrom(0, 0, 0, 7, -5, 311),
});

function toCommands(steps: Step[], drift: number): Command[] {
  const shift = (value: number | undefined, i: number): number | undefined =>
    value === undefined || value <= 0 ? value : Math.min(1_000_000, Math.max(1, value + drift * i + 20_000));
  const placed: number[] = [];
  const owners = new Map<number, number>();
  const recent = (ref: number): number =>
    placed.length === 0 ? 1 + (ref % 5) : placed[placed.length - 1 - (ref % Math.min(placed.length, 12))];
  return steps.map((s, i) => {
    let command = { ...s, seq: i + 1 } as Command;
    if (command.type === 'place' && command.orderId > 2) {
      // why: mostly fresh ids so cancels and reduces find live orders; 1 in 12 reuses a recent id
      // (a duplicate while it lives, a legal reuse once it is done).
      const id = command.orderId % 12 === 0 ? recent(command.orderId) : 1000 + i;
      placed.push(id);
      owners.set(id, command.userId);
      command = { ...command, orderId: id };
    } else if (command.type === 'cancel' || command.type === 'reduce') {
      const id = recent(command.orderId);
      // why: mostly the owner, so cancels reach live orders; sometimes whoever was drawn (not-owner path).
      const userId = command.orderId % 5 === 0 ? command.userId : (owners.get(id) ?? command.userId);
      command = { ...command, orderId: id, userId };
    }
    if (drift === 0) return command;
    if (command.type === 'place') {
      return { ...command, price: shift(command.price, i), triggerPrice: shift(command.triggerPrice, i) };
    }
    if (command.type === 'price-update') return { ...command, price: shift(command.price, i) ?? 1 };
    return command;
  });
}

/** The whole price range (a limit's price × qty still bounded by the safe integers). */
const wideSpecArb: fc.Arbitrary<MarketSpec> = specArb.map((spec) => ({ ...spec, maxPrice: MAX_PRICE }));

/**
 * Books wider than the fast ladder's window: the same steps, prices spread `scale` ticks apart
 * around 150,000,000 (so the narrow band straddles a 1,024-level window at scale 97 and exceeds it
 * at 1,031; "anywhere" prices land all over the range), drifting by `drift` per command.
 */
const wideScenario = fc.record({
  spec: wideSpecArb,
  steps: fc.array(step, { minLength: 1, maxLength: 250, size: 'max' }),
  drift: fc.constantFrom(0, 0, 7, -5, 311, 40_000),
  scale: fc.constantFrom(1, 97, 1_031, 70_000),
});

function toWideCommands(steps: Step[], drift: number, scale: number): Command[] {
  const spread = (value: number | undefined, i: number): number | undefined =>
    value === undefined || value <= 0
      ? value
      : Math.min(MAX_PRICE, Math.max(1, 150_000_000 + (value - 100) * scale + drift * i));
  return toCommands(steps, 0).map((command, i) => {
    if (command.type === 'place') {
      return {
        ...command,
        price: spread(command.price, i),
        triggerPrice: spread(command.triggerPrice, i),
        // why: amounts scaled to the prices, so buys by amount still buy lots.
        quoteAmount: command.quoteAmount === undefined ? undefined : command.quoteAmount * 1_500_000,
      };
    }
    if (command.type === 'price-update') return { ...command, price: spread(command.price, i) ?? 1 };
    return command;
  });
}

interface Trace {
  codes: ResultCode[];
  events: EngineEvent[][];
}

function run(book: OrderBook, commands: Command[], check?: (book: OrderBook) => void): Trace {
  const recorder = new EventRecorder();
  const trace: Trace = { codes: [], events: [] };
  for (const command of commands) {
    trace.codes.push(book.apply(command, recorder));
    trace.events.push(recorder.take());
    check?.(book);
  }
  return trace;
}

function expectUncrossed(book: OrderBook): void {
  const bid = book.getBestBid();
  const ask = book.getBestAsk();
  if (bid !== 0 && ask !== 0) expect(bid).toBeLessThan(ask);
}

interface Lifecycle {
  placedQty: number;
  quoteAmount: number;
  tradedQty: number;
  tradedQuote: number;
  cancelledQty: number;
  done?: Extract<EngineEvent, { kind: 'done' }>;
}

/**
 * Checks conservation from the event stream and the final book: per order, placed = filled +
 * cancelled + remaining (remaining = resting or waiting qty, 0 once done), done reports the fills,
 * a buy by amount spends + leaves exactly its amount; and the same in total.
 */
function expectConservation(events: EngineEvent[], book: OrderBook): void {
  const live = new Map<number, Lifecycle>();
  const all: Lifecycle[] = [];
  const current = (id: number): Lifecycle => {
    const lifecycle = live.get(id);
    if (lifecycle === undefined) throw new Error(`event for order ${id} without a live lifecycle`);
    return lifecycle;
  };
  for (const event of events) {
    switch (event.kind) {
      case 'accepted': {
        expect(live.has(event.orderId)).toBe(false);
        const lifecycle: Lifecycle = {
          placedQty: event.qty,
          quoteAmount: event.quoteAmount,
          tradedQty: 0,
          tradedQuote: 0,
          cancelledQty: 0,
        };
        live.set(event.orderId, lifecycle);
        all.push(lifecycle);
        break;
      }
      case 'trade':
        for (const id of [event.makerOrderId, event.takerOrderId]) {
          const lifecycle = current(id);
          lifecycle.tradedQty += event.qty;
          lifecycle.tradedQuote += event.qty * event.price;
        }
        break;
      case 'cancelled':
        current(event.orderId).cancelledQty += event.qty;
        break;
      case 'done':
        current(event.orderId).done = event;
        live.delete(event.orderId);
        break;
      default:
        break;
    }
  }
  let placed = 0;
  let accounted = 0;
  for (const lifecycle of all) {
    if (lifecycle.done !== undefined) {
      expect(lifecycle.done.filledQty).toBe(lifecycle.tradedQty);
      expect(lifecycle.done.filledQuote).toBe(lifecycle.tradedQuote);
    }
    if (lifecycle.quoteAmount > 0) {
      if (lifecycle.done !== undefined) {
        expect(lifecycle.done.filledQuote + lifecycle.done.unspentQuote).toBe(lifecycle.quoteAmount);
      }
      continue;
    }
    placed += lifecycle.placedQty;
    accounted += lifecycle.tradedQty + lifecycle.cancelledQty;
  }
  let remaining = 0;
  for (const [id, lifecycle] of live) {
    const order = book.getOrder(id);
    expect(order).toBeDefined();
    if (order === undefined || lifecycle.quoteAmount > 0) continue;
    expect(lifecycle.placedQty).toBe(lifecycle.tradedQty + lifecycle.cancelledQty + order.qty);
    if (order.status === 'resting') expect(order.filledQty).toBe(lifecycle.tradedQty);
    remaining += order.qty;
  }
  for (const lifecycle of all) {
    if (lifecycle.done !== undefined && lifecycle.quoteAmount === 0) {
      expect(lifecycle.placedQty).toBe(lifecycle.tradedQty + lifecycle.cancelledQty);
    }
  }
  expect(placed).toBe(accounted + remaining);
  const snapshot = book.takeSnapshot();
  expect(snapshot.bids.length + snapshot.asks.length + snapshot.triggers.length).toBe(live.size);
}

// why: hundreds of random runs take a few seconds alone and several times that on a loaded
// 2-core machine (the suites run in parallel); a failure here is a wrong answer, never slowness.
const PROPERTY_TIMEOUT_MS = propertyTimeout(60_000);

describe('property: fast book against the naive reference', () => {
  it(
    'random command sequences give identical codes, events, snapshots and hashes',
    () => {
      fc.assert(
        fc.property(scenario, ({ spec, steps, drift }) => {
          const commands = toCommands(steps, drift);
          const naive = NAIVE_BOOK.create(spec);
          const fast = FAST_BOOK.create(spec);
          const expected = run(naive, commands, expectUncrossed);
          const actual = run(fast, commands, expectUncrossed);
          expect(actual.codes).toEqual(expected.codes);
          expect(actual.events).toEqual(expected.events);
          expect(fast.takeSnapshot()).toEqual(naive.takeSnapshot());
          expect(fast.getStateHash()).toBe(naive.getStateHash());
          expect(fast.getDepth(1000)).toEqual(naive.getDepth(1000));
          expect(fast.getRestingCount()).toBe(naive.getRestingCount());
        }),
        { numRuns: propertyRuns(400) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'books wider than the ladder window match the naive book (levels beyond the window, window moves)',
    () => {
      fc.assert(
        fc.property(wideScenario, ({ spec, steps, drift, scale }) => {
          const commands = toWideCommands(steps, drift, scale);
          const naive = NAIVE_BOOK.create(spec);
          const expected = run(naive, commands, expectUncrossed);
          for (const implementation of [FAST_BOOK_SMALL_WINDOW, FAST_BOOK]) {
            const fast = implementation.create(spec);
            const actual = run(fast, commands, expectUncrossed);
            expect(actual.codes).toEqual(expected.codes);
            expect(actual.events).toEqual(expected.events);
            expect(fast.takeSnapshot()).toEqual(naive.takeSnapshot());
            expect(fast.getStateHash()).toBe(naive.getStateHash());
            expect(fast.getDepth(1000)).toEqual(naive.getDepth(1000));
            expect(fast.getBestBid()).toBe(naive.getBestBid());
            expect(fast.getBestAsk()).toBe(naive.getBestAsk());
            expect(fast.getRestingCount()).toBe(naive.getRestingCount());
          }
          expectConservation(expected.events.flat(), naive);
        }),
        { numRuns: propertyRuns(300) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'wide books snapshot and restore at any point into a small-window fast book and continue identically',
    () => {
      fc.assert(
        fc.property(wideScenario, fc.nat(), ({ spec, steps, drift, scale }, cut) => {
          const commands = toWideCommands(steps, drift, scale);
          const split = cut % (commands.length + 1);
          const whole = run(NAIVE_BOOK.create(spec), commands);
          for (const from of [NAIVE_BOOK, FAST_BOOK_SMALL_WINDOW]) {
            const first = from.create(spec);
            run(first, commands.slice(0, split));
            const second = FAST_BOOK_SMALL_WINDOW.restore(JSON.parse(JSON.stringify(first.takeSnapshot())));
            expect(second.getStateHash()).toBe(first.getStateHash());
            expect(run(second, commands.slice(split)).events).toEqual(whole.events.slice(split));
          }
        }),
        { numRuns: propertyRuns(100) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'quantity is conserved per order and in total',
    () => {
      fc.assert(
        fc.property(scenario, ({ spec, steps, drift }) => {
          const commands = toCommands(steps, drift);
          for (const implementation of [NAIVE_BOOK, FAST_BOOK]) {
            const book = implementation.create(spec);
            const trace = run(book, commands);
            expectConservation(trace.events.flat(), book);
          }
        }),
        { numRuns: propertyRuns(200) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'snapshot and restore at any point, into either implementation, continue identically',
    () => {
      fc.assert(
        fc.property(scenario, fc.nat(), ({ spec, steps, drift }, cut) => {
          const commands = toCommands(steps, drift);
          const split = cut % (commands.length + 1);
          const reference = FAST_BOOK.create(spec);
          const whole = run(reference, commands);
          for (const [from, to] of [
            [FAST_BOOK, NAIVE_BOOK],
            [NAIVE_BOOK, FAST_BOOK],
            [FAST_BOOK, FAST_BOOK],
          ]) {
            const first = from.create(spec);
            run(first, commands.slice(0, split));
            const snapshot = JSON.parse(JSON.stringify(first.takeSnapshot()));
            const second = to.restore(snapshot);
            expect(second.getStateHash()).toBe(first.getStateHash());
            const rest = run(second, commands.slice(split));
            expect(rest.events).toEqual(whole.events.slice(split));
            expect(second.getStateHash()).toBe(reference.getStateHash());
          }
        }),
        { numRuns: propertyRuns(150) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'replaying the same commands gives the same events and hash',
    () => {
      fc.assert(
        fc.property(scenario, ({ spec, steps, drift }) => {
          const commands = toCommands(steps, drift);
          const a = FAST_BOOK.create(spec);
          const b = FAST_BOOK.create(spec);
          expect(run(a, commands)).toEqual(run(b, commands));
          expect(a.getStateHash()).toBe(b.getStateHash());
        }),
        { numRuns: propertyRuns(50) },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
