/**
 * The engine's contract: market spec, commands, result codes, events, snapshots and the
 * `OrderBook` interface that every book implementation (naive reference, fast) satisfies.
 *
 * Units: prices are integer ticks, quantities integer lots, quote amounts integer tick·lots
 * (price in ticks × quantity in lots). All are `number` safe integers; nothing here is a float.
 */

/** Which side of the book an order is on. */
export type Side = 'buy' | 'sell';

/** `limit` rests at or matches up to its price; `market` matches whatever is there and never rests. */
export type OrderType = 'limit' | 'market';

/**
 * Time in force of a limit order. `gtc` rests its remainder; `ioc` cancels its remainder; `fok`
 * fills completely or not at all; `post-only` rests without ever taking (cancelled if it would cross).
 * Market orders are always immediate-or-cancel.
 */
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post-only';

/** A trigger order fires when the reference price rises to (`up`) or falls to (`down`) its trigger price. */
export type TriggerDirection = 'up' | 'down';

/**
 * Self-trade prevention, checked when a taker meets a resting order of the same user:
 * `cancel-newest` cancels the taker's remainder, `cancel-oldest` cancels the resting order and
 * matching goes on, `cancel-both` cancels both, `none` lets them trade.
 */
export type SelfTradePrevention = 'none' | 'cancel-newest' | 'cancel-oldest' | 'cancel-both';

/**
 * What moves the trigger reference price: `trade` = the book's own trades and price updates (spot,
 * last-price triggers); `external` = price-update commands only (perpetuals on mark price).
 */
export type TriggerSource = 'trade' | 'external';

/** Why quantity left an order without trading. */
export type CancelReason = 'user' | 'reduce' | 'unfilled' | 'fok' | 'post-only' | 'self-trade';

/** The per-market parameters a book is created with. Immutable for the life of the book. */
export interface MarketSpec {
  /** Market symbol, e.g. `BTC/USDT`; carried into snapshots and the state hash. */
  symbol: string;
  /** Quote-asset atomic units (10^-8) per tick; the engine only carries it. */
  tickSize: number;
  /** Base-asset atomic units (10^-8) per lot; the engine only carries it. */
  lotSize: number;
  /** Lowest accepted limit and trigger price, in ticks (≥ 1). */
  minPrice: number;
  /** Highest accepted limit and trigger price, in ticks; `maxPrice < 2^53` (`MAX_PRICE`), any band width. */
  maxPrice: number;
  /** Largest quantity of one order, in lots; a limit order's `price × qty` must also be a safe integer. */
  maxQty: number;
  selfTradePrevention: SelfTradePrevention;
  triggerSource: TriggerSource;
}

/**
 * Place an order. Limit: `price` and `qty`. Market sell: `qty`. Market buy: `qty` or
 * `quoteAmount` (spend up to that many tick·lots, whole lots only). With `triggerPrice` and
 * `triggerDirection` the order waits in the trigger book (stop-limit / stop-market) until the
 * reference price reaches the trigger. Optional numeric fields may be given as 0 for "absent".
 */
export interface PlaceCommand {
  type: 'place';
  /** Caller's sequence number; must be greater than the last accepted command's. */
  seq: number;
  /** Caller's order id (positive safe integer), unique among the book's live orders. */
  orderId: number;
  /** Caller's user id (positive safe integer); self-trade prevention compares it. */
  userId: number;
  side: Side;
  orderType: OrderType;
  /** Limit orders only; defaults to `gtc`. Market orders accept only `ioc` or nothing. */
  tif?: TimeInForce;
  price?: number;
  qty?: number;
  quoteAmount?: number;
  triggerPrice?: number;
  triggerDirection?: TriggerDirection;
}

/** Cancel a live order (resting or waiting for its trigger) of this user. */
export interface CancelCommand {
  type: 'cancel';
  seq: number;
  orderId: number;
  userId: number;
}

/**
 * Reduce a live order's remaining quantity by `qty` lots, keeping its time priority; reducing by
 * at least the remainder removes the order.
 */
export interface ReduceCommand {
  type: 'reduce';
  seq: number;
  orderId: number;
  userId: number;
  qty: number;
}

/** An external reference (mark or last) price in ticks; may fire trigger orders. */
export interface PriceUpdateCommand {
  type: 'price-update';
  seq: number;
  price: number;
}

export type Command = PlaceCommand | CancelCommand | ReduceCommand | PriceUpdateCommand;

/**
 * Result codes, grouped by the stage that decided them (exchange-core style):
 * - `0` accepted;
 * - `1xxx` validation: the command is malformed for this market; nothing happened, no events;
 * - `2xxx` state: the command does not fit the book's current state; nothing happened, no events;
 * - `3xxx` matching: the order was accepted and then ended by its own rule (post-only would cross,
 *   fill-or-kill not fillable); its events (accepted, cancelled, done) are emitted.
 */
export const ResultCode = {
  ACCEPTED: 0,
  REJECT_INVALID_COMMAND: 1001,
  REJECT_INVALID_ID: 1002,
  REJECT_INVALID_SIDE: 1003,
  REJECT_INVALID_ORDER_TYPE: 1004,
  REJECT_INVALID_TIME_IN_FORCE: 1005,
  REJECT_INVALID_PRICE: 1006,
  REJECT_PRICE_OUT_OF_BAND: 1007,
  REJECT_INVALID_QTY: 1008,
  REJECT_INVALID_QUOTE_AMOUNT: 1009,
  REJECT_INVALID_TRIGGER: 1010,
  REJECT_STALE_SEQUENCE: 2001,
  REJECT_DUPLICATE_ORDER_ID: 2002,
  REJECT_UNKNOWN_ORDER: 2003,
  REJECT_NOT_OWNER: 2004,
  REJECT_NOT_REDUCIBLE: 2005,
  REJECT_TRIGGER_WOULD_FIRE: 2006,
  REJECT_POST_ONLY: 3001,
  REJECT_FOK_NOT_FILLED: 3002,
} as const;

