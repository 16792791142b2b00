import type { CancelCommand, Command, EventSink, MarketSpec, OrderBook, PlaceCommand } from '../src/index.ts';

/** `thin`: prices always ±50 ticks around the mid. `deep`: passive placement while < 1,000 orders rest. */
export type WorkloadVariant = 'thin' | 'deep';

/** The market every benchmark book is created with (no self-trade prevention: the peer has none). */
export const BENCH_SPEC: MarketSpec = {
  symbol: 'BENCH/USDT',
  tickSize: 1_000_000,
  lotSize: 10_000,
  minPrice: 1,
  maxPrice: 1_000_000,
  maxQty: 1_000_000,
  selfTradePrevention: 'none',
  triggerSource: 'trade',
};

/** Mid price when the book is empty at the start. */
export const START_MID = 100_000;
/** Below this many resting orders the deep variant places limits passively. */
export const DEEP_TARGET = 1_000;
const USERS = 1_000;

/** sfc32: a small, fast, seedable PRNG (pure, deterministic across platforms). */
export function createRandom(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

/** Tracks which orders finished during a command (all it needs from the events). */
class DoneTracker implements EventSink {
  finished: number[] = [];
  onAccepted(): void {}
  onTrade(): void {}
  onCancelled(): void {}
  onTriggered(): void {}
  onDone(_seq: number, orderId: number): void {
    this.finished.push(orderId);
  }
  onBookDelta(): void {}
}

/**
 * Generates the standard workload by driving a book (the naive reference by default) so that every
 * cancel targets an order that is resting at that moment:
 * - 60 % limit GTC, random side, size 1–100 lots, price uniform in mid ± 50 ticks (deep variant:
 *   while fewer than 1,000 orders rest, buys at mid − 1…50 and sells at mid + 1…50);
 * - 25 % cancel of a uniformly random resting order (a limit is placed instead if none rests);
 * - 15 % market by quantity, random side, size 1–100 lots.
 * Mid = ⌊(best bid + best ask) / 2⌋ when both sides exist, else the one best price, else the
 * previous mid (100,000 ticks at the start).
 */
export function generateWorkload(
  variant: WorkloadVariant,
  count: number,
  seed: number,
  book: OrderBook,
): Command[] {
  const random = createRandom(seed);
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const tracker = new DoneTracker();
  const resting: number[] = [];
  const positions = new Map<number, number>();
  const owners = new Map<number, number>();
  const removeResting = (orderId: number): void => {
    const at = positions.get(orderId);
    if (at === undefined) return;
    const last = resting.pop() as number;
    if (last !== orderId) {
      resting[at] = last;
      positions.set(last, at);
    }
    positions.delete(orderId);
  };
  const commands: Command[] = [];
  let mid = START_MID;
  let nextOrderId = 1;

  for (let seq = 1; seq <= count; seq++) {
    const bid = book.getBestBid();
    const ask = book.getBestAsk();
    if (bid !== 0 && ask !== 0) mid = Math.floor((bid + ask) / 2);
    else if (bid !== 0) mid = bid;
    else if (ask !== 0) mid = ask;

    const roll = random();
    let command: Command;
    if (roll >= 0.6 && roll < 0.85 && resting.length > 0) {
      const orderId = resting[Math.floor(random() * resting.length)];
      command = {
        type: 'cancel',
        seq,
        orderId,
        userId: owners.get(orderId) as number,
      } satisfies CancelCommand;
    } else if (roll >= 0.85) {
      // why: limit and market commands share one object shape (absent price is 0, market tif is
      // 'ioc'), as a server-side normaliser would build them, so property reads stay monomorphic.
      command = {
        type: 'place',
        seq,
        orderId: nextOrderId++,
        userId: between(1, USERS),
        side: random() < 0.5 ? 'buy' : 'sell',
        orderType: 'market',
        price: 0,
        qty: between(1, 100),
        tif: 'ioc',
      } satisfies PlaceCommand;
    } else {
      const side = random() < 0.5 ? 'buy' : 'sell';
      const passive = variant === 'deep' && resting.length < DEEP_TARGET;
      let price: number;
      if (passive) price = side === 'buy' ? mid - between(1, 50) : mid + between(1, 50);
      else price = mid + between(-50, 50);
      command = {
        type: 'place',
        seq,
        orderId: nextOrderId++,
        userId: between(1, USERS),
        side,
        orderType: 'limit',
        price: Math.max(1, price),
        qty: between(1, 100),
        tif: 'gtc',
      } satisfies PlaceCommand;
    }

    tracker.finished.length = 0;
    book.apply(command, tracker);
    for (const orderId of tracker.finished) removeResting(orderId);
    if (
      command.type === 'place' &&
      command.orderType === 'limit' &&
      !tracker.finished.includes(command.orderId)
    ) {
      positions.set(command.orderId, resting.length);
      resting.push(command.orderId);
      owners.set(command.orderId, command.userId);
    }
    commands.push(command);
  }
  return commands;
}
