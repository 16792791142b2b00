import type { ClearingSnapshot, InsuranceLot, PerpOrder, PerpPosition, PerpSpec, Tier } from '@bourse/perp';
import type { Millis } from '../../platform/schema.ts';
import type { LotRow, NewOrderRow, OrderRow, PerpMarketRow, PositionRow } from './repository.ts';

/**
 * Between the store's rows (prices in atoms) and the clearing's records (prices in ticks): the
 * market's parameters, its snapshot, and each changed order, position and lot.
 */

interface StoredTier {
  maxNotional: string | null;
  maxLeverage: number;
  mmr: string;
  cum: string;
}

export function tiersToJson(tiers: readonly Tier[]): string {
  const stored: StoredTier[] = tiers.map((t) => ({
    maxNotional: t.maxNotional === null ? null : String(t.maxNotional),
    maxLeverage: t.maxLeverage,
    mmr: String(t.mmr),
    cum: String(t.cum),
  }));
  return JSON.stringify(stored);
}

export function tiersFromJson(json: string): Tier[] {
  return (JSON.parse(json) as StoredTier[]).map((t) => ({
    maxNotional: t.maxNotional === null ? null : BigInt(t.maxNotional),
    maxLeverage: t.maxLeverage,
    mmr: BigInt(t.mmr),
    cum: BigInt(t.cum),
  }));
}

export function specOf(market: PerpMarketRow): PerpSpec {
  return {
    symbol: market.symbol,
    tickAtoms: market.tick_size,
    lotAtoms: market.lot_size,
    tiers: tiersFromJson(market.tiers),
    makerRate: market.maker_rate,
    takerRate: market.taker_rate,
    bandRate: market.band_rate,
    fundingIntervalMs: Number(market.funding_interval_ms),
    interestRate: market.interest_rate,
    fundingClamp: market.funding_clamp,
    fundingCap: market.funding_cap,
    impactNotional: market.impact_notional,
    markClamp: market.mark_clamp,
    maxLeverage: Number(market.max_leverage),
  };
}

export function snapshotOf(
  market: PerpMarketRow,
  positions: readonly PositionRow[],
  orders: readonly OrderRow[],
  lots: readonly LotRow[],
): ClearingSnapshot {
  const tick = market.tick_size;
  return {
    figures: {
      seq: market.seq,
      nextOrderId: market.next_order_no,
      nextPositionId: market.next_position_no,
      mark: market.mark / tick,
      last: market.last / tick,
      frozen: market.frozen === 1n,
      insurance: market.insurance,
    },
    positions: positions.map(positionFromRow),
    orders: orders.map((o) => orderFromRow(o, tick)),
    lots: lots.map((l) => ({
      id: l.lot_no,
      qty: l.qty,
      entry: l.entry,
      bankruptcy: l.bankruptcy / tick,
      userId: l.user_id,
    })),
    leverage: positions.map((p) => [p.user_id, Number(p.leverage)]),
  };
}

export function positionFromRow(p: PositionRow): PerpPosition {
  return {
    id: p.position_no,
    userId: p.user_id,
    qty: p.qty,
    entry: p.entry,
    margin: p.margin,
    leverage: Number(p.leverage),
    realised: p.realised,
  };
}

export function positionRow(symbol: string, p: PerpPosition, now: Millis): PositionRow {
  return {
    symbol,
    user_id: p.userId,
    position_no: p.id,
    qty: p.qty,
    entry: p.entry,
    margin: p.margin,
    leverage: BigInt(p.leverage),
    realised: p.realised,
    updated_at: now,
  };
}

export function lotRow(symbol: string, lot: InsuranceLot, tick: bigint): LotRow {
  return {
    symbol,
    lot_no: lot.id,
    user_id: lot.userId,
    qty: lot.qty,
    entry: lot.entry,
    bankruptcy: lot.bankruptcy * tick,
  };
}

/** The wire type of an order: its kind and trigger. */
export function orderType(o: Pick<PerpOrder, 'type' | 'trigger'>): OrderRow['type'] {
  if (!o.trigger) return o.type;
  const prefix = o.trigger.kind === 'stop' ? 'stop' : 'take_profit';
  return `${prefix}_${o.type}` as OrderRow['type'];
}

export function orderFromRow(o: OrderRow, tick: bigint): PerpOrder {
  return {
    id: o.order_no,
    userId: o.user_id,
    side: o.side,
    type: o.type === 'limit' || o.type.endsWith('_limit') ? 'limit' : 'market',
    price: o.price / tick,
    qty: o.qty,
    filledQty: o.filled_qty,
    filledValue: o.filled_value,
    fee: o.fee,
    hold: o.hold,
    leverage: Number(o.leverage),
    reduceOnly: o.reduce_only === 1n,
    closePosition: o.close_position === 1n,
    postOnly: o.post_only === 1n,
    trigger:
      o.trigger_kind && o.trigger_price !== null && o.trigger_ref && o.trigger_condition
        ? {
            kind: o.trigger_kind,
            price: o.trigger_price / tick,
            ref: o.trigger_ref,
            condition: o.trigger_condition,
            priceProtect: o.price_protect === 1n,
            oco: o.oco,
          }
        : null,
    status: o.state,
    endReason: (o.end_reason as PerpOrder['endReason']) ?? null,
    seq: o.seq,
  };
}

export function orderRow(
  symbol: string,
  o: PerpOrder,
  tick: bigint,
  extra: { idempotencyKey: string | null; ioc: boolean; createdAt: Millis; now: Millis },
): NewOrderRow {
  return {
    symbol,
    order_no: o.id,
    user_id: o.userId,
    side: o.side,
    type: orderType(o),
    price: o.price * tick,
    qty: o.qty,
    filled_qty: o.filledQty,
    filled_value: o.filledValue,
    fee: o.fee,
    hold: o.hold,
    leverage: BigInt(o.leverage),
    reduce_only: o.reduceOnly ? 1n : 0n,
    close_position: o.closePosition ? 1n : 0n,
    post_only: o.postOnly ? 1n : 0n,
    ioc: extra.ioc ? 1n : 0n,
    trigger_kind: o.trigger?.kind ?? null,
    trigger_price: o.trigger ? o.trigger.price * tick : null,
    trigger_ref: o.trigger?.ref ?? null,
    trigger_condition: o.trigger?.condition ?? null,
    price_protect: o.trigger?.priceProtect ? 1n : 0n,
    oco: o.trigger?.oco ?? null,
    state: o.status,
    end_reason: o.endReason,
    seq: o.seq,
    idempotency_key: extra.idempotencyKey,
    created_at: extra.createdAt,
    updated_at: extra.now,
  };
}
