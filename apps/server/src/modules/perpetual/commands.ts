import type { PlaceInput, TriggerRef } from '@bourse/perp';
import type { PerpOrderType, PerpTriggerRef } from '@bourse/shared/api';
import type { Millis } from '../../platform/schema.ts';
import type * as repo from './repository.ts';

/** A command of a perpetual market, in the order its sequencer takes them. */
export type PerpCommand =
  | { kind: 'place'; userId: bigint; input: PlaceInput; key: string; ioc: boolean }
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
  /** Staff change fees, band or status (audited in the batch that applies it). */
  | {
      kind: 'configure';
      values: Partial<Pick<repo.PerpMarketRow, 'maker_rate' | 'taker_rate' | 'band_rate' | 'status'>>;
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
