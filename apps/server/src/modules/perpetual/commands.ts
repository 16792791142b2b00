import type { PlaceInput, TriggerRef } from '@bourse/perp';
import type { PerpOrderType, PerpTriggerRef } from '@bourse/shared/api';
import { sha256 } from '../../platform/crypto.ts';
import type { Millis } from '../../platform/schema.ts';
import type * as repo from './repository.ts';

/** A command of a perpetual market, in the order its sequencer takes them. */
export type PerpCommand =
  /** `fingerprint`: the request as the customer made it; the same key with another is refused. */
  | { kind: 'place'; userId: bigint; input: PlaceInput; key: string; ioc: boolean; fingerprint: string }
  | { kind: 'cancel'; userId: bigint; orderNo: bigint }
  | { kind: 'leverage'; userId: bigint; leverage: number }
  | { kind: 'stops'; userId: bigint; stopLoss?: bigint; takeProfit?: bigint; ref: TriggerRef }
  | { kind: 'margin'; userId: bigint; amount: bigint; direction: 'add' | 'remove'; key?: string }
  | { kind: 'mark'; mark: bigint; index: bigint }
  | { kind: 'freeze' }
  | { kind: 'fund'; rate: bigint; mark: bigint; at: Millis }
  /** Staff move treasury money into the fund (audited with the move, in its transaction). */
  | { kind: 'insurance'; amount: bigint; staff: StaffStamp; reason: string }
  /** Reads the book (answered at once, between batches). */
  | { kind: 'depth'; levels: number }
  /** Staff change fees, band, mark clamp or status (audited in the batch that applies it). */
  | {
      kind: 'configure';
      values: Partial<
        Pick<repo.PerpMarketRow, 'maker_rate' | 'taker_rate' | 'band_rate' | 'mark_clamp' | 'status'>
      >;
      staff: StaffStamp;
      reason: string;
    };

/** Who acted, for the audit record. */
export interface StaffStamp {
  actor: string;
  ip: string;
}

/** What a command's caller is answered once its batch committed: the order ids it made or touched. */
export interface PerpOutcome {
  orderIds: bigint[];
  duplicate?: boolean;
  /** A `depth` read: levels in ticks and base atoms, best first, at the market's sequence. */
  depth?: { seq: bigint; bids: [bigint, bigint][]; asks: [bigint, bigint][] };
}

/** A batch committed: who and what changed, for the feeds. */
export interface PerpBatchEvent {
  symbol: string;
  seq: string;
  users: string[];
  trades: { id: string; price: string; qty: string; side: 'buy' | 'sell'; at: number }[];
}

export const PERP_BATCH_SUBJECT = 'perp.batch';

/** A place as the API gives it, amounts in atoms. */
export interface PerpPlaceRequest {
  symbol: string;
  side: 'buy' | 'sell';
  type: PerpOrderType;
  price?: bigint;
  qty?: bigint;
  triggerPrice?: bigint;
  triggerRef: PerpTriggerRef;
  priceProtect: boolean;
  reduceOnly: boolean;
  closePosition: boolean;
  postOnly: boolean;
  idempotencyKey: string;
}

/**
 * What a retry with the same key must repeat (perpetual.md §4b.7): the request's fields as the
 * API parsed them (defaults applied, amounts in atoms), hashed. An order's rows keep it.
 */
export function placeFingerprint(r: Omit<PerpPlaceRequest, 'idempotencyKey'>): string {
  return fingerprintOf([
    'place',
    r.symbol,
    r.side,
    r.type,
    r.price,
    r.qty,
    r.triggerPrice,
    r.triggerRef,
    r.priceProtect,
    r.reduceOnly,
    r.closePosition,
    r.postOnly,
  ]);
}

/**
 * A close's: the market alone, since the close's side and size are read from the position when it
 * runs (a retry finds a smaller position or none, and still asks for the same close).
 */
export function closeFingerprint(symbol: string): string {
  return fingerprintOf(['close', symbol]);
}

function fingerprintOf(fields: readonly (string | bigint | boolean | undefined)[]): string {
  const text = JSON.stringify(fields.map((f) => (f === undefined ? null : String(f))));
  return sha256(text);
}
