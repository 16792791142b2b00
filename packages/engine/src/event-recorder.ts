import type { CancelReason, EventSink, Side } from './types.ts';

/** One engine event as a plain object (what `EventRecorder` collects). */
export type EngineEvent =
  | {
      kind: 'accepted';
      seq: number;
      orderId: number;
      userId: number;
      side: Side;
      price: number;
      qty: number;
      quoteAmount: number;
    }
  | {
      kind: 'trade';
      seq: number;
      makerOrderId: number;
      makerUserId: number;
      takerOrderId: number;
      takerUserId: number;
      price: number;
      qty: number;
      makerSide: Side;
    }
  | { kind: 'cancelled'; seq: number; orderId: number; userId: number; qty: number; reason: CancelReason }
  | { kind: 'triggered'; seq: number; orderId: number; userId: number; triggerPrice: number; price: number }
  | {
      kind: 'done';
      seq: number;
      orderId: number;
      userId: number;
      filledQty: number;
      filledQuote: number;
      unspentQuote: number;
    }
  | { kind: 'book-delta'; seq: number; side: Side; price: number; qty: number };

/**
 * An `EventSink` that keeps every event as an object, in order. Convenient for tests and for a
 * sequencer that persists a batch's events; allocates one object per event.
 */
export class EventRecorder implements EventSink {
  events: EngineEvent[] = [];

  /** @returns the events recorded so far and starts a new list. */
  take(): EngineEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  onAccepted(
    seq: number,
    orderId: number,
    userId: number,
    side: Side,
    price: number,
    qty: number,
    quoteAmount: number,
  ): void {
    this.events.push({ kind: 'accepted', seq, orderId, userId, side, price, qty, quoteAmount });
  }

  onTrade(
    seq: number,
    makerOrderId: number,
    makerUserId: number,
    takerOrderId: number,
    takerUserId: number,
    price: number,
    qty: number,
    makerSide: Side,
  ): void {
    this.events.push({
      kind: 'trade',
      seq,
      makerOrderId,
      makerUserId,
      takerOrderId,
      takerUserId,
      price,
      qty,
      makerSide,
    });
  }

  onCancelled(seq: number, orderId: number, userId: number, qty: number, reason: CancelReason): void {
    this.events.push({ kind: 'cancelled', seq, orderId, userId, qty, reason });
  }

  onTriggered(seq: number, orderId: number, userId: number, triggerPrice: number, price: number): void {
    this.events.push({ kind: 'triggered', seq, orderId, userId, triggerPrice, price });
  }

  onDone(
    seq: number,
    orderId: number,
    userId: number,
    filledQty: number,
    filledQuote: number,
    unspentQuote: number,
  ): void {
    this.events.push({ kind: 'done', seq, orderId, userId, filledQty, filledQuote, unspentQuote });
  }

  onBookDelta(seq: number, side: Side, price: number, qty: number): void {
    this.events.push({ kind: 'book-delta', seq, side, price, qty });
  }
}
