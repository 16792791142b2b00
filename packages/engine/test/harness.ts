import {
  type BookImplementation,
  type Command,
  type EngineEvent,
  EventRecorder,
  FastBook,
  type MarketSpec,
  type OrderBook,
  type PlaceCommand,
  type ResultCode,
  type Side,
  type TimeInForce,
  type TriggerDirection,
} from '../src/index.ts';

/**
 * The fast book with its smallest ladder window (1,024 levels), so that books a few thousand ticks
 * wide already keep levels beyond the window and move it.
 */
export const FAST_BOOK_SMALL_WINDOW: BookImplementation = {
  name: 'fast (1,024-level window)',
  create: (spec) => new FastBook(spec, 1024),
  restore: (snapshot) => FastBook.restore(snapshot, 1024),
};

/** A market spec for tests; override what a test is about. */
export function makeSpec(overrides: Partial<MarketSpec> = {}): MarketSpec {
  return {
    symbol: 'BTC/USDT',
    tickSize: 1_000_000,
    lotSize: 10_000,
    minPrice: 1,
    maxPrice: 1_000_000,
    maxQty: 1_000_000,
    selfTradePrevention: 'none',
    triggerSource: 'trade',
    ...overrides,
  };
}

type WithoutSeq<T> = T extends Command ? Omit<T, 'seq'> : never;

export interface Outcome {
  code: ResultCode;
  events: EngineEvent[];
}

/** Drives one book with automatic sequence numbers and records each command's events. */
export class Harness {
  readonly book: OrderBook;
  seq: number;
  private readonly recorder = new EventRecorder();

  /** Drives an existing book (e.g. a restored one), continuing from its last sequence number. */
  constructor(book: OrderBook) {
    this.book = book;
    this.seq = book.getLastSeq();
  }

  static create(implementation: BookImplementation, spec: MarketSpec = makeSpec()): Harness {
    return new Harness(implementation.create(spec));
  }

  run(command: WithoutSeq<Command>): Outcome {
    const seq = this.seq + 1;
    const code = this.book.apply({ ...command, seq } as Command, this.recorder);
    if (code === 0 || code >= 3000) this.seq = seq;
    return { code, events: this.recorder.take() };
  }

  limit(orderId: number, userId: number, side: Side, price: number, qty: number, tif?: TimeInForce): Outcome {
    return this.run({ type: 'place', orderId, userId, side, orderType: 'limit', price, qty, tif });
  }

  market(orderId: number, userId: number, side: Side, qty: number): Outcome {
    return this.run({ type: 'place', orderId, userId, side, orderType: 'market', qty });
  }

  marketBuyAmount(orderId: number, userId: number, quoteAmount: number): Outcome {
    return this.run({ type: 'place', orderId, userId, side: 'buy', orderType: 'market', quoteAmount });
  }

  stop(
    orderId: number,
    userId: number,
    side: Side,
    triggerDirection: TriggerDirection,
    triggerPrice: number,
    order: Partial<PlaceCommand>,
  ): Outcome {
    return this.run({
      type: 'place',
      orderId,
      userId,
      side,
      orderType: order.price ? 'limit' : 'market',
      triggerPrice,
      triggerDirection,
      ...order,
    });
  }

  cancel(orderId: number, userId: number): Outcome {
    return this.run({ type: 'cancel', orderId, userId });
  }

  reduce(orderId: number, userId: number, qty: number): Outcome {
    return this.run({ type: 'reduce', orderId, userId, qty });
  }

  price(price: number): Outcome {
    return this.run({ type: 'price-update', price });
  }
}

/** Events of one kind, for concise assertions. */
export function ofKind<K extends EngineEvent['kind']>(
  events: EngineEvent[],
  kind: K,
): Array<Extract<EngineEvent, { kind: K }>> {
  return events.filter((event): event is Extract<EngineEvent, { kind: K }> => event.kind === kind);
}

/** `kind` of each event, for asserting event order. */
export function kinds(events: EngineEvent[]): string[] {
  return events.map((event) => event.kind);
}
