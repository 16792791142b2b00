import { describe, expect, it } from 'vitest';
import {
  type BookImplementation,
  type BookSnapshot,
  type EngineEvent,
  EventRecorder,
  FAST_BOOK,
  getResultCodeName,
  getResultStage,
  hashSnapshot,
  NAIVE_BOOK,
  type PlaceCommand,
  ResultCode,
} from '../src/index.ts';
import { Harness, kinds, makeSpec, ofKind } from './harness.ts';

const IMPLEMENTATIONS: BookImplementation[] = [NAIVE_BOOK, FAST_BOOK];

describe.each(IMPLEMENTATIONS)('$name book: order book contract', (implementation) => {
  const create = (overrides = {}) => Harness.create(implementation, makeSpec(overrides));

  describe('limit orders', () => {
    it('rests a GTC limit that does not cross and publishes the level', () => {
      const h = create();
      const { code, events } = h.limit(1, 10, 'buy', 100, 5);
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(events).toEqual([
        { kind: 'accepted', seq: 1, orderId: 1, userId: 10, side: 'buy', price: 100, qty: 5, quoteAmount: 0 },
        { kind: 'book-delta', seq: 1, side: 'buy', price: 100, qty: 5 },
      ]);
      expect(h.book.getBestBid()).toBe(100);
      expect(h.book.getBestAsk()).toBe(0);
      expect(h.book.getOrder(1)).toEqual({
        status: 'resting',
        orderId: 1,
        userId: 10,
        side: 'buy',
        price: 100,
        qty: 5,
        filledQty: 0,
        filledQuote: 0,
      });
      expect(h.book.getRestingCount()).toBe(1);
    });

    it('matches FIFO within a level', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      h.limit(2, 11, 'sell', 100, 2);
      h.limit(3, 12, 'sell', 100, 2);
      const { events } = h.limit(4, 20, 'buy', 100, 3);
      expect(ofKind(events, 'trade').map((t) => [t.makerOrderId, t.qty])).toEqual([
        [1, 2],
        [2, 1],
      ]);
      expect(h.book.getOrder(2)).toMatchObject({ qty: 1, filledQty: 1, filledQuote: 100 });
      expect(h.book.getDepth(5).asks).toEqual([[100, 3]]);
    });

    it('gives price priority over time priority', () => {
      const h = create();
      h.limit(1, 10, 'sell', 102, 1);
      h.limit(2, 11, 'sell', 101, 1);
      h.limit(3, 12, 'sell', 103, 1);
      const { events } = h.market(4, 20, 'buy', 3);
      expect(ofKind(events, 'trade').map((t) => t.price)).toEqual([101, 102, 103]);
    });

    it('emits trade, maker done and one delta per level, in order', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      h.limit(2, 11, 'sell', 100, 3);
      const { events } = h.limit(3, 20, 'buy', 100, 4);
      expect(kinds(events)).toEqual(['accepted', 'trade', 'done', 'trade', 'book-delta', 'done']);
      expect(events[1]).toEqual({
        kind: 'trade',
        seq: 3,
        makerOrderId: 1,
        makerUserId: 10,
        takerOrderId: 3,
        takerUserId: 20,
        price: 100,
        qty: 2,
        makerSide: 'sell',
      });
      expect(events[2]).toEqual({
        kind: 'done',
        seq: 3,
        orderId: 1,
        userId: 10,
        filledQty: 2,
        filledQuote: 200,
        unspentQuote: 0,
      });
      expect(events[4]).toEqual({ kind: 'book-delta', seq: 3, side: 'sell', price: 100, qty: 1 });
      expect(events[5]).toMatchObject({ kind: 'done', orderId: 3, filledQty: 4, filledQuote: 400 });
    });

    it('walks several levels at the makers’ prices and rests the remainder at its limit', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 1);
      h.limit(2, 10, 'sell', 101, 2);
      h.limit(3, 10, 'sell', 102, 3);
      h.limit(4, 10, 'sell', 105, 3);
      const { events } = h.limit(5, 20, 'buy', 103, 10);
      expect(ofKind(events, 'trade').map((t) => [t.price, t.qty])).toEqual([
        [100, 1],
        [101, 2],
        [102, 3],
      ]);
      expect(ofKind(events, 'book-delta')).toEqual([
        { kind: 'book-delta', seq: 5, side: 'sell', price: 100, qty: 0 },
        { kind: 'book-delta', seq: 5, side: 'sell', price: 101, qty: 0 },
        { kind: 'book-delta', seq: 5, side: 'sell', price: 102, qty: 0 },
        { kind: 'book-delta', seq: 5, side: 'buy', price: 103, qty: 4 },
      ]);
      expect(h.book.getOrder(5)).toMatchObject({ status: 'resting', qty: 4, filledQty: 6, filledQuote: 608 });
      expect(h.book.getBestBid()).toBe(103);
      expect(h.book.getBestAsk()).toBe(105);
    });

    it('sell taker walks bids downwards', () => {
      const h = create();
      h.limit(1, 10, 'buy', 99, 1);
      h.limit(2, 10, 'buy', 98, 1);
      h.limit(3, 10, 'buy', 97, 1);
      const { events } = h.limit(4, 20, 'sell', 98, 5);
      expect(ofKind(events, 'trade').map((t) => [t.price, t.makerSide])).toEqual([
        [99, 'buy'],
        [98, 'buy'],
      ]);
      expect(h.book.getBestAsk()).toBe(98);
      expect(h.book.getBestBid()).toBe(97);
    });

    it('IOC fills what it can and cancels the rest', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      h.limit(2, 10, 'sell', 103, 2);
      const { code, events } = h.limit(3, 20, 'buy', 101, 5, 'ioc');
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(kinds(events)).toEqual(['accepted', 'trade', 'done', 'book-delta', 'cancelled', 'done']);
      expect(ofKind(events, 'cancelled')[0]).toMatchObject({ orderId: 3, qty: 3, reason: 'unfilled' });
      expect(ofKind(events, 'done')[1]).toMatchObject({ orderId: 3, filledQty: 2, filledQuote: 200 });
      expect(h.book.getOrder(3)).toBeUndefined();
      expect(h.book.getBestBid()).toBe(0);
    });

    it('FOK kills the whole order when it cannot fill completely within its limit', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      h.limit(2, 10, 'sell', 102, 5);
      const before = h.book.getStateHash();
      const { code, events } = h.limit(3, 20, 'buy', 101, 3, 'fok');
      expect(code).toBe(ResultCode.REJECT_FOK_NOT_FILLED);
      expect(getResultStage(code)).toBe('matching');
      expect(kinds(events)).toEqual(['accepted', 'cancelled', 'done']);
      expect(ofKind(events, 'cancelled')[0]).toMatchObject({ qty: 3, reason: 'fok' });
      expect(ofKind(events, 'done')[0]).toMatchObject({ filledQty: 0, filledQuote: 0 });
      expect(h.book.takeSnapshot().asks).toEqual(h.book.takeSnapshot().asks);
      expect(h.book.getDepth(5).asks).toEqual([
        [100, 2],
        [102, 5],
      ]);
      expect(h.book.getStateHash()).not.toBe(before); // only lastSeq moved
      expect(h.book.getLastSeq()).toBe(3);
    });

    it('FOK fills completely across levels when it can', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      h.limit(2, 10, 'sell', 101, 2);
      const { code, events } = h.limit(3, 20, 'buy', 101, 4, 'fok');
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(ofKind(events, 'trade').reduce((sum, t) => sum + t.qty, 0)).toBe(4);
      expect(ofKind(events, 'done').at(-1)).toMatchObject({ orderId: 3, filledQty: 4, filledQuote: 402 });
      expect(h.book.getBestAsk()).toBe(0);
    });

    it('post-only rests when it does not cross and is cancelled when it would', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      const resting = h.limit(2, 20, 'buy', 99, 1, 'post-only');
      expect(resting.code).toBe(ResultCode.ACCEPTED);
      expect(h.book.getBestBid()).toBe(99);
      const crossing = h.limit(3, 20, 'buy', 100, 1, 'post-only');
      expect(crossing.code).toBe(ResultCode.REJECT_POST_ONLY);
      expect(getResultCodeName(crossing.code)).toBe('REJECT_POST_ONLY');
      expect(kinds(crossing.events)).toEqual(['accepted', 'cancelled', 'done']);
      expect(ofKind(crossing.events, 'cancelled')[0]).toMatchObject({ qty: 1, reason: 'post-only' });
      expect(h.book.getDepth(5)).toEqual({ bids: [[99, 1]], asks: [[100, 2]] });
    });

    it('never leaves the book crossed', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 1);
      h.limit(2, 10, 'sell', 101, 1);
      h.limit(3, 20, 'buy', 105, 5);
      expect(h.book.getBestAsk()).toBe(0);
      expect(h.book.getBestBid()).toBe(105);
      h.limit(4, 30, 'sell', 90, 1);
      expect(h.book.getBestBid()).toBe(105);
      expect(h.book.getOrder(3)).toMatchObject({ qty: 2 });
    });
  });

  describe('market orders', () => {
    it('market sell by quantity walks the bids and cancels what liquidity cannot fill', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 2);
      h.limit(2, 10, 'buy', 99, 2);
      const { code, events } = h.market(3, 20, 'sell', 5);
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(events[0]).toMatchObject({ kind: 'accepted', price: 0, qty: 5, quoteAmount: 0 });
      expect(ofKind(events, 'trade').map((t) => [t.price, t.qty])).toEqual([
        [100, 2],
        [99, 2],
      ]);
      expect(ofKind(events, 'cancelled')).toEqual([
        { kind: 'cancelled', seq: 3, orderId: 3, userId: 20, qty: 1, reason: 'unfilled' },
      ]);
      expect(events.at(-1)).toMatchObject({ kind: 'done', filledQty: 4, filledQuote: 398 });
    });

    it('market buy by quantity stops when filled', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 2);
      h.limit(2, 10, 'sell', 101, 2);
      const { events } = h.market(3, 20, 'buy', 3);
      expect(ofKind(events, 'cancelled')).toEqual([]);
      expect(h.book.getDepth(5).asks).toEqual([[101, 1]]);
      expect(h.book.getLastPrice()).toBe(101);
    });

    it('market order into an empty book is accepted and cancelled as unfilled', () => {
      const h = create();
      const { code, events } = h.market(1, 20, 'buy', 3);
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(kinds(events)).toEqual(['accepted', 'cancelled', 'done']);
    });

    it('market buy by quote amount buys whole lots level by level and reports what it did not spend', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      h.limit(2, 10, 'sell', 101, 10);
      // 5 × 100 + 3 × 101 = 803; 50 left cannot buy a lot at 101.
      const { code, events } = h.marketBuyAmount(3, 20, 853);
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(events[0]).toMatchObject({ kind: 'accepted', price: 0, qty: 0, quoteAmount: 853 });
      expect(ofKind(events, 'trade').map((t) => [t.price, t.qty])).toEqual([
        [100, 5],
        [101, 3],
      ]);
      expect(ofKind(events, 'cancelled')).toEqual([
        { kind: 'cancelled', seq: 3, orderId: 3, userId: 20, qty: 0, reason: 'unfilled' },
      ]);
      expect(events.at(-1)).toEqual({
        kind: 'done',
        seq: 3,
        orderId: 3,
        userId: 20,
        filledQty: 8,
        filledQuote: 803,
        unspentQuote: 50,
      });
      expect(h.book.getOrder(2)).toMatchObject({ qty: 7 });
    });

    it('market buy by quote amount rounds down to whole lots inside one order', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      const { events } = h.marketBuyAmount(2, 20, 250);
      expect(ofKind(events, 'trade').map((t) => t.qty)).toEqual([2]);
      expect(events.at(-1)).toMatchObject({ kind: 'done', filledQty: 2, filledQuote: 200, unspentQuote: 50 });
      expect(h.book.getOrder(1)).toMatchObject({ qty: 3 });
    });

    it('market buy by quote amount that spends exactly has no cancel', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      const { events } = h.marketBuyAmount(2, 20, 300);
      expect(kinds(events)).toEqual(['accepted', 'trade', 'book-delta', 'done']);
      expect(events.at(-1)).toMatchObject({ unspentQuote: 0, filledQuote: 300 });
    });

    it('market buy by quote amount smaller than one lot trades nothing', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      const { events } = h.marketBuyAmount(2, 20, 99);
      expect(kinds(events)).toEqual(['accepted', 'cancelled', 'done']);
      expect(events.at(-1)).toMatchObject({ filledQty: 0, unspentQuote: 99 });
    });
  });

  describe('validation and state rejections', () => {
    const bad: Array<[string, Partial<PlaceCommand>, ResultCode]> = [
      ['order id 0', { orderId: 0 }, ResultCode.REJECT_INVALID_ID],
      ['fractional user id', { userId: 1.5 }, ResultCode.REJECT_INVALID_ID],
      ['unknown side', { side: 'hold' as never }, ResultCode.REJECT_INVALID_SIDE],
      ['unknown order type', { orderType: 'iceberg' as never }, ResultCode.REJECT_INVALID_ORDER_TYPE],
      ['unknown time in force', { tif: 'gtd' as never }, ResultCode.REJECT_INVALID_TIME_IN_FORCE],
      ['fractional price', { price: 100.5 }, ResultCode.REJECT_INVALID_PRICE],
      ['missing price', { price: undefined }, ResultCode.REJECT_INVALID_PRICE],
      ['price above band', { price: 1_000_001 }, ResultCode.REJECT_PRICE_OUT_OF_BAND],
      ['zero qty', { qty: 0 }, ResultCode.REJECT_INVALID_QTY],
      ['qty above max', { qty: 1_000_001 }, ResultCode.REJECT_INVALID_QTY],
      ['unsafe qty', { qty: 2 ** 60 }, ResultCode.REJECT_INVALID_QTY],
      ['limit with quote amount', { quoteAmount: 10 }, ResultCode.REJECT_INVALID_QUOTE_AMOUNT],
      ['trigger without direction', { triggerPrice: 90 }, ResultCode.REJECT_INVALID_TRIGGER],
      [
        'bad direction',
        { triggerPrice: 90, triggerDirection: 'sideways' as never },
        ResultCode.REJECT_INVALID_TRIGGER,
      ],
      ['market with price', { orderType: 'market', price: 100 }, ResultCode.REJECT_INVALID_PRICE],
      [
        'market post-only',
        { orderType: 'market', price: 0, tif: 'post-only' },
        ResultCode.REJECT_INVALID_TIME_IN_FORCE,
      ],
      [
        'market sell by amount',
        { orderType: 'market', side: 'sell', price: 0, qty: 0, quoteAmount: 100 },
        ResultCode.REJECT_INVALID_QUOTE_AMOUNT,
      ],
      [
        'market buy by qty and amount',
        { orderType: 'market', price: 0, qty: 1, quoteAmount: 100 },
        ResultCode.REJECT_INVALID_QUOTE_AMOUNT,
      ],
    ];
    it.each(bad)('rejects %s without events or state change', (_name, patch, expected) => {
      const h = create();
      h.limit(1, 10, 'sell', 200, 1);
      const before = h.book.getStateHash();
      const { code, events } = h.run({
        type: 'place',
        orderId: 2,
        userId: 20,
        side: 'buy',
        orderType: 'limit',
        price: 100,
        qty: 1,
        ...patch,
      } as PlaceCommand);
      expect(code).toBe(expected);
      expect(getResultStage(code)).toBe('validation');
      expect(events).toEqual([]);
      expect(h.book.getStateHash()).toBe(before);
    });

    it('rejects an unknown command type', () => {
      const h = create();
      const recorder = new EventRecorder();
      expect(h.book.apply({ type: 'amend', seq: 1 } as never, recorder)).toBe(
        ResultCode.REJECT_INVALID_COMMAND,
      );
    });

    it('rejects stale or repeated sequence numbers', () => {
      const h = create();
      const recorder = new EventRecorder();
      const place = (seq: number, orderId: number) =>
        h.book.place(
          { type: 'place', seq, orderId, userId: 1, side: 'buy', orderType: 'limit', price: 100, qty: 1 },
          recorder,
        );
      expect(place(5, 1)).toBe(ResultCode.ACCEPTED);
      expect(place(5, 2)).toBe(ResultCode.REJECT_STALE_SEQUENCE);
      expect(place(4, 3)).toBe(ResultCode.REJECT_STALE_SEQUENCE);
      expect(place(5.5, 4)).toBe(ResultCode.REJECT_STALE_SEQUENCE);
      expect(place(9, 5)).toBe(ResultCode.ACCEPTED);
      expect(h.book.getLastSeq()).toBe(9);
    });

    it('rejects a duplicate live order id, resting or waiting, but allows reuse after done', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 1);
      expect(h.limit(1, 10, 'buy', 99, 1).code).toBe(ResultCode.REJECT_DUPLICATE_ORDER_ID);
      h.stop(2, 10, 'sell', 'down', 90, { qty: 1 });
      expect(h.limit(2, 10, 'buy', 99, 1).code).toBe(ResultCode.REJECT_DUPLICATE_ORDER_ID);
      h.cancel(1, 10);
      expect(h.limit(1, 10, 'buy', 99, 1).code).toBe(ResultCode.ACCEPTED);
    });
  });

  describe('cancel and reduce', () => {
    it('cancels a resting order: cancelled, done, then the level', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 3);
      h.limit(2, 11, 'buy', 100, 2);
      h.limit(3, 12, 'sell', 100, 1);
      const { code, events } = h.cancel(1, 10);
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(events).toEqual([
        { kind: 'cancelled', seq: 4, orderId: 1, userId: 10, qty: 2, reason: 'user' },
        { kind: 'done', seq: 4, orderId: 1, userId: 10, filledQty: 1, filledQuote: 100, unspentQuote: 0 },
        { kind: 'book-delta', seq: 4, side: 'buy', price: 100, qty: 2 },
      ]);
      expect(h.book.getOrder(1)).toBeUndefined();
    });

    it('moves the best price when the best level is cancelled', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 1);
      h.limit(2, 10, 'buy', 95, 1);
      h.limit(3, 10, 'sell', 110, 1);
      h.limit(4, 10, 'sell', 120, 1);
      h.cancel(1, 10);
      h.cancel(3, 10);
      expect(h.book.getBestBid()).toBe(95);
      expect(h.book.getBestAsk()).toBe(120);
      h.cancel(2, 10);
      h.cancel(4, 10);
      expect(h.book.getBestBid()).toBe(0);
      expect(h.book.getBestAsk()).toBe(0);
    });

    it('rejects cancels of unknown, finished and foreign orders', () => {
      const h = create();
      expect(h.cancel(99, 10).code).toBe(ResultCode.REJECT_UNKNOWN_ORDER);
      h.limit(1, 10, 'sell', 100, 1);
      h.market(2, 20, 'buy', 1);
      expect(h.cancel(1, 10).code).toBe(ResultCode.REJECT_UNKNOWN_ORDER);
      h.limit(3, 10, 'sell', 100, 1);
      expect(h.cancel(3, 11).code).toBe(ResultCode.REJECT_NOT_OWNER);
      expect(h.cancel(3, 10).code).toBe(ResultCode.ACCEPTED);
      const again = h.cancel(3, 10);
      expect(again.code).toBe(ResultCode.REJECT_UNKNOWN_ORDER);
      expect(getResultStage(again.code)).toBe('state');
      expect(again.events).toEqual([]);
    });

    it('reduces a resting order keeping its time priority', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      h.limit(2, 11, 'sell', 100, 5);
      const { events } = h.reduce(1, 10, 3);
      expect(events).toEqual([
        { kind: 'cancelled', seq: 3, orderId: 1, userId: 10, qty: 3, reason: 'reduce' },
        { kind: 'book-delta', seq: 3, side: 'sell', price: 100, qty: 7 },
      ]);
      const taken = h.market(3, 20, 'buy', 2);
      expect(ofKind(taken.events, 'trade').map((t) => t.makerOrderId)).toEqual([1]);
    });

    it('reducing by at least the remainder removes the order', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      const { events } = h.reduce(1, 10, 9);
      expect(events).toEqual([
        { kind: 'cancelled', seq: 2, orderId: 1, userId: 10, qty: 5, reason: 'reduce' },
        { kind: 'done', seq: 2, orderId: 1, userId: 10, filledQty: 0, filledQuote: 0, unspentQuote: 0 },
        { kind: 'book-delta', seq: 2, side: 'sell', price: 100, qty: 0 },
      ]);
      expect(h.book.getBestAsk()).toBe(0);
      expect(h.reduce(1, 10, 1).code).toBe(ResultCode.REJECT_UNKNOWN_ORDER);
    });

    it('rejects invalid reductions', () => {
      const h = create();
      h.limit(1, 10, 'sell', 100, 5);
      expect(h.reduce(1, 10, 0).code).toBe(ResultCode.REJECT_INVALID_QTY);
      expect(h.reduce(1, 11, 1).code).toBe(ResultCode.REJECT_NOT_OWNER);
      h.stop(2, 10, 'buy', 'up', 150, { quoteAmount: 1000 });
      expect(h.reduce(2, 10, 1).code).toBe(ResultCode.REJECT_NOT_REDUCIBLE);
    });
  });

  describe('trigger orders', () => {
    it('holds a stop-market sell until a trade reaches its trigger price, then executes it', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 5);
      h.limit(2, 10, 'buy', 95, 5);
      const placed = h.stop(3, 30, 'sell', 'down', 96, { qty: 4 });
      expect(placed.code).toBe(ResultCode.ACCEPTED);
      expect(kinds(placed.events)).toEqual(['accepted']);
      expect(h.book.getOrder(3)).toMatchObject({ status: 'waiting', triggerPrice: 96, qty: 4, tif: 'ioc' });
      h.market(4, 20, 'sell', 1); // trades at 100: nothing fires
      expect(h.book.getOrder(3)?.status).toBe('waiting');
      const { events } = h.market(5, 20, 'sell', 5); // 4 @ 100, 1 @ 95 → last price 95
      const fired = events.findIndex((e) => e.kind === 'triggered');
      expect(events[fired]).toEqual({
        kind: 'triggered',
        seq: 5,
        orderId: 3,
        userId: 30,
        triggerPrice: 96,
        price: 95,
      });
      const after = events.slice(fired + 1);
      expect(ofKind(after, 'trade')).toEqual([
        expect.objectContaining({ takerOrderId: 3, makerOrderId: 2, price: 95, qty: 4 }),
      ]);
      expect(after.at(-1)).toMatchObject({ kind: 'done', orderId: 3, filledQty: 4 });
      expect(h.book.getOrder(3)).toBeUndefined();
    });

    it('fires a stop-limit buy on a price update and rests its remainder', () => {
      const h = create();
      h.limit(1, 10, 'sell', 105, 2);
      h.stop(2, 30, 'buy', 'up', 104, { price: 106, qty: 5 });
      expect(h.price(103).events).toEqual([]);
      const { events } = h.price(104);
      expect(kinds(events)).toEqual(['triggered', 'trade', 'done', 'book-delta', 'book-delta']);
      expect(h.book.getOrder(2)).toMatchObject({ status: 'resting', price: 106, qty: 3, filledQty: 2 });
      expect(h.book.getLastPrice()).toBe(105);
    });

    it('rejects a trigger that would fire at once', () => {
      const h = create();
      h.price(100);
      expect(h.stop(1, 10, 'buy', 'up', 100, { qty: 1 }).code).toBe(ResultCode.REJECT_TRIGGER_WOULD_FIRE);
      expect(h.stop(2, 10, 'sell', 'down', 101, { qty: 1 }).code).toBe(ResultCode.REJECT_TRIGGER_WOULD_FIRE);
      expect(h.stop(3, 10, 'buy', 'up', 101, { qty: 1 }).code).toBe(ResultCode.ACCEPTED);
    });

    it('releases in deterministic order: up by ascending trigger price, ties by arrival, then down', () => {
      const h = create();
      h.price(100);
      h.stop(1, 10, 'buy', 'up', 103, { qty: 1 });
      h.stop(2, 10, 'buy', 'up', 101, { qty: 1 });
      h.stop(3, 10, 'buy', 'up', 103, { qty: 1 });
      h.stop(4, 10, 'buy', 'up', 102, { qty: 1 });
      h.stop(5, 10, 'sell', 'down', 98, { qty: 1 });
      h.stop(6, 10, 'sell', 'down', 99, { qty: 1 });
      expect(h.book.takeSnapshot().triggers.map((t) => t.orderId)).toEqual([2, 4, 1, 3, 6, 5]);
      const up = h.price(110);
      expect(ofKind(up.events, 'triggered').map((t) => t.orderId)).toEqual([2, 4, 1, 3]);
      const down = h.price(90);
      expect(ofKind(down.events, 'triggered').map((t) => t.orderId)).toEqual([6, 5]);
    });

    it('cascades: a triggered order’s trades can fire further triggers', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 1);
      h.limit(2, 10, 'buy', 98, 1);
      h.limit(3, 10, 'buy', 96, 1);
      h.stop(4, 30, 'sell', 'down', 100, { qty: 1 });
      h.stop(5, 31, 'sell', 'down', 98, { qty: 1 });
      const { events } = h.market(6, 20, 'sell', 1);
      expect(ofKind(events, 'trade').map((t) => [t.takerOrderId, t.price])).toEqual([
        [6, 100],
        [4, 98],
        [5, 96],
      ]);
      expect(h.book.getLastPrice()).toBe(96);
    });

    it('with an external trigger source only price updates fire triggers', () => {
      const h = create({ triggerSource: 'external' });
      h.limit(1, 10, 'buy', 100, 5);
      h.price(101);
      h.stop(2, 30, 'sell', 'down', 100, { qty: 1 });
      const trade = h.market(3, 20, 'sell', 1);
      expect(ofKind(trade.events, 'triggered')).toEqual([]);
      expect(h.book.getLastPrice()).toBe(101);
      expect(ofKind(h.price(100).events, 'triggered')).toHaveLength(1);
    });

    it('cancels and reduces waiting orders', () => {
      const h = create();
      h.stop(1, 10, 'buy', 'up', 150, { quoteAmount: 1000 });
      h.stop(2, 10, 'sell', 'down', 50, { price: 49, qty: 5, tif: 'ioc' });
      expect(h.reduce(2, 10, 2).events).toEqual([
        { kind: 'cancelled', seq: 3, orderId: 2, userId: 10, qty: 2, reason: 'reduce' },
      ]);
      expect(h.book.getOrder(2)).toMatchObject({ status: 'waiting', qty: 3, tif: 'ioc' });
      expect(h.cancel(1, 10).events).toEqual([
        { kind: 'cancelled', seq: 4, orderId: 1, userId: 10, qty: 0, reason: 'user' },
        { kind: 'done', seq: 4, orderId: 1, userId: 10, filledQty: 0, filledQuote: 0, unspentQuote: 1000 },
      ]);
      expect(h.reduce(2, 10, 3).events.map((e) => e.kind)).toEqual(['cancelled', 'done']);
      expect(h.book.takeSnapshot().triggers).toEqual([]);
    });

    it('a triggered post-only that would cross is cancelled by its own rule', () => {
      const h = create();
      h.limit(1, 10, 'sell', 105, 1);
      h.stop(2, 30, 'buy', 'up', 104, { price: 105, qty: 1, tif: 'post-only' });
      const { code, events } = h.price(104);
      expect(code).toBe(ResultCode.ACCEPTED);
      expect(kinds(events)).toEqual(['triggered', 'cancelled', 'done']);
      expect(ofKind(events, 'cancelled')[0].reason).toBe('post-only');
    });
  });

  describe('self-trade prevention', () => {
    const setup = (mode: 'none' | 'cancel-newest' | 'cancel-oldest' | 'cancel-both') => {
      const h = create({ selfTradePrevention: mode });
      h.limit(1, 10, 'sell', 100, 1); // other user
      h.limit(2, 20, 'sell', 100, 2); // the taker's own
      h.limit(3, 11, 'sell', 100, 3); // other user
      return h;
    };

    it('cancel-newest cancels the taker’s remainder when it meets its own order', () => {
      const h = setup('cancel-newest');
      const { events } = h.limit(4, 20, 'buy', 100, 5);
      expect(ofKind(events, 'trade').map((t) => t.makerOrderId)).toEqual([1]);
      expect(ofKind(events, 'cancelled')).toEqual([
        { kind: 'cancelled', seq: 4, orderId: 4, userId: 20, qty: 4, reason: 'self-trade' },
      ]);
      expect(h.book.getOrder(2)).toMatchObject({ qty: 2 });
      expect(h.book.getOrder(4)).toBeUndefined();
      expect(h.book.getBestBid()).toBe(0);
    });

    it('cancel-oldest cancels the resting order and keeps matching', () => {
      const h = setup('cancel-oldest');
      const { events } = h.limit(4, 20, 'buy', 100, 5);
      expect(kinds(events)).toEqual([
        'accepted',
        'trade',
        'done',
        'cancelled',
        'done',
        'trade',
        'done',
        'book-delta',
        'book-delta',
      ]);
      expect(ofKind(events, 'cancelled')[0]).toMatchObject({ orderId: 2, qty: 2, reason: 'self-trade' });
      expect(h.book.getOrder(4)).toMatchObject({ status: 'resting', qty: 1, filledQty: 4 });
    });

    it('cancel-both cancels both orders', () => {
      const h = setup('cancel-both');
      const { events } = h.limit(4, 20, 'buy', 100, 5);
      expect(ofKind(events, 'cancelled').map((c) => [c.orderId, c.qty, c.reason])).toEqual([
        [2, 2, 'self-trade'],
        [4, 4, 'self-trade'],
      ]);
      expect(h.book.getDepth(5).asks).toEqual([[100, 3]]);
    });

    it('none lets a user trade with themself', () => {
      const h = setup('none');
      const { events } = h.limit(4, 20, 'buy', 100, 5);
      expect(ofKind(events, 'trade').map((t) => t.makerOrderId)).toEqual([1, 2, 3]);
    });

    it('FOK counts only liquidity reachable before the user’s own order', () => {
      const h = setup('cancel-newest');
      const killed = h.limit(4, 20, 'buy', 100, 2, 'fok');
      expect(killed.code).toBe(ResultCode.REJECT_FOK_NOT_FILLED);
      expect(ofKind(killed.events, 'trade')).toEqual([]);
      const oldest = setup('cancel-oldest');
      expect(oldest.limit(4, 20, 'buy', 100, 4, 'fok').code).toBe(ResultCode.ACCEPTED);
      expect(oldest.book.getRestingCount()).toBe(0);
    });

    it('applies to a market buy by quote amount', () => {
      const h = setup('cancel-newest');
      const { events } = h.marketBuyAmount(4, 20, 1000);
      expect(ofKind(events, 'cancelled')).toEqual([
        { kind: 'cancelled', seq: 4, orderId: 4, userId: 20, qty: 0, reason: 'self-trade' },
      ]);
      expect(events.at(-1)).toMatchObject({
        kind: 'done',
        filledQty: 1,
        filledQuote: 100,
        unspentQuote: 900,
      });
    });
  });

  describe('snapshot, restore and state hash', () => {
    const build = (h: Harness) => {
      h.limit(1, 10, 'buy', 100, 3);
      h.limit(2, 11, 'buy', 100, 2);
      h.limit(3, 12, 'buy', 97, 4);
      h.limit(4, 13, 'sell', 103, 5);
      h.limit(5, 14, 'sell', 101, 1);
      h.market(6, 15, 'sell', 1);
      h.stop(7, 16, 'sell', 'down', 96, { qty: 2 });
      h.stop(8, 17, 'buy', 'up', 104, { price: 104, qty: 2, tif: 'gtc' });
      h.stop(9, 18, 'buy', 'up', 150, { quoteAmount: 5000 });
    };
    const continuation = (h: Harness): EngineEvent[] => [
      ...h.market(20, 30, 'buy', 6).events,
      ...h.market(21, 30, 'sell', 7).events,
      ...h.limit(22, 31, 'sell', 99, 4).events,
      ...h.cancel(2, 11).events,
      ...h.price(150).events,
    ];

    it.each(IMPLEMENTATIONS)('round-trips into the $name book with the same hash and behaviour', (target) => {
      const original = create();
      build(original);
      const snapshot = original.book.takeSnapshot();
      expect(snapshot.bids.map((o) => o.orderId)).toEqual([1, 2, 3]);
      expect(snapshot.bids[0]).toMatchObject({ qty: 2, filledQty: 1, filledQuote: 100 });
      expect(snapshot.asks.map((o) => o.orderId)).toEqual([5, 4]);
      expect(snapshot.triggers.map((o) => o.orderId)).toEqual([8, 9, 7]);
      const wire = JSON.parse(JSON.stringify(snapshot)) as BookSnapshot;
      const restored = new Harness(target.restore(wire));
      expect(restored.book.getStateHash()).toBe(original.book.getStateHash());
      expect(hashSnapshot(restored.book.takeSnapshot())).toBe(hashSnapshot(snapshot));
      expect(restored.book.takeSnapshot()).toEqual(snapshot);
      expect(continuation(restored)).toEqual(continuation(original));
      expect(restored.book.getStateHash()).toBe(original.book.getStateHash());
    });

    it('replaying the same commands gives the same events and hash; different states hash differently', () => {
      const a = create();
      const b = create();
      build(a);
      build(b);
      expect(continuation(a)).toEqual(continuation(b));
      expect(a.book.getStateHash()).toBe(b.book.getStateHash());
      expect(a.book.getStateHash()).toMatch(/^[0-9a-f]{16}$/);
      b.limit(40, 1, 'buy', 50, 1);
      expect(a.book.getStateHash()).not.toBe(b.book.getStateHash());
    });

    it('snapshot is independent of later changes', () => {
      const h = create();
      h.limit(1, 10, 'buy', 100, 3);
      const snapshot = h.book.takeSnapshot();
      h.market(2, 11, 'sell', 1);
      expect(snapshot.bids[0].qty).toBe(3);
    });
  });

  describe('price range', () => {
    it('handles orders far apart in the band and moving prices', () => {
      const h = create();
      h.limit(1, 10, 'buy', 1, 1);
      h.limit(2, 10, 'sell', 1_000_000, 1);
      h.limit(3, 10, 'buy', 500_000, 1);
      h.limit(4, 10, 'sell', 500_010, 1);
      for (let i = 0; i < 50; i++) h.limit(100 + i, 11, i % 2 ? 'buy' : 'sell', 499_000 + i * 40, 1);
      expect(h.book.getBestBid()).toBeLessThan(h.book.getBestAsk());
      const sweep = h.market(200, 12, 'sell', 1_000);
      expect(ofKind(sweep.events, 'trade').at(-1)?.price).toBe(1);
      expect(h.book.getBestBid()).toBe(0);
      const lift = h.market(201, 12, 'buy', 1_000);
      expect(ofKind(lift.events, 'trade').at(-1)?.price).toBe(1_000_000);
      expect(h.book.getRestingCount()).toBe(0);
      h.limit(300, 10, 'buy', 900_000, 1);
      expect(h.book.getDepth(3)).toEqual({ bids: [[900_000, 1]], asks: [] });
    });

    it('rejects prices outside the spec band', () => {
      const h = create({ minPrice: 1_000, maxPrice: 2_000 });
      expect(h.limit(1, 10, 'buy', 999, 1).code).toBe(ResultCode.REJECT_PRICE_OUT_OF_BAND);
      expect(h.limit(2, 10, 'buy', 2_001, 1).code).toBe(ResultCode.REJECT_PRICE_OUT_OF_BAND);
      expect(h.limit(3, 10, 'buy', 2_000, 1).code).toBe(ResultCode.ACCEPTED);
    });

    it('refuses unusable market specs', () => {
      expect(() => implementation.create(makeSpec({ tickSize: 0 }))).toThrow(/tickSize/);
      expect(() => implementation.create(makeSpec({ maxPrice: 2 ** 53, maxQty: 1 }))).toThrow(/maxPrice/);
      expect(() => implementation.create(makeSpec({ maxQty: 2 ** 53 }))).toThrow(/maxQty/);
    });
  });
});
