import { hashSnapshot } from './hash.ts';
import {
  type BookImplementation,
  type BookSnapshot,
  type CancelCommand,
  type Command,
  type Depth,
  type EventSink,
  type MarketSpec,
  type OrderBook,
  type OrderView,
  type PlaceCommand,
  type PriceUpdateCommand,
  type ReduceCommand,
  type RestingOrder,
  ResultCode,
  type Side,
  type TriggerOrder,
} from './types.ts';
import {
  isNextSequence,
  validateCancel,
  validateMarketSpec,
  validatePlace,
  validatePriceUpdate,
  validateReduce,
} from './validate.ts';

interface Level {
  price: number;
  orders: RestingOrder[];
}

interface WaitingOrder extends TriggerOrder {
  arrival: number;
}

/** What an order that reaches matching needs (a placed order, or a trigger order when it fires). */
interface Taker {
  orderId: number;
  userId: number;
  side: Side;
  orderType: 'limit' | 'market';
  tif: string;
  price: number;
  qty: number;
  quoteAmount: number;
}

function sumQty(orders: readonly RestingOrder[]): number {
  let total = 0;
  for (const order of orders) total += order.qty;
  return total;
}

function opposite(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}

function toTriggerOrder(order: WaitingOrder): TriggerOrder {
  const { arrival: _arrival, ...rest } = order;
  return rest;
}

/**
 * The reference book: plain arrays of levels and orders, linear searches, totals recomputed by
 * summing. Obviously correct rather than fast; the fast book is tested against it.
 */
export class NaiveBook implements OrderBook {
  readonly spec: MarketSpec;
  /** Highest price first. */
  private bids: Level[] = [];
  /** Lowest price first. */
  private asks: Level[] = [];
  private readonly resting = new Map<number, RestingOrder>();
  /** Waiting trigger orders in arrival order. */
  private waiting: WaitingOrder[] = [];
  private arrivals = 0;
  private lastSeq = 0;
  private lastPrice = 0;

  constructor(spec: MarketSpec) {
    this.spec = { ...validateMarketSpec(spec) };
  }

  apply(command: Command, sink: EventSink): ResultCode {
    switch (command.type) {
      case 'place':
        return this.place(command, sink);
      case 'cancel':
        return this.cancel(command, sink);
      case 'reduce':
        return this.reduce(command, sink);
      case 'price-update':
        return this.updatePrice(command, sink);
      default:
        return ResultCode.REJECT_INVALID_COMMAND;
    }
  }

