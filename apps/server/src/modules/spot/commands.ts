// What a market's sequencer takes and answers: its commands, their results, the batch event it
// publishes, the depth it reads, and how an order enters the engine's book.

import type { Side } from '@bourse/engine';
import type { Db } from '../../platform/db.ts';
import { quotePerTickLot } from './market.ts';
import type * as repo from './repository.ts';

/** What a place asks the sequencer to write: the order row as placed, before its sequence. */
export type NewOrder = Omit<
  repo.OrderRow,
  | 'id'
  | 'seq'
  | 'status'
  | 'filled_qty'
  | 'filled_quote'
  | 'fee'
  | 'revoke_reason'
  | 'triggered_at'
  | 'created_at'
  | 'updated_at'
>;

/** The engine's view of a place (of a trigger order, when it fires): ticks, lots, tick·lots (0 = absent). */
export interface EngineOrder {
  side: Side;
  orderType: 'limit' | 'market';
  tif: 'gtc' | 'ioc' | 'fok' | 'post-only' | undefined;
  price: number;
  qty: number;
  quoteAmount: number;
}

/**
 * A change of the market's settings, run in a batch's transaction after the commands queued
 * before it. `write` stores the change (and its audit record) and answers the market as it now
 * is; it is told how many orders are open (counting places earlier in the batch, which may still
 * fill). `revokeAll` then cancels every open order with reason `halt`. It ends its batch, so the
 * commands after it run with the new settings.
 */
export interface ConfigureRequest {
  kind: 'configure';
  revokeAll: boolean;
  write(trx: Db, openOrders: number): Promise<repo.SpotMarketRow>;
}

export type SequencerRequest =
  | { kind: 'place'; order: NewOrder; engine: EngineOrder }
  | { kind: 'cancel'; orderId: bigint; userId: bigint }
  | ConfigureRequest;

/**
 * How a command ended: `order` (as committed), `duplicate` (the idempotency key was taken in the
 * same batch: the caller answers the first order), `missed` (a cancel of an order that had
 * already ended: the caller reads why).
 */
export type SequencerResult =
  | { order: repo.OrderRow }
  | { duplicate: true }
  | { missed: true }
  | { market: repo.SpotMarketRow; revoked: number };

/** What `spot.batch.<symbol>` carries after each committed batch. */
export interface SpotBatchEvent {
  symbol: string;
  /** The owner's epoch: a new one means a new owner, whose book other nodes load again. */
  epoch: string;
  /** The market's sequence before and after the batch. */
  prevSeq: string;
  seq: string;
  /** When the batch was committed and published (unix ms): what `/ws` delivery is timed from. */
  at: number;
  trades: { id: string; price: string; qty: string; side: Side; at: number }[];
  /** Changed levels with their new totals (atoms; "0" removes the level). */
  bids: [string, string][];
  asks: [string, string][];
  /** Orders the batch placed or changed: id and user, for private pushes. */
  orders: { id: string; userId: string }[];
}

export const BATCH_SUBJECT_PREFIX = 'spot.batch.';

/** A book's levels in atoms (price, total quantity), best first, at a committed sequence. */
export interface BookDepth {
  seq: bigint;
  /** The epoch of the owner that answered. */
  epoch: bigint;
  bids: [bigint, bigint][];
  asks: [bigint, bigint][];
}

/** How an order enters the engine's book: a fired trigger as the limit or market order it becomes. */
export function toEngineOrder(
  row: Pick<repo.OrderRow, 'type' | 'side' | 'tif' | 'price' | 'qty' | 'quote_amount'>,
  market: repo.SpotMarketRow,
): EngineOrder {
  if (row.type === 'limit' || row.type === 'stop_limit') {
    if (row.price === null || row.qty === null) throw new Error('a limit order without price or quantity');
    return {
      side: row.side,
      orderType: 'limit',
      tif: row.tif === 'post_only' ? 'post-only' : row.tif,
      price: Number(row.price / market.tick_size),
      qty: Number(row.qty / market.lot_size),
      quoteAmount: 0,
    };
  }
  if (row.side === 'sell') {
    if (row.qty === null) throw new Error('a market sell without quantity');
    return {
      side: 'sell',
      orderType: 'market',
      tif: undefined,
      price: 0,
      qty: Number(row.qty / market.lot_size),
      quoteAmount: 0,
    };
  }
  if (row.quote_amount === null) throw new Error('a market buy without amount');
  return {
    side: 'buy',
    orderType: 'market',
    tif: undefined,
    price: 0,
    qty: 0,
    quoteAmount: Number(row.quote_amount / quotePerTickLot(market)),
  };
}

export { FencedError, NotOwnerError } from '../../platform/market-ownership.ts';
