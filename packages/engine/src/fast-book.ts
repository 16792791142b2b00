import { hashSnapshot } from './hash.ts';
import { IdIndex } from './id-index.ts';
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
  type TimeInForce,
  type TriggerOrder,
} from './types.ts';
import {
  isNextSequence,
  validateCancel,
  validateMarketSpec,
  validatePlaceFields,
  validatePriceUpdate,
  validateReduce,
} from './validate.ts';

const NONE = -1;
const BUY = 0;
const SELL = 1;
const SIDE_NAMES: readonly Side[] = ['buy', 'sell'];

const TIF_GTC = 0;
const TIF_IOC = 1;
const TIF_FOK = 2;
const TIF_POST_ONLY = 3;

const STP_NONE = 0;
const STP_CANCEL_NEWEST = 1;
const STP_CANCEL_OLDEST = 2;
const STP_CANCEL_BOTH = 3;

const INITIAL_SLOTS = 1024;

// Order records: 64 bytes per slot in one ArrayBuffer, read through two views.
// Float64 view, index (slot << 3) + field:
const F_ORDER_ID = 0;
const F_USER_ID = 1;
const F_QTY = 2;
const F_FILLED_QTY = 3;
const F_FILLED_QUOTE = 4;
// why: a price is a float64 (any safe integer of ticks), in the record's last 8 bytes.
const F_PRICE = 7;
// Int32 view over bytes 40…55 of the same record, index (slot << 4) + field:
const I_SIDE = 11;
const I_NEXT = 12;
const I_PREV = 13;

/** Smallest ladder; a power of two ≥ 1024 so the two bitmap levels divide it evenly. */
const INITIAL_LEVELS = 4096;
/**
 * Widest ladder (about 17 MB). A book whose levels span more keeps the levels beyond the window in
 * sorted arrays (see `FarLevel`); the window follows the market.
 */
export const MAX_WINDOW_LEVELS = 2 ** 20;

/** A price level outside the ladder's window: rare, so a plain object in a sorted array. */
interface FarLevel {
  price: number;
  head: number;
  tail: number;
  total: number;
}

function encodeTif(tif: TimeInForce | undefined): number {
  if (tif === 'ioc') return TIF_IOC;
  if (tif === 'fok') return TIF_FOK;
  if (tif === 'post-only') return TIF_POST_ONLY;
  return TIF_GTC;
}

function encodeStp(mode: MarketSpec['selfTradePrevention']): number {
  if (mode === 'cancel-newest') return STP_CANCEL_NEWEST;
  if (mode === 'cancel-oldest') return STP_CANCEL_OLDEST;
  if (mode === 'cancel-both') return STP_CANCEL_BOTH;
  return STP_NONE;
}

function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

function countTrailingZeros(bits: number): number {
  return 31 - Math.clz32(bits & -bits);
}

/**
 * The fast book. Orders live in pooled 64-byte records in one typed-array buffer, chained in an
 * intrusive doubly linked FIFO list per price level (O(1) cancel), found by id through an
 * allocation-free open-addressing index; levels live in a tick-indexed ladder (price −
 * base), a window of at most `MAX_WINDOW_LEVELS` that re-centres and doubles when a price falls
 * outside it; a two-level bitmap of non-empty levels finds the next best price with `Math.clz32` in
 * a few word reads. A book wider than the window keeps its outlying levels (bids below it, asks
 * above it) in sorted arrays and moves the window when matching reaches them, so any price up to
 * 2^53 − 1 ticks (a record keeps it as a float64) is accepted at any distance from the rest. Trigger orders, rare by
 * nature, live in two sorted arrays. Limit, market and cancel commands allocate nothing; storage
 * only grows, by doubling.
 */
export class FastBook implements OrderBook {
  readonly spec: MarketSpec;
  private readonly stp: number;
  private readonly tradesMovePrice: boolean;
  private readonly maxLevels: number;

  // Order slots (index = slot).
  private slotCapacity = INITIAL_SLOTS;
  private slotsUsed = 0;
  private freeSlot = NONE;
  // why: one record per order keeps everything matching touches in one cache line, instead of one
  // line in each of nine parallel arrays.
  private records = new Float64Array(INITIAL_SLOTS * 8);
  private links = new Int32Array(this.records.buffer);
  private readonly slotById = new IdIndex();

  // Price ladder (index = price − base): the window of levels near the market.
  private base: number;
  // why: initialised here, not in the constructor, so V8 never sees these fields undefined and keeps
  // their types exact for the hot paths.
  private levelCount = INITIAL_LEVELS;
  private heads = new Int32Array(INITIAL_LEVELS).fill(NONE);
  private tails = new Int32Array(INITIAL_LEVELS).fill(NONE);
  private totals = new Float64Array(INITIAL_LEVELS);
  private words = new Uint32Array(INITIAL_LEVELS >>> 5);
  private summary = new Uint32Array(INITIAL_LEVELS >>> 10);
  /** Best level of each side inside the window, or NONE. */
  private bestBid = NONE;
  private bestAsk = NONE;
  /** Non-empty levels of each side inside the window. */
  private bidLevels = 0;
  private askLevels = 0;
  // why: levels beyond the window, best first. Every far bid is below the window and every far ask
  // above it, so a side's best level is in the window whenever the side has one there, and the
  // matching loop only leaves the window when a side's window part is used up.
  private readonly farBids: FarLevel[] = [];
  private readonly farAsks: FarLevel[] = [];
  /** Levels beyond the window, both sides: 0 on every hot path of a book that fits its window. */
  private farLevels = 0;

