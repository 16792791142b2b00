import { describe, expect, it } from 'vitest';
import {
  type BookImplementation,
  type Command,
  type EngineEvent,
  EventRecorder,
  FAST_BOOK,
  type MarketSpec,
  NAIVE_BOOK,
  type OrderBook,
  ResultCode,
} from '../src/index.ts';
import { FAST_BOOK_SMALL_WINDOW, Harness, makeSpec, ofKind } from './harness.ts';

const MAX_PRICE = Number.MAX_SAFE_INTEGER;
/** What 10^18 atoms (the largest amount) are in 0.00001 BTC lots; a limit's notional bounds it further. */
const MAX_QTY = 10 ** 13;

const IMPLEMENTATIONS: BookImplementation[] = [NAIVE_BOOK, FAST_BOOK, FAST_BOOK_SMALL_WINDOW];

/**
 * BTCUSDT as the server configures it: 0.01 USDT ticks, 0.00001 BTC lots, every price a USDT amount
 * can express (below 10^18 atoms: 999,999,999,999 ticks).
 */
const BTC_USDT = makeSpec({
  tickSize: 1_000_000,
  lotSize: 1_000,
  maxPrice: 999_999_999_999,
  maxQty: MAX_QTY,
});
/** A quote with an 10^-8 tick (one atom) and whole-unit lots. */
const ATOM_TICK = makeSpec({
  symbol: 'PEPE/BTC',
  tickSize: 1,
  lotSize: 100_000_000,
  maxPrice: MAX_PRICE,
  maxQty: MAX_QTY,
});

describe.each(IMPLEMENTATIONS)('$name book: prices above 2^24 ticks', (implementation) => {
  it('accepts a market spec whose band is the whole price range', () => {
    expect(() => implementation.create(BTC_USDT)).not.toThrow();
  });

  it('trades BTCUSDT at 2,000,000.00 (200,000,000 ticks of 0.01)', () => {
    const h = Harness.create(implementation, BTC_USDT);
    expect(h.limit(1, 10, 'sell', 200_000_000, 3).code).toBe(ResultCode.ACCEPTED);
    expect(h.limit(2, 10, 'sell', 200_000_100, 4).code).toBe(ResultCode.ACCEPTED);
    const buy = h.limit(3, 11, 'buy', 200_000_000, 2);
    expect(buy.code).toBe(ResultCode.ACCEPTED);
    expect(ofKind(buy.events, 'trade')).toEqual([
      expect.objectContaining({ makerOrderId: 1, takerOrderId: 3, price: 200_000_000, qty: 2 }),
    ]);
    expect(ofKind(buy.events, 'done')).toEqual([
      expect.objectContaining({ orderId: 3, filledQty: 2, filledQuote: 400_000_000 }),
    ]);
    expect(h.book.getDepth(5)).toEqual({
      bids: [],
      asks: [
        [200_000_000, 1],
        [200_000_100, 4],
      ],
    });
    expect(h.book.getBestAsk()).toBe(200_000_000);
  });

  it('trades a 10^-8-tick market at 0.5 (50,000,000 ticks)', () => {
    const h = Harness.create(implementation, ATOM_TICK);
    expect(h.limit(1, 10, 'buy', 50_000_000, 7).code).toBe(ResultCode.ACCEPTED);
    const sell = h.limit(2, 11, 'sell', 49_999_999, 5);
    expect(ofKind(sell.events, 'trade')).toEqual([
      expect.objectContaining({ makerOrderId: 1, takerOrderId: 2, price: 50_000_000, qty: 5 }),
    ]);
    expect(h.book.getDepth(5)).toEqual({ bids: [[50_000_000, 2]], asks: [] });
    expect(h.book.getLastPrice()).toBe(50_000_000);
  });

  it('takes any quantity up to maxQty while price × qty stays a safe integer', () => {
    const h = Harness.create(implementation, BTC_USDT);
    const limit = Math.floor(Number.MAX_SAFE_INTEGER / 200_000_000);
    expect(h.limit(1, 10, 'sell', 200_000_000, limit + 1).code).toBe(ResultCode.REJECT_INVALID_QTY);
    expect(h.limit(2, 10, 'sell', 200_000_000, limit).code).toBe(ResultCode.ACCEPTED);
    expect(h.limit(3, 10, 'buy', 1, MAX_QTY).code).toBe(ResultCode.ACCEPTED);
    expect(h.limit(4, 10, 'buy', 2, MAX_QTY).code).toBe(ResultCode.ACCEPTED);
    expect(h.limit(5, 10, 'buy', 1, MAX_QTY + 1).code).toBe(ResultCode.REJECT_INVALID_QTY);
    const buy = h.limit(6, 11, 'buy', 200_000_000, limit);
    expect(ofKind(buy.events, 'done')).toEqual([
      expect.objectContaining({ orderId: 2, filledQty: limit, filledQuote: limit * 200_000_000 }),
      expect.objectContaining({ orderId: 6, filledQty: limit, filledQuote: limit * 200_000_000 }),
    ]);
    expect(Number.isSafeInteger(limit * 200_000_000)).toBe(true);
  });

  it('trades at the top of the range', () => {
    const h = Harness.create(implementation, makeSpec({ ...BTC_USDT, maxPrice: MAX_PRICE }));
    h.limit(1, 10, 'sell', MAX_PRICE, 1);
    h.limit(2, 10, 'buy', 1, 1);
    const lift = h.market(3, 11, 'buy', 5);
    expect(ofKind(lift.events, 'trade').map((t) => t.price)).toEqual([MAX_PRICE]);
    const hit = h.market(4, 11, 'sell', 5);
    expect(ofKind(hit.events, 'trade').map((t) => t.price)).toEqual([1]);
    expect(h.book.getRestingCount()).toBe(0);
  });
});