export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];
export type ResultCodeName = keyof typeof ResultCode;

/**
 * Receives the events of each command in order. Methods take positional arguments so the hot path
 * allocates nothing per event. `seq` is the command that caused the event (for a triggered order,
 * the command that moved the price). Order of events per command: `accepted`; per fill a `trade`,
 * then `cancelled`/`done` of a resting order it finished; a `bookDelta` for each level after the
 * order events that changed it; the taker's own `cancelled`/`done` last. A sink must not call back
 * into the book while a command is being applied.
 */
export interface EventSink {
  /** The order passed validation. `price` is 0 for market orders, `qty` is 0 for buys by quote amount. */
  onAccepted(
    seq: number,
    orderId: number,
    userId: number,
    side: Side,
    price: number,
    qty: number,
    quoteAmount: number,
  ): void;
  /** A fill at the resting (maker) order's price. */
  onTrade(
    seq: number,
    makerOrderId: number,
    makerUserId: number,
    takerOrderId: number,
    takerUserId: number,
    price: number,
    qty: number,
    makerSide: Side,
  ): void;
  /** `qty` lots left the order without trading (0 for a market buy by quote amount). */
  onCancelled(seq: number, orderId: number, userId: number, qty: number, reason: CancelReason): void;
  /** A waiting trigger order fired because the reference price reached `price`; its matching events follow. */
  onTriggered(seq: number, orderId: number, userId: number, triggerPrice: number, price: number): void;
  /**
   * The order is finished (filled, cancelled, or killed) and forgotten by the book. `filledQuote` is
   * Σ price × qty of its fills; `unspentQuote` is what a market buy by quote amount did not spend (else 0).
   */
  onDone(
    seq: number,
    orderId: number,
    userId: number,
    filledQty: number,
    filledQuote: number,
    unspentQuote: number,
  ): void;
  /** The total resting quantity at `price` on `side` is now `qty` (0 = level gone). */
  onBookDelta(seq: number, side: Side, price: number, qty: number): void;
}

/** A resting limit order, as in snapshots and `getOrder`. */
export interface RestingOrder {
  orderId: number;
  userId: number;
  side: Side;
  price: number;
  /** Remaining quantity in lots. */
  qty: number;
  filledQty: number;
  filledQuote: number;
}

/** An order waiting in the trigger book, normalised: absent numbers are 0. */
export interface TriggerOrder {
  orderId: number;
  userId: number;
  side: Side;
  orderType: OrderType;
  tif: TimeInForce | 'ioc';
  price: number;
  qty: number;
  quoteAmount: number;
  triggerPrice: number;
  triggerDirection: TriggerDirection;
}

export type OrderView = ({ status: 'resting' } & RestingOrder) | ({ status: 'waiting' } & TriggerOrder);

/** Aggregated depth, best level first: `[price, qty]`. */
export interface Depth {
  bids: Array<[number, number]>;
  asks: Array<[number, number]>;
}

/**
 * The complete state of a book in canonical form: equal states give equal snapshots (and hashes).
 * `bids` and `asks` list orders best price first, time priority within a level; `triggers` list
 * waiting orders in release order (`up` by ascending trigger price, then `down` by descending, ties
 * by arrival).
 */
export interface BookSnapshot {
  version: 1;
  spec: MarketSpec;
  lastSeq: number;
  /** Trigger reference price in ticks; 0 = none yet. */
  lastPrice: number;
  bids: RestingOrder[];
  asks: RestingOrder[];
  triggers: TriggerOrder[];
}

/**
 * A central limit order book for one market: price-time priority, FIFO per level. Pure: no I/O,
 * no clock, no randomness; the same commands always give the same events, codes and state hash.
 * Rejections are result codes, never exceptions.
 */
export interface OrderBook {
  readonly spec: MarketSpec;
  /** Applies any command; events go to `sink`. */
  apply(command: Command, sink: EventSink): ResultCode;
  place(command: PlaceCommand, sink: EventSink): ResultCode;
  cancel(command: CancelCommand, sink: EventSink): ResultCode;
  reduce(command: ReduceCommand, sink: EventSink): ResultCode;
  updatePrice(command: PriceUpdateCommand, sink: EventSink): ResultCode;
  /** Best bid price in ticks, 0 when there is none. */
  getBestBid(): number;
  /** Best ask price in ticks, 0 when there is none. */
  getBestAsk(): number;
  /** Trigger reference price, 0 when none yet. */
  getLastPrice(): number;
  getLastSeq(): number;
  /** A live order (resting or waiting for its trigger), or undefined once done or unknown. */
  getOrder(orderId: number): OrderView | undefined;
  getDepth(maxLevels: number): Depth;
  /** Number of resting orders (trigger orders not included). */
  getRestingCount(): number;
  takeSnapshot(): BookSnapshot;
  /** Hash of the canonical snapshot: equal for equal states (see `hashSnapshot`). */
  getStateHash(): string;
}

/** An implementation of `OrderBook`, as the contract suite and benchmarks see it. */
export interface BookImplementation {
  name: string;
  create(spec: MarketSpec): OrderBook;
  restore(snapshot: BookSnapshot): OrderBook;
}
