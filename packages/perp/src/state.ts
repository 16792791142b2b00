/**
 * The state one perpetual market's clearing keeps, and what each command hands back to its host
 * (the sequencer that stores it): the journal moves, the records that changed and the events.
 * Money in USDT atoms, quantities in base atoms, prices in ticks (types.ts).
 */

/** The accounts of perpetual.md §2: a user's available, hold and position margin; the market's own. */
export type PerpAccount =
  | { user: bigint; kind: 'avail' | 'hold' | 'pos' }
  | { system: 'SET' | 'FUND' | 'IF' | 'FEE' };

/** `amount` (> 0) moves from one account to another. */
export interface Move {
  from: PerpAccount;
  to: PerpAccount;
  amount: bigint;
  /** What the line is, for the bill: `open`, `close`, `fee`, `funding`, `takeover`, `unwind`, `adl`, `margin`, `hold`, `release`. */
  why: MoveReason;
}
export type MoveReason =
  | 'hold'
  | 'release'
  | 'open'
  | 'fee'
  | 'pnl'
  | 'payout'
  | 'funding'
  | 'takeover'
  | 'unwind'
  | 'bankrupt'
  | 'margin';

export type PerpSide = 'buy' | 'sell';
export type TriggerRef = 'last' | 'mark';
/** STOP buy fires when the reference rises to the trigger (`gte`), STOP sell when it falls (`lte`); TP the reverse. */
export type TriggerKind = 'stop' | 'take_profit';

export type OrderStatus = 'untriggered' | 'new' | 'partial' | 'filled' | 'cancelled' | 'expired' | 'rejected';

/** Why an order ended without filling whole. */
export type EndReason =
  | 'user'
  | 'ioc'
  | 'reduce_only'
  | 'liquidation'
  | 'adl'
  | 'oco'
  | 'self_trade'
  | 'position_closed'
  | 'trigger_rejected'
  | 'price_protect';

export interface PerpOrder {
  id: bigint;
  userId: bigint;
  side: PerpSide;
  type: 'limit' | 'market';
  /** Limit price in ticks; for a market order the band price it was capped at (0 while a trigger waits). */
  price: bigint;
  /** Ordered quantity in base atoms (0 for a close-position trigger until it fires). */
  qty: bigint;
  filledQty: bigint;
  /** Σ value of the fills in USDT atoms. */
  filledValue: bigint;
  fee: bigint;
  /** Funds still held for the order's unfilled opening quantity. */
  hold: bigint;
  leverage: number;
  reduceOnly: boolean;
  closePosition: boolean;
  postOnly: boolean;
  /** A trigger order's condition; null for a plain order. */
  trigger: {
    kind: TriggerKind;
    price: bigint;
    ref: TriggerRef;
    condition: 'gte' | 'lte';
    priceProtect: boolean;
    /** The other half of a position's SL/TP pair: cancelled when this one fires. */
    oco: bigint | null;
  } | null;
  status: OrderStatus;
  endReason: EndReason | null;
  /** The sequence the order entered the book (or was armed) at; the engine's order id while it rests. */
  seq: bigint;
}

/** A user's position in the market; qty 0 = FLAT (kept for its leverage and history). */
export interface PerpPosition {
  /** Ranks ADL ties: lower first. Assigned when the position opens from FLAT. */
  id: bigint;
  userId: bigint;
  qty: bigint;
  entry: bigint;
  margin: bigint;
  leverage: number;
  /** Lifetime realised profit or loss including fees and funding, for the user's records. */
  realised: bigint;
}

/** A position the insurance fund took over at its bankruptcy price, being unwound. */
export interface InsuranceLot {
  id: bigint;
  qty: bigint;
  entry: bigint;
  /** The bankruptcy price it was taken over at: an ADL of its remainder is at this price. */
  bankruptcy: bigint;
  /** The liquidated user. */
  userId: bigint;
}

/** One fill. `liquidation` marks the insurance fund's unwind (its side pays no fee). */
export interface PerpTrade {
  seq: bigint;
  price: bigint;
  qty: bigint;
  value: bigint;
  takerSide: PerpSide;
  makerOrderId: bigint;
  makerUserId: bigint;
  takerOrderId: bigint;
  takerUserId: bigint;
  makerFee: bigint;
  takerFee: bigint;
  kind: 'trade' | 'unwind' | 'adl';
}

export type ClearingEvent =
  | { type: 'trade'; trade: PerpTrade }
  | {
      type: 'liquidation';
      seq: bigint;
      userId: bigint;
      qty: bigint;
      entry: bigint;
      margin: bigint;
      mark: bigint;
      bankruptcy: bigint;
      lotId: bigint;
      /** What went to the insurance fund at takeover (the margin left at BP). */
      remainder: bigint;
    }
  /** `qty` signed as the deleveraged position was (long > 0). */
  | { type: 'adl'; seq: bigint; userId: bigint; lotId: bigint; qty: bigint; price: bigint; pnl: bigint }
  | {
      type: 'funding';
      seq: bigint;
      userId: bigint | null;
      qty: bigint;
      amount: bigint;
      rate: bigint;
      mark: bigint;
    }
  | { type: 'unwind'; seq: bigint; lotId: bigint; qty: bigint; value: bigint; pnl: bigint };

/** The market's own running figures, stored with it. */
export interface MarketFigures {
  /** Last sequence applied. */
  seq: bigint;
  nextOrderId: bigint;
  nextPositionId: bigint;
  /** Mark price in ticks; 0 before the first. */
  mark: bigint;
  /** Last trade price in ticks; 0 before the first trade. */
  last: bigint;
  /** The index is out: mark, funding and liquidations frozen, only reduce-only orders accepted. */
  frozen: boolean;
  /** The insurance fund's balance as the clearing has moved it (the host seeds it). */
  insurance: bigint;
}

/** Everything a clearing is rebuilt from: what the host stores. */
export interface ClearingSnapshot {
  figures: MarketFigures;
  positions: PerpPosition[];
  /** Open orders, resting and waiting triggers, in sequence order. */
  orders: PerpOrder[];
  lots: InsuranceLot[];
  /** Leverage chosen per user (kept while FLAT). */
  leverage: [bigint, number][];
}

/** What one command changed: the host writes it in one transaction. */
export interface CommandResult<T = undefined> {
  ok: boolean;
  /** A rejection's error code (an AppError key of the platform); null when ok. */
  error: string | null;
  value?: T;
  moves: Move[];
  events: ClearingEvent[];
  orders: PerpOrder[];
  positions: PerpPosition[];
  lots: InsuranceLot[];
  /** Lots that were closed whole (removed). */
  closedLots: bigint[];
}

/**
 * A rule no command may break was about to be broken (a reduce-only fill that opens, a leg opening
 * without margin, a negative margin, hold or balance, a book out of step): the clearing's state is
 * partly changed, so its host refuses the command and rebuilds the clearing from its store.
 */
export class BrokenRule extends Error {
  override readonly name = 'BrokenRule';
}