/** Runs commands through a book, collecting each command's code and events. */
function drive(
  book: OrderBook,
  commands: readonly Command[],
): { codes: ResultCode[]; events: EngineEvent[][] } {
  const recorder = new EventRecorder();
  const codes: ResultCode[] = [];
  const events: EngineEvent[][] = [];
  for (const command of commands) {
    codes.push(book.apply(command, recorder));
    events.push(recorder.take());
  }
  return { codes, events };
}

/** A command before it gets its sequence number. */
type Step = Command extends infer C ? (C extends Command ? Omit<C, 'seq'> : never) : never;

/**
 * A book with levels on both sides of the fast ladder's window edge (2^20 levels by default, 1,024
 * in the small variant): resting far below and far above, cancels and reduces of far orders, sweeps
 * that walk from the window into far levels in both directions, and a market that moves past them.
 */
function edgeScript(spec: MarketSpec): Command[] {
  const edge = 2 ** 20;
  const mid = 150_000_000;
  const steps: Step[] = [];
  const place = (orderId: number, side: 'buy' | 'sell', price: number, qty: number, userId = 10) =>
    steps.push({ type: 'place', orderId, userId, side, orderType: 'limit', price, qty });
  // Near the market, inside any window.
  for (let i = 0; i < 20; i++) {
    place(100 + i, 'buy', mid - 1 - i * 3, 2);
    place(200 + i, 'sell', mid + 1 + i * 3, 2);
  }
  // Just inside and just beyond both edges of a window centred near the market, for both window sizes.
  for (const distance of [500, 520, 600, 1_100, edge / 2 - 1, edge / 2 + 1, edge + 5, 3 * edge]) {
    place(1_000 + distance, 'buy', mid - distance, 1);
    place(2_000_000_000 + distance, 'sell', mid + distance, 1);
  }
  place(3, 'buy', 1, 4);
  place(4, 'sell', spec.maxPrice, 4);
  steps.push({ type: 'cancel', orderId: 1_000 + edge + 5, userId: 10 });
  steps.push({ type: 'reduce', orderId: 2_000_000_000 + 3 * edge, userId: 10, qty: 1 });
  steps.push({ type: 'reduce', orderId: 1_000 + 1_100, userId: 10, qty: 5 });
  // Rest beyond the edge on the "wrong" side: a bid above everything, then lift it.
  place(5, 'sell', mid + 2 * edge, 3);
  place(6, 'buy', mid - 3 * edge - 7, 2);
  // Sweep the asks from the window out through the far levels, then the bids the same way.
  steps.push({ type: 'place', orderId: 7, userId: 11, side: 'buy', orderType: 'market', qty: 60 });
  steps.push({
    type: 'place',
    orderId: 8,
    userId: 11,
    side: 'sell',
    orderType: 'limit',
    price: mid - edge,
    qty: 45,
  });
  // The market has moved: trade far away from where the window started.
  place(9, 'buy', 2_000_000_000, 5);
  place(10, 'sell', 2_000_000_000, 2, 12);
  place(11, 'sell', 10, 1, 12);
  steps.push({
    type: 'place',
    orderId: 12,
    userId: 13,
    side: 'buy',
    orderType: 'market',
    quoteAmount: 5_000_000_000,
  });
  steps.push({ type: 'place', orderId: 13, userId: 13, side: 'sell', orderType: 'market', qty: 100 });
  place(14, 'buy', 100, 1);
  place(15, 'sell', 100 + 3 * edge, 1);
  place(16, 'buy', 101 + 3 * edge, 2, 14);
  return steps.map((step, i) => ({ ...step, seq: i + 1 }) as Command);
}

describe('a book that spans the fast ladder window edge', () => {
  for (const implementation of [FAST_BOOK, FAST_BOOK_SMALL_WINDOW]) {
    it(`${implementation.name} gives the naive book's codes, events, depth, snapshot and hash`, () => {
      const commands = edgeScript(BTC_USDT);
      const naive = NAIVE_BOOK.create(BTC_USDT);
      const fast = implementation.create(BTC_USDT);
      const expected = drive(naive, commands);
      const actual = drive(fast, commands);
      expect(expected.codes.every((code) => code === ResultCode.ACCEPTED)).toBe(true);
      expect(actual.codes).toEqual(expected.codes);
      expect(actual.events).toEqual(expected.events);
      expect(fast.getDepth(1_000)).toEqual(naive.getDepth(1_000));
      expect(fast.getBestBid()).toBe(naive.getBestBid());
      expect(fast.getBestAsk()).toBe(naive.getBestAsk());
      expect(fast.takeSnapshot()).toEqual(naive.takeSnapshot());
      expect(fast.getStateHash()).toBe(naive.getStateHash());
    });

    it(`${implementation.name} restores a wide book at every step and continues identically`, () => {
      const commands = edgeScript(BTC_USDT);
      const reference = drive(NAIVE_BOOK.create(BTC_USDT), commands).events;
      for (let split = 0; split <= commands.length; split += 7) {
        const first = NAIVE_BOOK.create(BTC_USDT);
        drive(first, commands.slice(0, split));
        const restored = implementation.restore(JSON.parse(JSON.stringify(first.takeSnapshot())));
        expect(restored.getStateHash()).toBe(first.getStateHash());
        expect(drive(restored, commands.slice(split)).events).toEqual(reference.slice(split));
      }
    });
  }
});