  // Trigger book.
  private readonly triggerById = new Map<number, TriggerOrder>();
  /** Ascending trigger price, arrival order within a price. */
  private readonly upTriggers: TriggerOrder[] = [];
  /** Descending trigger price, arrival order within a price. */
  private readonly downTriggers: TriggerOrder[] = [];
  private triggerCount = 0;

  private lastSeq = 0;
  private lastPrice = 0;

  // Taker results of the last `match` (fields rather than an allocated result object).
  private takerRemaining = 0;
  private takerAmount = 0;
  private takerFilledQty = 0;
  private takerFilledQuote = 0;
  private takerStopped = false;
  /** The taker used up its opposite side's window part, and the next level beyond it crosses. */
  private takerAtEdge = false;

  /** @param maxWindow the widest ladder window in levels, a power of two ≥ 1024 (smaller in tests). */
  constructor(spec: MarketSpec, maxWindow = MAX_WINDOW_LEVELS) {
    this.spec = { ...validateMarketSpec(spec) };
    if (maxWindow < 1024 || nextPowerOfTwo(maxWindow) !== maxWindow) {
      throw new Error('maxWindow must be a power of two ≥ 1024');
    }
    this.stp = encodeStp(spec.selfTradePrevention);
    this.tradesMovePrice = spec.triggerSource === 'trade';
    this.maxLevels = Math.min(
      maxWindow,
      Math.max(INITIAL_LEVELS, nextPowerOfTwo(spec.maxPrice - spec.minPrice + 1)),
    );
    this.base = spec.minPrice;
    if (this.maxLevels < INITIAL_LEVELS) this.relayWindow(this.base, this.maxLevels);
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
    // why: every field is read once, here; validation and execution use the locals.
    const seq = command.seq;
    const orderId = command.orderId;
    const userId = command.userId;
    const sideName = command.side;
    const orderType = command.orderType;
    const tifName = command.tif;
    const price = command.price ?? 0;
    const qty = command.qty ?? 0;
    const quoteAmount = command.quoteAmount ?? 0;
    const triggerPrice = command.triggerPrice ?? 0;
    const triggerDirection = command.triggerDirection;
    const invalid = validatePlaceFields(
      this.spec,
      orderId,
      userId,
      sideName,
      orderType,
      tifName,
      price,
      qty,
      quoteAmount,
      triggerPrice,
      triggerDirection,
    );
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    if (!isNextSequence(seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    if (this.slotById.get(orderId) !== NONE || (this.triggerCount > 0 && this.triggerById.has(orderId))) {
      return ResultCode.REJECT_DUPLICATE_ORDER_ID;
    }
    if (triggerPrice !== 0 && this.lastPrice > 0) {
      const fires =
        triggerDirection === 'up' ? triggerPrice <= this.lastPrice : triggerPrice >= this.lastPrice;
      if (fires) return ResultCode.REJECT_TRIGGER_WOULD_FIRE;
    }
    this.lastSeq = seq;
    const isMarket = orderType === 'market';
    sink.onAccepted(seq, orderId, userId, sideName, price, qty, quoteAmount);
    if (triggerPrice !== 0) {
      this.addTrigger({
        orderId,
        userId,
        side: sideName,
        orderType,
        tif: isMarket ? 'ioc' : (tifName ?? 'gtc'),
        price,
        qty,
        quoteAmount,
        triggerPrice,
        triggerDirection: triggerDirection ?? 'up',
      });
      return ResultCode.ACCEPTED;
    }
    const side = sideName === 'buy' ? BUY : SELL;
    const tif = isMarket ? TIF_IOC : encodeTif(tifName);
    const code = this.execute(seq, side, orderId, userId, isMarket, tif, price, qty, quoteAmount, sink);
    if (this.triggerCount > 0) this.fireTriggers(seq, sink);
    return code;
  }

  cancel(command: CancelCommand, sink: EventSink): ResultCode {
    const invalid = validateCancel(command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    const seq = command.seq;
    if (!isNextSequence(seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    const orderId = command.orderId;
    const slot = this.slotById.get(orderId);
    if (slot !== NONE) {
      const userId = this.records[(slot << 3) + F_USER_ID];
      if (userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
      this.lastSeq = seq;
      this.cancelResting(seq, slot, orderId, userId, 'user', sink);
      return ResultCode.ACCEPTED;
    }
    const waiting = this.triggerById.get(orderId);
    if (waiting === undefined) return ResultCode.REJECT_UNKNOWN_ORDER;
    if (waiting.userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
    this.lastSeq = seq;
    this.removeTrigger(waiting);
    sink.onCancelled(seq, waiting.orderId, waiting.userId, waiting.qty, 'user');
    sink.onDone(seq, waiting.orderId, waiting.userId, 0, 0, waiting.quoteAmount);
    return ResultCode.ACCEPTED;
  }

  reduce(command: ReduceCommand, sink: EventSink): ResultCode {
    const invalid = validateReduce(command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    const seq = command.seq;
    if (!isNextSequence(seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    const orderId = command.orderId;
    const slot = this.slotById.get(orderId);
    if (slot !== NONE) {
      const userId = this.records[(slot << 3) + F_USER_ID];
      if (userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
      this.lastSeq = seq;
      const qty = this.records[(slot << 3) + F_QTY];
      if (command.qty >= qty) {
        this.cancelResting(seq, slot, orderId, userId, 'reduce', sink);
      } else {
        this.records[(slot << 3) + F_QTY] = qty - command.qty;
        const side = this.links[(slot << 4) + I_SIDE];
        const price = this.records[(slot << 3) + F_PRICE];
        const index = price - this.base;
        let total: number;
        if (index >= 0 && index < this.levelCount) {
          total = this.totals[index] - command.qty;
          this.totals[index] = total;
        } else {
          const level = this.findFar(side, price);
          total = level.total - command.qty;
          level.total = total;
        }
        sink.onCancelled(seq, orderId, userId, command.qty, 'reduce');
        sink.onBookDelta(seq, SIDE_NAMES[side], price, total);
      }
      return ResultCode.ACCEPTED;
    }
    const waiting = this.triggerById.get(orderId);
    if (waiting === undefined) return ResultCode.REJECT_UNKNOWN_ORDER;
    if (waiting.userId !== command.userId) return ResultCode.REJECT_NOT_OWNER;
    if (waiting.qty === 0) return ResultCode.REJECT_NOT_REDUCIBLE;
    this.lastSeq = seq;
    const by = Math.min(command.qty, waiting.qty);
    waiting.qty -= by;
    sink.onCancelled(seq, orderId, waiting.userId, by, 'reduce');
    if (waiting.qty === 0) {
      this.removeTrigger(waiting);
      sink.onDone(seq, orderId, waiting.userId, 0, 0, 0);
    }
    return ResultCode.ACCEPTED;
  }

  updatePrice(command: PriceUpdateCommand, sink: EventSink): ResultCode {
    const invalid = validatePriceUpdate(command);
    if (invalid !== ResultCode.ACCEPTED) return invalid;
    if (!isNextSequence(command.seq, this.lastSeq)) return ResultCode.REJECT_STALE_SEQUENCE;
    this.lastSeq = command.seq;
    this.lastPrice = command.price;
    if (this.triggerCount > 0) this.fireTriggers(command.seq, sink);
    return ResultCode.ACCEPTED;
  }

  getBestBid(): number {
    if (this.bestBid !== NONE) return this.base + this.bestBid;
    return this.farBids.length === 0 ? 0 : this.farBids[0].price;
  }

  getBestAsk(): number {
    if (this.bestAsk !== NONE) return this.base + this.bestAsk;
    return this.farAsks.length === 0 ? 0 : this.farAsks[0].price;
  }

  getLastPrice(): number {
    return this.lastPrice;
  }

  getLastSeq(): number {
    return this.lastSeq;
  }

  getOrder(orderId: number): OrderView | undefined {
    const slot = this.slotById.get(orderId);
    if (slot !== NONE) return { status: 'resting', ...this.readSlot(slot) };
    const waiting = this.triggerById.get(orderId);
    if (waiting !== undefined) return { status: 'waiting', ...waiting };
    return undefined;
  }

  getDepth(maxLevels: number): Depth {
    const bids: Array<[number, number]> = [];
    const asks: Array<[number, number]> = [];
    for (let i = this.bestBid; i !== NONE && bids.length < maxLevels; i = this.findPrevSet(i - 1)) {
      bids.push([this.base + i, this.totals[i]]);
    }
    for (let i = 0; i < this.farBids.length && bids.length < maxLevels; i++) {
      bids.push([this.farBids[i].price, this.farBids[i].total]);
    }
    for (let i = this.bestAsk; i !== NONE && asks.length < maxLevels; i = this.findNextSet(i + 1)) {
      asks.push([this.base + i, this.totals[i]]);
    }
    for (let i = 0; i < this.farAsks.length && asks.length < maxLevels; i++) {
      asks.push([this.farAsks[i].price, this.farAsks[i].total]);
    }
    return { bids, asks };
  }

  getRestingCount(): number {
    return this.slotById.size;
  }

  takeSnapshot(): BookSnapshot {
    const bids: RestingOrder[] = [];
    const asks: RestingOrder[] = [];
    for (let i = this.bestBid; i !== NONE; i = this.findPrevSet(i - 1)) {
      for (let slot = this.heads[i]; slot !== NONE; slot = this.links[(slot << 4) + I_NEXT])
        bids.push(this.readSlot(slot));
    }
    for (const level of this.farBids) {
      for (let slot = level.head; slot !== NONE; slot = this.links[(slot << 4) + I_NEXT])
        bids.push(this.readSlot(slot));
    }
    for (let i = this.bestAsk; i !== NONE; i = this.findNextSet(i + 1)) {
      for (let slot = this.heads[i]; slot !== NONE; slot = this.links[(slot << 4) + I_NEXT])
        asks.push(this.readSlot(slot));
    }
    for (const level of this.farAsks) {
      for (let slot = level.head; slot !== NONE; slot = this.links[(slot << 4) + I_NEXT])
        asks.push(this.readSlot(slot));
    }
    return {
      version: 1,
      spec: { ...this.spec },
      lastSeq: this.lastSeq,
      lastPrice: this.lastPrice,
      bids,
      asks,
      triggers: [...this.upTriggers, ...this.downTriggers].map((order) => ({ ...order })),
    };
  }

  getStateHash(): string {
    return hashSnapshot(this.takeSnapshot());
  }

  /** Rebuilds a book from a snapshot, keeping every order's priority. */
  static restore(snapshot: BookSnapshot, maxWindow = MAX_WINDOW_LEVELS): FastBook {
    const book = new FastBook(snapshot.spec, maxWindow);
    book.lastSeq = snapshot.lastSeq;
    book.lastPrice = snapshot.lastPrice;
    for (const order of [...snapshot.bids, ...snapshot.asks]) {
      const side = order.side === 'buy' ? BUY : SELL;
      book.rest(
        side,
        order.orderId,
        order.userId,
        order.price,
        order.qty,
        order.filledQty,
        order.filledQuote,
      );
    }
    for (const order of snapshot.triggers) book.addTrigger({ ...order });
    return book;
  }

  /** Runs an order through the post-only and fill-or-kill checks, matching, and its end. */
  private execute(
    seq: number,
    side: number,
    orderId: number,
    userId: number,
    isMarket: boolean,
    tif: number,
    price: number,
    qty: number,
    quoteAmount: number,
    sink: EventSink,
  ): ResultCode {
    const isBuy = side === BUY;
    const best = isBuy ? this.bestAsk : this.bestBid;
    // why: with none of that side in the window, the levels beyond it may still cross.
    const crosses =
      best !== NONE
        ? isMarket || (isBuy ? this.base + best <= price : this.base + best >= price)
        : this.farLevels !== 0 && this.crossesBeyondWindow(isBuy, isMarket ? 0 : price);
    if (tif === TIF_POST_ONLY && crosses) {
      sink.onCancelled(seq, orderId, userId, qty, 'post-only');
      sink.onDone(seq, orderId, userId, 0, 0, 0);
      return ResultCode.REJECT_POST_ONLY;
    }
    if (tif === TIF_FOK && !(crosses && this.canFill(isBuy, userId, price, qty))) {
      sink.onCancelled(seq, orderId, userId, qty, 'fok');
      sink.onDone(seq, orderId, userId, 0, 0, 0);
      return ResultCode.REJECT_FOK_NOT_FILLED;
    }

    if (crosses) {
      this.takerRemaining = qty;
      this.takerAmount = quoteAmount;
      const limit = isMarket ? (isBuy ? Number.MAX_SAFE_INTEGER : 0) : price;
      if (best !== NONE) this.match(seq, isBuy, orderId, userId, limit, sink);
      if (best === NONE || this.takerAtEdge)
        this.matchBeyondWindow(seq, isBuy, orderId, userId, limit, sink, best === NONE);
    } else {
      // why: most passive limits do not cross; skipping the matching loop's set-up pays for this branch.
      this.takerRemaining = qty;
      this.takerAmount = quoteAmount;
      this.takerFilledQty = 0;
      this.takerFilledQuote = 0;
      this.takerStopped = false;
    }
    const remaining = this.takerRemaining;
    const filledQty = this.takerFilledQty;
    const filledQuote = this.takerFilledQuote;
    const stopped = this.takerStopped;

    if (quoteAmount > 0) {
      const unspent = this.takerAmount;
      if (unspent > 0) sink.onCancelled(seq, orderId, userId, 0, stopped ? 'self-trade' : 'unfilled');
      sink.onDone(seq, orderId, userId, filledQty, filledQuote, unspent);
    } else if (remaining === 0) {
      sink.onDone(seq, orderId, userId, filledQty, filledQuote, 0);
    } else if (stopped || (tif !== TIF_GTC && tif !== TIF_POST_ONLY)) {
      sink.onCancelled(seq, orderId, userId, remaining, stopped ? 'self-trade' : 'unfilled');
      sink.onDone(seq, orderId, userId, filledQty, filledQuote, 0);
    } else {
      const total = this.rest(side, orderId, userId, price, remaining, filledQty, filledQuote);
      sink.onBookDelta(seq, SIDE_NAMES[side], price, total);
    }
    return ResultCode.ACCEPTED;
  }

  /**
   * Matches a taker against the opposite side up to `limit`, best price first, FIFO per level.
   * Reads `takerRemaining` / `takerAmount` (quote amount > 0 means a buy by amount) and leaves the
   * results in the taker fields.
   */
  private match(
    seq: number,
    isBuy: boolean,
    takerId: number,
    takerUser: number,
    limit: number,
    sink: EventSink,
  ): void {
    const makerSide: Side = isBuy ? 'sell' : 'buy';
    const base = this.base;
    const heads = this.heads;
    const tails = this.tails;
    const totals = this.totals;
    const records = this.records;
    const links = this.links;
    const stp = this.stp;
    const slotById = this.slotById;
    let amount = this.takerAmount;
    const byAmount = amount > 0;
    let remaining = this.takerRemaining;
    let filledQty = 0;
    let filledQuote = 0;
    let lastTradePrice = 0;
    let stopped = false;
    let index = isBuy ? this.bestAsk : this.bestBid;

    while (index !== NONE) {
      const price = base + index;
      if (isBuy ? price > limit : price < limit) break;
      let slot = heads[index];
      let total = totals[index];
      let changed = false;
      while (slot !== NONE) {
        const want = byAmount ? Math.floor(amount / price) : remaining;
        if (want === 0) break;
        const record = slot << 3;
        const makerId = records[record + F_ORDER_ID];
        const makerUser = records[record + F_USER_ID];
        const makerQty = records[record + F_QTY];
        if (stp !== STP_NONE && makerUser === takerUser) {
          if (stp === STP_CANCEL_NEWEST) {
            stopped = true;
            break;
          }
          const next = links[(slot << 4) + I_NEXT];
          total -= makerQty;
          changed = true;
          slotById.delete(makerId);
          sink.onCancelled(seq, makerId, makerUser, makerQty, 'self-trade');
          sink.onDone(
            seq,
            makerId,
            makerUser,
            records[record + F_FILLED_QTY],
            records[record + F_FILLED_QUOTE],
            0,
          );
          this.releaseSlot(slot);
          slot = next;
          if (stp === STP_CANCEL_BOTH) {
            stopped = true;
            break;
          }
          continue;
        }
        const fill = Math.min(makerQty, want);
        const quote = fill * price;
        sink.onTrade(seq, makerId, makerUser, takerId, takerUser, price, fill, makerSide);
        changed = true;
        total -= fill;
        filledQty += fill;
        filledQuote += quote;
        lastTradePrice = price;
        if (byAmount) amount -= quote;
        else remaining -= fill;
        if (fill === makerQty) {
          const next = links[(slot << 4) + I_NEXT];
          slotById.delete(makerId);
          const makerFilledQty = records[record + F_FILLED_QTY] + fill;
          sink.onDone(seq, makerId, makerUser, makerFilledQty, records[record + F_FILLED_QUOTE] + quote, 0);
          this.releaseSlot(slot);
          slot = next;
        } else {
          records[record + F_QTY] = makerQty - fill;
          records[record + F_FILLED_QTY] += fill;
          records[record + F_FILLED_QUOTE] += quote;
        }
      }
      totals[index] = total;
      if (slot === NONE) {
        heads[index] = NONE;
        tails[index] = NONE;
        this.clearBit(index);
        if (isBuy) this.askLevels--;
        else this.bidLevels--;
      } else {
        heads[index] = slot;
        this.links[(slot << 4) + I_PREV] = NONE;
      }
      if (changed) sink.onBookDelta(seq, makerSide, price, total);
      if (slot !== NONE) break;
      if (isBuy) index = this.askLevels === 0 ? NONE : this.findNextSet(index + 1);
      else index = this.bidLevels === 0 ? NONE : this.findPrevSet(index - 1);
      if (stopped) break;
    }

    if (isBuy) this.bestAsk = index;
    else this.bestBid = index;
    if (lastTradePrice !== 0 && this.tradesMovePrice) this.lastPrice = lastTradePrice;
    this.takerRemaining = remaining;
    this.takerAmount = amount;
    this.takerFilledQty = filledQty;
    this.takerFilledQuote = filledQuote;
    this.takerStopped = stopped;
    if (index === NONE && this.farLevels !== 0 && !stopped)
      this.takerAtEdge = this.crossesBeyondWindow(isBuy, limit);
  }

  /** Whether the best level beyond the window on a taker's opposite side is within its `limit` (0: any). */
  private crossesBeyondWindow(isBuy: boolean, limit: number): boolean {
    const far = isBuy ? this.farAsks : this.farBids;
    if (far.length === 0) return false;
    if (limit === 0) return true;
    return isBuy ? far[0].price <= limit : far[0].price >= limit;
  }

  /**
   * Goes on matching a taker that used up its opposite side's window part while the next level
   * beyond the window crosses: moves the window onto that level and matches again, until done.
   * Rare: the market moved more than the window in one order. Adds up the taker fields.
   */
  private matchBeyondWindow(
    seq: number,
    isBuy: boolean,
    takerId: number,
    takerUser: number,
    limit: number,
    sink: EventSink,
    fromStart: boolean,
  ): void {
    if (fromStart) {
      this.takerFilledQty = 0;
      this.takerFilledQuote = 0;
      this.takerStopped = false;
      this.takerAtEdge = true;
    }
    let filledQty = this.takerFilledQty;
    let filledQuote = this.takerFilledQuote;
    while (this.takerAtEdge) {
      this.takerAtEdge = false;
      if (this.takerRemaining === 0 && this.takerAmount === 0) break;
      this.bringFarBest(isBuy ? SELL : BUY);
      this.match(seq, isBuy, takerId, takerUser, limit, sink);
      filledQty += this.takerFilledQty;
      filledQuote += this.takerFilledQuote;
    }
    this.takerFilledQty = filledQty;
    this.takerFilledQuote = filledQuote;
  }

  /** Whether a fill-or-kill order would fill completely, with self-trade prevention applied. */
  private canFill(isBuy: boolean, userId: number, price: number, qty: number): boolean {
    let need = qty;
    let index = isBuy ? this.bestAsk : this.bestBid;
    while (index !== NONE) {
      const levelPrice = this.base + index;
      if (isBuy ? levelPrice > price : levelPrice < price) return false;
      if (this.stp === STP_NONE) {
        need -= this.totals[index];
        if (need <= 0) return true;
      } else {
        for (let slot = this.heads[index]; slot !== NONE; slot = this.links[(slot << 4) + I_NEXT]) {
          if (this.records[(slot << 3) + F_USER_ID] === userId) {
            if (this.stp === STP_CANCEL_OLDEST) continue;
            return false;
          }
          need -= this.records[(slot << 3) + F_QTY];
          if (need <= 0) return true;
        }
      }
      index = isBuy ? this.findNextSet(index + 1) : this.findPrevSet(index - 1);
    }
    for (const level of isBuy ? this.farAsks : this.farBids) {
      if (isBuy ? level.price > price : level.price < price) return false;
      for (let slot = level.head; slot !== NONE; slot = this.links[(slot << 4) + I_NEXT]) {
        if (this.stp !== STP_NONE && this.records[(slot << 3) + F_USER_ID] === userId) {
          if (this.stp === STP_CANCEL_OLDEST) continue;
          return false;
        }
        need -= this.records[(slot << 3) + F_QTY];
        if (need <= 0) return true;
      }
    }
    return false;
  }

  /** Appends an order at the tail of its level. @returns the level's new total. */
  private rest(
    side: number,
    orderId: number,
    userId: number,
    price: number,
    qty: number,
    filledQty: number,
    filledQuote: number,
  ): number {
    let index = price - this.base;
    if (index < 0 || index >= this.levelCount) index = this.makeRoom(price, side);
    const slot = this.takeSlot();
    const records = this.records;
    const links = this.links;
    const record = slot << 3;
    const link = slot << 4;
    records[record + F_ORDER_ID] = orderId;
    records[record + F_USER_ID] = userId;
    records[record + F_QTY] = qty;
    records[record + F_FILLED_QTY] = filledQty;
    records[record + F_FILLED_QUOTE] = filledQuote;
    records[record + F_PRICE] = price;
    links[link + I_SIDE] = side;
    links[link + I_NEXT] = NONE;
    this.slotById.set(orderId, slot);
    if (index === NONE) return this.linkFar(side, price, slot, qty);
    const tail = this.tails[index];
    if (tail === NONE) {
      this.heads[index] = slot;
      links[link + I_PREV] = NONE;
      this.setBit(index);
      if (side === BUY) {
        this.bidLevels++;
        if (this.bestBid === NONE || index > this.bestBid) this.bestBid = index;
      } else {
        this.askLevels++;
        if (this.bestAsk === NONE || index < this.bestAsk) this.bestAsk = index;
      }
    } else {
      links[(tail << 4) + I_NEXT] = slot;
      links[link + I_PREV] = tail;
    }
    this.tails[index] = slot;
    const total = this.totals[index] + qty;
    this.totals[index] = total;
    return total;
  }

  /** Takes a resting order out of its level (the slot stays readable). @returns the level's new total. */
  /** Takes a resting order out of the book whole: cancelled, done, then the level's new total. */
  private cancelResting(
    seq: number,
    slot: number,
    orderId: number,
    userId: number,
    reason: 'user' | 'reduce',
    sink: EventSink,
  ): void {
    const record = slot << 3;
    const side = this.links[(slot << 4) + I_SIDE];
    const price = this.records[(slot << 3) + F_PRICE];
    const qty = this.records[record + F_QTY];
    const total = this.unlink(slot);
    this.slotById.delete(orderId);
    sink.onCancelled(seq, orderId, userId, qty, reason);
    sink.onDone(
      seq,
      orderId,
      userId,
      this.records[record + F_FILLED_QTY],
      this.records[record + F_FILLED_QUOTE],
      0,
    );
    sink.onBookDelta(seq, SIDE_NAMES[side], price, total);
    this.releaseSlot(slot);
  }

  private unlink(slot: number): number {
    const links = this.links;
    const link = slot << 4;
    const index = this.records[(slot << 3) + F_PRICE] - this.base;
    if (index < 0 || index >= this.levelCount) return this.unlinkFar(slot);
    const prev = links[link + I_PREV];
    const next = links[link + I_NEXT];
    if (prev === NONE) this.heads[index] = next;
    else links[(prev << 4) + I_NEXT] = next;
    if (next === NONE) this.tails[index] = prev;
    else links[(next << 4) + I_PREV] = prev;
    const total = this.totals[index] - this.records[(slot << 3) + F_QTY];
    this.totals[index] = total;
    if (this.heads[index] === NONE) {
      this.clearBit(index);
      if (links[link + I_SIDE] === BUY) {
        this.bidLevels--;
        if (index === this.bestBid) this.bestBid = this.bidLevels === 0 ? NONE : this.findPrevSet(index - 1);
      } else {
        this.askLevels--;
        if (index === this.bestAsk) this.bestAsk = this.askLevels === 0 ? NONE : this.findNextSet(index + 1);
      }
    }
    return total;
  }

  private readSlot(slot: number): RestingOrder {
    const record = slot << 3;
    const link = slot << 4;
    return {
      orderId: this.records[record + F_ORDER_ID],
      userId: this.records[record + F_USER_ID],
      side: SIDE_NAMES[this.links[link + I_SIDE]],
      price: this.records[record + F_PRICE],
      qty: this.records[record + F_QTY],
      filledQty: this.records[record + F_FILLED_QTY],
      filledQuote: this.records[record + F_FILLED_QUOTE],
    };
  }

  private takeSlot(): number {
    const free = this.freeSlot;
    if (free !== NONE) {
      this.freeSlot = this.links[(free << 4) + I_NEXT];
      return free;
    }
    if (this.slotsUsed === this.slotCapacity) this.growSlots();
    return this.slotsUsed++;
  }

  private releaseSlot(slot: number): void {
    this.links[(slot << 4) + I_NEXT] = this.freeSlot;
    this.freeSlot = slot;
  }

  private growSlots(): void {
    const capacity = this.slotCapacity * 2;
    const records = new Float64Array(capacity * 8);
    records.set(this.records);
    this.records = records;
    this.links = new Int32Array(records.buffer);
    this.slotCapacity = capacity;
  }

  /**
   * Makes room for a new level at `price` (of `side`) outside the window. When every level and
   * `price` fit in the widest window, the window covers them all, centred, sizes staying powers of
   * two. Otherwise the window takes its widest size, and a bid below it or an ask above it simply
   * goes beyond it; a bid above it or an ask below it (the market moved) moves the window onto it.
   * @returns the index of `price` in the window, or NONE when the level belongs beyond it.
   */
  private makeRoom(price: number, side: number): number {
    if (this.bidLevels + this.askLevels === 0 && this.farLevels === 0) {
      // why: an empty ladder is all sentinels and zero bits, so moving it is just moving its base.
      this.base = price - (this.levelCount >>> 1);
      return price - this.base;
    }
    const fits = this.moveWindow(price, side, true);
    if (!fits) return NONE;
    return price - this.base;
  }

  /**
   * Moves the window onto the best level beyond it of `side` (whose window part is empty).
   * @returns that level's index in the window.
   */
  private bringFarBest(side: number): number {
    const far = side === BUY ? this.farBids : this.farAsks;
    if (far.length === 0) return NONE;
    const price = far[0].price;
    this.moveWindow(price, side, false);
    return price - this.base;
  }

  /**
   * Re-lays the window so that it holds `price`, keeping every far bid below it and every far ask
   * above it. With `mayLeave`, a bid below or an ask above a window already at its widest is left
   * beyond it instead (nothing moves).
   * @returns whether `price` is inside the window now.
   */
  private moveWindow(price: number, side: number, mayLeave: boolean): boolean {
    const hasDense = this.bidLevels + this.askLevels > 0;
    const lowIndex = hasDense ? this.findNextSet(0) : NONE;
    const highIndex = hasDense ? this.findPrevSet(this.levelCount - 1) : NONE;
    const farBids = this.farBids;
    const farAsks = this.farAsks;
    let low = price;
    let high = price;
    if (hasDense) {
      low = Math.min(low, this.base + lowIndex);
      high = Math.max(high, this.base + highIndex);
    }
    if (farBids.length > 0) {
      low = Math.min(low, farBids[farBids.length - 1].price);
      high = Math.max(high, farBids[0].price);
    }
    if (farAsks.length > 0) {
      low = Math.min(low, farAsks[0].price);
      high = Math.max(high, farAsks[farAsks.length - 1].price);
    }
    const span = high - low + 1;
    if (span <= this.maxLevels) {
      const size = Math.min(this.maxLevels, Math.max(this.levelCount, nextPowerOfTwo(span * 2)));
      this.relayWindow(low - Math.floor((size - span) / 2), size);
      return true;
    }
    const size = this.maxLevels;
    const isBelow = price < this.base;
    if (mayLeave && hasDense && size === this.levelCount && (side === BUY ? isBelow : !isBelow)) return false;
    // why: the window must start at or below the lowest ask and end at or above the highest bid, so
    // that no far level is better than the window's best of its side.
    let highestBid = side === BUY ? price : -Infinity;
    let lowestAsk = side === SELL ? price : Infinity;
    if (this.bestBid !== NONE) highestBid = Math.max(highestBid, this.base + this.bestBid);
    else if (farBids.length > 0) highestBid = Math.max(highestBid, farBids[0].price);
    if (this.bestAsk !== NONE) lowestAsk = Math.min(lowestAsk, this.base + this.bestAsk);
    else if (farAsks.length > 0) lowestAsk = Math.min(lowestAsk, farAsks[0].price);
    const base = Math.min(Math.max(price - size / 2, highestBid - size + 1), lowestAsk);
    this.relayWindow(base, size);
    return price >= base && price < base + size;
  }

  /**
   * Rebuilds the window at `base` with `size` levels: levels inside it go to the ladder, the rest
   * beyond it, sorted best first. Rare (the market moved by half a window), so it allocates.
   */
  private relayWindow(base: number, size: number): void {
    const levels: FarLevel[] = [];
    const sides: number[] = [];
    if (this.bidLevels + this.askLevels > 0) {
      for (let i = this.findNextSet(0); i !== NONE; i = this.findNextSet(i + 1)) {
        const head = this.heads[i];
        levels.push({ price: this.base + i, head, tail: this.tails[i], total: this.totals[i] });
        sides.push(this.links[(head << 4) + I_SIDE]);
      }
    }
    for (const level of this.farBids) {
      levels.push(level);
      sides.push(BUY);
    }
    for (const level of this.farAsks) {
      levels.push(level);
      sides.push(SELL);
    }
    this.farBids.length = 0;
    this.farAsks.length = 0;
    this.base = base;
    if (size === this.levelCount) {
      // why: a window at its widest moves without reallocating 17 MB each time.
      this.heads.fill(NONE);
      this.tails.fill(NONE);
      this.totals.fill(0);
      this.words.fill(0);
      this.summary.fill(0);
    } else {
      this.levelCount = size;
      this.heads = new Int32Array(size).fill(NONE);
      this.tails = new Int32Array(size).fill(NONE);
      this.totals = new Float64Array(size);
      this.words = new Uint32Array(size >>> 5);
      this.summary = new Uint32Array(size >>> 10);
    }
    this.bestBid = NONE;
    this.bestAsk = NONE;
    this.bidLevels = 0;
    this.askLevels = 0;
    for (let k = 0; k < levels.length; k++) {
      const level = levels[k];
      const index = level.price - base;
      if (index < 0 || index >= size) {
        (sides[k] === BUY ? this.farBids : this.farAsks).push(level);
        continue;
      }
      this.heads[index] = level.head;
      this.tails[index] = level.tail;
      this.totals[index] = level.total;
      this.setBit(index);
      if (sides[k] === BUY) {
        this.bidLevels++;
        if (index > this.bestBid) this.bestBid = index;
      } else {
        this.askLevels++;
        if (this.bestAsk === NONE || index < this.bestAsk) this.bestAsk = index;
      }
    }
    this.farBids.sort((a, b) => b.price - a.price);
    this.farAsks.sort((a, b) => a.price - b.price);
    this.farLevels = this.farBids.length + this.farAsks.length;
  }

  /** Position of `price` in a side's far levels (best first): its level's, or where it would go. */
  private farPosition(far: FarLevel[], side: number, price: number): number {
    let low = 0;
    let high = far.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (side === BUY ? far[mid].price > price : far[mid].price < price) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The far level of a resting order's price (it exists while the order rests). */
  private findFar(side: number, price: number): FarLevel {
    const far = side === BUY ? this.farBids : this.farAsks;
    return far[this.farPosition(far, side, price)];
  }

  /** Appends a slot to its far level, creating the level. @returns the level's new total. */
  private linkFar(side: number, price: number, slot: number, qty: number): number {
    const far = side === BUY ? this.farBids : this.farAsks;
    const at = this.farPosition(far, side, price);
    let level = far[at];
    if (level === undefined || level.price !== price) {
      level = { price, head: NONE, tail: NONE, total: 0 };
      far.splice(at, 0, level);
      this.farLevels++;
    }
    const link = slot << 4;
    if (level.tail === NONE) {
      level.head = slot;
      this.links[link + I_PREV] = NONE;
    } else {
      this.links[(level.tail << 4) + I_NEXT] = slot;
      this.links[link + I_PREV] = level.tail;
    }
    level.tail = slot;
    level.total += qty;
    return level.total;
  }

  /** `unlink` for an order on a far level, dropping the level when it empties. */
  private unlinkFar(slot: number): number {
    const links = this.links;
    const link = slot << 4;
    const side = links[link + I_SIDE];
    const far = side === BUY ? this.farBids : this.farAsks;
    const at = this.farPosition(far, side, this.records[(slot << 3) + F_PRICE]);
    const level = far[at];
    const prev = links[link + I_PREV];
    const next = links[link + I_NEXT];
    if (prev === NONE) level.head = next;
    else links[(prev << 4) + I_NEXT] = next;
    if (next === NONE) level.tail = prev;
    else links[(next << 4) + I_PREV] = prev;
    level.total -= this.records[(slot << 3) + F_QTY];
    if (level.head === NONE) {
      far.splice(at, 1);
      this.farLevels--;
    }
    return level.total;
  }

  private setBit(index: number): void {
    const word = index >>> 5;
    const old = this.words[word];
    this.words[word] = old | (1 << (index & 31));
    if (old === 0) this.summary[word >>> 5] |= 1 << (word & 31);
  }

  private clearBit(index: number): void {
    const word = index >>> 5;
    const bits = this.words[word] & ~(1 << (index & 31));
    this.words[word] = bits;
    if (bits === 0) this.summary[word >>> 5] &= ~(1 << (word & 31));
  }

  /** Lowest non-empty level index ≥ `from`, or NONE. */
  private findNextSet(from: number): number {
    if (from >= this.levelCount) return NONE;
    const words = this.words;
    let word = from >>> 5;
    const bits = words[word] & (-1 << (from & 31));
    if (bits !== 0) return (word << 5) + countTrailingZeros(bits);
    word++;
    const summary = this.summary;
    let group = word >>> 5;
    if (group >= summary.length) return NONE;
    let groupBits = summary[group] & (-1 << (word & 31));
    while (groupBits === 0) {
      group++;
      if (group >= summary.length) return NONE;
      groupBits = summary[group];
    }
    word = (group << 5) + countTrailingZeros(groupBits);
    return (word << 5) + countTrailingZeros(words[word]);
  }

  /** Highest non-empty level index ≤ `from`, or NONE. */
  private findPrevSet(from: number): number {
    if (from < 0) return NONE;
    const words = this.words;
    let word = from >>> 5;
    const keep = 31 - (from & 31);
    const bits = (words[word] << keep) >>> keep;
    if (bits !== 0) return (word << 5) + 31 - Math.clz32(bits);
    word--;
    if (word < 0) return NONE;
    const summary = this.summary;
    let group = word >>> 5;
    const keepGroup = 31 - (word & 31);
    let groupBits = (summary[group] << keepGroup) >>> keepGroup;
    while (groupBits === 0) {
      group--;
      if (group < 0) return NONE;
      groupBits = summary[group];
    }
    word = (group << 5) + 31 - Math.clz32(groupBits);
    return (word << 5) + 31 - Math.clz32(words[word]);
  }

  private addTrigger(order: TriggerOrder): void {
    const isUp = order.triggerDirection === 'up';
    const list = isUp ? this.upTriggers : this.downTriggers;
    // why: insert after every order with an equal trigger price so ties release in arrival order.
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const before = isUp
        ? list[mid].triggerPrice <= order.triggerPrice
        : list[mid].triggerPrice >= order.triggerPrice;
      if (before) low = mid + 1;
      else high = mid;
    }
    list.splice(low, 0, order);
    this.triggerById.set(order.orderId, order);
    this.triggerCount++;
  }

  private removeTrigger(order: TriggerOrder): void {
    const list = order.triggerDirection === 'up' ? this.upTriggers : this.downTriggers;
    list.splice(list.indexOf(order), 1);
    this.triggerById.delete(order.orderId);
    this.triggerCount--;
  }

  /**
   * Releases waiting orders while the reference price satisfies one: `up` orders first, lowest
   * trigger price first; then `down` orders, highest first; ties by arrival. Re-checked after each.
   */
  private fireTriggers(seq: number, sink: EventSink): void {
    for (;;) {
      const price = this.lastPrice;
      if (price === 0) return;
      let fired: TriggerOrder | undefined;
      if (this.upTriggers.length > 0 && this.upTriggers[0].triggerPrice <= price) {
        fired = this.upTriggers.shift();
      } else if (this.downTriggers.length > 0 && this.downTriggers[0].triggerPrice >= price) {
        fired = this.downTriggers.shift();
      }
      if (fired === undefined) return;
      this.triggerById.delete(fired.orderId);
      this.triggerCount--;
      sink.onTriggered(seq, fired.orderId, fired.userId, fired.triggerPrice, price);
      const isMarket = fired.orderType === 'market';
      const tif = isMarket ? TIF_IOC : encodeTif(fired.tif as TimeInForce);
      this.execute(
        seq,
        fired.side === 'buy' ? BUY : SELL,
        fired.orderId,
        fired.userId,
        isMarket,
        tif,
        fired.price,
        fired.qty,
        fired.quoteAmount,
        sink,
      );
    }
  }
}

/** The fast implementation. */
export const FAST_BOOK: BookImplementation = {
  name: 'fast',
  create: (spec) => new FastBook(spec),
  restore: (snapshot) => FastBook.restore(snapshot),
};

/** Creates an empty fast book. */
export function createFastBook(spec: MarketSpec): OrderBook {
  return new FastBook(spec);
}

/** Restores a fast book from a snapshot. */
export function restoreFastBook(snapshot: BookSnapshot): OrderBook {
  return FastBook.restore(snapshot);
}