  place(command: PlaceCommand, sink: EventSink): ResultCode {
    const invalid = validatePlace(this.spec, command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    if (!isNextSequence(command.seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    if (this.resting.has(command.orderId) || this.waiting.some((w) => w.orderId === command.orderId)) {
      return ResultCode.REJECT_DUPLICATE_ORDER_ID;
    }
    const isTrigger = (command.triggerPrice ?? 0) !== 0;
    const triggerPrice = command.triggerPrice ?? 0;
    if (isTrigger && this.lastPrice > 0) {
      const fires =
        command.triggerDirection === 'up' ? triggerPrice <= this.lastPrice : triggerPrice >= this.lastPrice;
      if (fires) return ResultCode.REJECT_TRIGGER_WOULD_FIRE;
    }
    const seq = command.seq;
    this.lastSeq = seq;
    const taker: Taker = {
      orderId: command.orderId,
      userId: command.userId,
      side: command.side,
      orderType: command.orderType,
      tif: command.orderType === 'market' ? 'ioc' : (command.tif ?? 'gtc'),
      price: command.price ?? 0,
      qty: command.qty ?? 0,
      quoteAmount: command.quoteAmount ?? 0,
    };
    sink.onAccepted(seq, taker.orderId, taker.userId, taker.side, taker.price, taker.qty, taker.quoteAmount);
    if (isTrigger) {
      this.waiting.push({
        ...taker,
        tif: taker.tif as TriggerOrder['tif'],
        triggerPrice,
        triggerDirection: command.triggerDirection ?? 'up',
        arrival: this.arrivals++,
      });
      return ResultCode.ACCEPTED;
    }
    const code = this.execute(seq, taker, sink);
    this.fireTriggers(seq, sink);
    return code;
  }

  cancel(command: CancelCommand, sink: EventSink): ResultCode {
    const invalid = validateCancel(command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    if (!isNextSequence(command.seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    const seq = command.seq;
    const order = this.resting.get(command.orderId);
    if (order !== undefined) {
      if (order.userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
      this.lastSeq = seq;
      this.removeResting(order);
      sink.onCancelled(seq, order.orderId, order.userId, order.qty, 'user');
      sink.onDone(seq, order.orderId, order.userId, order.filledQty, order.filledQuote, 0);
      this.emitLevel(seq, order.side, order.price, sink);
      return ResultCode.ACCEPTED;
    }
    const waiting = this.waiting.find((w) => w.orderId === command.orderId);
    if (waiting === undefined) return ResultCode.REJECT_UNKNOWN_ORDER;
    if (waiting.userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
    this.lastSeq = seq;
    this.waiting = this.waiting.filter((w) => w !== waiting);
    sink.onCancelled(seq, waiting.orderId, waiting.userId, waiting.qty, 'user');
    sink.onDone(seq, waiting.orderId, waiting.userId, 0, 0, waiting.quoteAmount);
    return ResultCode.ACCEPTED;
  }

  reduce(command: ReduceCommand, sink: EventSink): ResultCode {
    const invalid = validateReduce(command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    if (!isNextSequence(command.seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    const seq = command.seq;
    const order = this.resting.get(command.orderId);
    if (order !== undefined) {
      if (order.userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
      this.lastSeq = seq;
      const by = Math.min(command.qty, order.qty);
      order.qty -= by;
      sink.onCancelled(seq, order.orderId, order.userId, by, 'reduce');
      if (order.qty === 0) {
        this.removeResting(order);
        sink.onDone(seq, order.orderId, order.userId, order.filledQty, order.filledQuote, 0);
      }
      this.emitLevel(seq, order.side, order.price, sink);
      return ResultCode.ACCEPTED;
    }
    const waiting = this.waiting.find((w) => w.orderId === command.orderId);
    if (waiting === undefined) return ResultCode.REJECT_UNKNOWN_ORDER;
    if (waiting.userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
    if (waiting.qty === 0) return ResultCode.REJECT_NOT_REDUCIBLE;
    this.lastSeq = seq;
    const by = Math.min(command.qty, waiting.qty);
    waiting.qty -= by;
    sink.onCancelled(seq, waiting.orderId, waiting.userId, by, 'reduce');
    if (waiting.qty === 0) {
      this.waiting = this.waiting.filter((w) => w !== waiting);
      sink.onDone(seq, waiting.orderId, waiting.userId, 0, 0, 0);
    }
    return ResultCode.ACCEPTED;
  }

  updatePrice(command: PriceUpdateCommand, sink: EventSink): ResultCode {
    const invalid = validatePriceUpdate(command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    if (!isNextSequence(command.seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    this.lastSeq = command.seq;
    this.lastPrice = command.price;
    this.fireTriggers(command.seq, sink);
    return ResultCode.ACCEPTED;
  }

  getBestBid(): number {
    return this.bids.length > 0 ? this.bids[0].price : 0;
  }

  getBestAsk(): number {
    return this.asks.length > 0 ? this.asks[0].price : 0;
  }

  getLastPrice(): number {
    return this.lastPrice;
  }

  getLastSeq(): number {
    return this.lastSeq;
  }

  getOrder(orderId: number): OrderView | undefined {
    const order = this.resting.get(orderId);
    if (order !== undefined) return { status: 'resting', ...order };
    const waiting = this.waiting.find((w) => w.orderId === orderId);
    if (waiting !== undefined) return { status: 'waiting', ...toTriggerOrder(waiting) };
    return undefined;
  }

  getDepth(maxLevels: number): Depth {
    const toDepth = (levels: Level[]): Array<[number, number]> =>
      levels.slice(0, maxLevels).map((level) => [level.price, sumQty(level.orders)]);
    return { bids: toDepth(this.bids), asks: toDepth(this.asks) };
  }

  getRestingCount(): number {
    return this.resting.size;
  }

  takeSnapshot(): BookSnapshot {
    const flatten = (levels: Level[]): RestingOrder[] =>
      levels.flatMap((level) => level.orders.map((order) => ({ ...order })));
    return {
      version: 1,
      spec: { ...this.spec },
      lastSeq: this.lastSeq,
      lastPrice: this.lastPrice,
      bids: flatten(this.bids),
      asks: flatten(this.asks),
      triggers: this.sortWaitingByRelease().map(toTriggerOrder),
    };
  }

  getStateHash(): string {
    return hashSnapshot(this.takeSnapshot());
  }

  /** Rebuilds a book from a snapshot, keeping every order's priority. */
  static restore(snapshot: BookSnapshot): NaiveBook {
    const book = new NaiveBook(snapshot.spec);
    book.lastSeq = snapshot.lastSeq;
    book.lastPrice = snapshot.lastPrice;
    for (const order of [...snapshot.bids, ...snapshot.asks]) book.addResting({ ...order });
    for (const order of snapshot.triggers) book.waiting.push({ ...order, arrival: book.arrivals++ });
    return book;
  }

  /** Runs an order through the post-only and fill-or-kill checks, matching, and its end. */
  private execute(seq: number, taker: Taker, sink: EventSink): ResultCode {
    const book = taker.side === 'buy' ? this.asks : this.bids;
    const makerSide = opposite(taker.side);
    const crosses = (price: number): boolean =>
      taker.orderType === 'market' || (taker.side === 'buy' ? price <= taker.price : price >= taker.price);

    if (taker.tif === 'post-only' && book.length > 0 && crosses(book[0].price)) {
      sink.onCancelled(seq, taker.orderId, taker.userId, taker.qty, 'post-only');
      sink.onDone(seq, taker.orderId, taker.userId, 0, 0, 0);
      return ResultCode.REJECT_POST_ONLY;
    }
    if (taker.tif === 'fok' && !this.canFill(taker, book, crosses)) {
      sink.onCancelled(seq, taker.orderId, taker.userId, taker.qty, 'fok');
      sink.onDone(seq, taker.orderId, taker.userId, 0, 0, 0);
      return ResultCode.REJECT_FOK_NOT_FILLED;
    }

    const stp = this.spec.selfTradePrevention;
    const byAmount = taker.quoteAmount > 0;
    let remaining = taker.qty;
    let amountLeft = taker.quoteAmount;
    let filledQty = 0;
    let filledQuote = 0;
    let lastTradePrice = 0;
    let stopped = false;

    while (book.length > 0 && crosses(book[0].price)) {
      const level = book[0];
      let changed = false;
      while (level.orders.length > 0) {
        const want = byAmount ? Math.floor(amountLeft / level.price) : remaining;
        if (want === 0) break;
        const maker = level.orders[0];
        if (stp !== 'none' && maker.userId === taker.userId) {
          if (stp === 'cancel-newest') {
            stopped = true;
            break;
          }
          level.orders.shift();
          this.resting.delete(maker.orderId);
          changed = true;
          sink.onCancelled(seq, maker.orderId, maker.userId, maker.qty, 'self-trade');
          sink.onDone(seq, maker.orderId, maker.userId, maker.filledQty, maker.filledQuote, 0);
          if (stp === 'cancel-both') {
            stopped = true;
            break;
          }
          continue;
        }
        const fill = Math.min(want, maker.qty);
        const quote = fill * level.price;
        sink.onTrade(
          seq,
          maker.orderId,
          maker.userId,
          taker.orderId,
          taker.userId,
          level.price,
          fill,
          makerSide,
        );
        changed = true;
        maker.qty -= fill;
        maker.filledQty += fill;
        maker.filledQuote += quote;
        if (byAmount) amountLeft -= quote;
        else remaining -= fill;
        filledQty += fill;
        filledQuote += quote;
        lastTradePrice = level.price;
        if (maker.qty === 0) {
          level.orders.shift();
          this.resting.delete(maker.orderId);
          sink.onDone(seq, maker.orderId, maker.userId, maker.filledQty, maker.filledQuote, 0);
        }
      }
      if (changed) sink.onBookDelta(seq, makerSide, level.price, sumQty(level.orders));
      if (level.orders.length === 0) book.shift();
      else break;
      if (stopped) break;
    }

    if (lastTradePrice !== 0 && this.spec.triggerSource === 'trade') this.lastPrice = lastTradePrice;

    if (byAmount) {
      if (amountLeft > 0) {
        sink.onCancelled(seq, taker.orderId, taker.userId, 0, stopped ? 'self-trade' : 'unfilled');
      }
      sink.onDone(seq, taker.orderId, taker.userId, filledQty, filledQuote, amountLeft);
    } else if (remaining === 0) {
      sink.onDone(seq, taker.orderId, taker.userId, filledQty, filledQuote, 0);
    } else if (stopped || (taker.tif !== 'gtc' && taker.tif !== 'post-only')) {
      sink.onCancelled(seq, taker.orderId, taker.userId, remaining, stopped ? 'self-trade' : 'unfilled');
      sink.onDone(seq, taker.orderId, taker.userId, filledQty, filledQuote, 0);
    } else {
      const order: RestingOrder = {
        orderId: taker.orderId,
        userId: taker.userId,
        side: taker.side,
        price: taker.price,
        qty: remaining,
        filledQty,
        filledQuote,
      };
      this.addResting(order);
      this.emitLevel(seq, order.side, order.price, sink);
    }
    return ResultCode.ACCEPTED;
  }

  /** Whether a fill-or-kill order would fill completely, with self-trade prevention applied. */
  private canFill(taker: Taker, book: Level[], crosses: (price: number) => boolean): boolean {
    const stp = this.spec.selfTradePrevention;
    let need = taker.qty;
    for (const level of book) {
      if (!crosses(level.price)) return false;
      for (const maker of level.orders) {
        if (stp !== 'none' && maker.userId === taker.userId) {
          if (stp === 'cancel-oldest') continue;
          return false;
        }
        need -= maker.qty;
        if (need <= 0) return true;
      }
    }
    return false;
  }

  /**
   * Releases waiting orders while the reference price satisfies one: `up` orders first, lowest
   * trigger price first; then `down` orders, highest first; ties by arrival. Re-checked after each.
   */
  private fireTriggers(seq: number, sink: EventSink): void {
    for (;;) {
      const price = this.lastPrice;
      if (price === 0 || this.waiting.length === 0) return;
      let next: WaitingOrder | undefined;
      for (const w of this.waiting) {
        if (w.triggerDirection !== 'up' || w.triggerPrice > price) continue;
        if (next === undefined || w.triggerPrice < next.triggerPrice) next = w;
      }
      if (next === undefined) {
        for (const w of this.waiting) {
          if (w.triggerDirection !== 'down' || w.triggerPrice < price) continue;
          if (next === undefined || w.triggerPrice > next.triggerPrice) next = w;
        }
      }
      if (next === undefined) return;
      const fired = next;
      this.waiting = this.waiting.filter((w) => w !== fired);
      sink.onTriggered(seq, fired.orderId, fired.userId, fired.triggerPrice, price);
      this.execute(seq, fired, sink);
    }
  }

  private sortWaitingByRelease(): WaitingOrder[] {
    const rank = (w: WaitingOrder): number =>
      w.triggerDirection === 'up' ? w.triggerPrice : -w.triggerPrice;
    return [...this.waiting].sort((a, b) => {
      if (a.triggerDirection !== b.triggerDirection) return a.triggerDirection === 'up' ? -1 : 1;
      return rank(a) - rank(b) || a.arrival - b.arrival;
    });
  }

  private addResting(order: RestingOrder): void {
    const levels = order.side === 'buy' ? this.bids : this.asks;
    const isBetter = (price: number): boolean =>
      order.side === 'buy' ? price > order.price : price < order.price;
    let i = 0;
    while (i < levels.length && isBetter(levels[i].price)) i++;
    if (i < levels.length && levels[i].price === order.price) levels[i].orders.push(order);
    else levels.splice(i, 0, { price: order.price, orders: [order] });
    this.resting.set(order.orderId, order);
  }

  private removeResting(order: RestingOrder): void {
    const levels = order.side === 'buy' ? this.bids : this.asks;
    const i = levels.findIndex((level) => level.price === order.price);
    const level = levels[i];
    level.orders.splice(level.orders.indexOf(order), 1);
    if (level.orders.length === 0) levels.splice(i, 1);
    this.resting.delete(order.orderId);
  }

  private emitLevel(seq: number, side: Side, price: number, sink: EventSink): void {
    const levels = side === 'buy' ? this.bids : this.asks;
    const level = levels.find((l) => l.price === price);
    sink.onBookDelta(seq, side, price, level === undefined ? 0 : sumQty(level.orders));
  }
}

/** The naive reference implementation. */
export const NAIVE_BOOK: BookImplementation = {
  name: 'naive',
  create: (spec) => new NaiveBook(spec),
  restore: (snapshot) => NaiveBook.restore(snapshot),
};

/** Creates an empty naive (reference) book. */
export function createNaiveBook(spec: MarketSpec): OrderBook {
  return new NaiveBook(spec);
}

/** Restores a naive book from a snapshot. */
export function restoreNaiveBook(snapshot: BookSnapshot): OrderBook {
  return NaiveBook.restore(snapshot);
}
