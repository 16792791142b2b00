import {
  bankruptcyPrice,
  liquidationPrice,
  maintenanceMargin,
  type PerpSpec,
  roeBps,
  unrealisedPnl,
  value,
} from '@bourse/perp';
import { fromAtoms } from '@bourse/shared';
import type {
  PerpFill,
  PerpFundingPayment,
  PerpLiquidation,
  PerpMarket,
  PerpOrder,
  PerpPosition,
} from '@bourse/shared/api';
import { fromMillis } from '../../platform/time.ts';
import { tiersFromJson } from './records.ts';
import type * as repo from './repository.ts';

/** The store's rows as the customer API answers them (decimal strings, unix ms). */

export function marketView(m: repo.PerpMarketRow, simulated: boolean): PerpMarket {
  return {
    symbol: m.symbol,
    base: m.base,
    quote: m.quote,
    tick_size: fromAtoms(m.tick_size),
    lot_size: fromAtoms(m.lot_size),
    price_decimals: Number(m.price_decimals),
    qty_decimals: Number(m.qty_decimals),
    maker_fee: fromAtoms(m.maker_rate),
    taker_fee: fromAtoms(m.taker_rate),
    band: fromAtoms(m.band_rate),
    max_leverage: Number(m.max_leverage),
    tiers: tiersFromJson(m.tiers).map((t) => ({
      max_notional: t.maxNotional === null ? null : fromAtoms(t.maxNotional),
      max_leverage: t.maxLeverage,
      mmr: fromAtoms(t.mmr),
      cum: fromAtoms(t.cum),
    })),
    funding_interval_hours: Number(m.funding_interval_ms / 3_600_000n),
    funding_cap: fromAtoms(m.funding_cap),
    mark_clamp: fromAtoms(m.mark_clamp),
    status: m.status,
    simulated,
  };
}

const STATUS: Record<repo.OrderRow['state'], PerpOrder['status']> = {
  untriggered: 'entrusted',
  new: 'entrusted',
  partial: 'entrusted',
  filled: 'completed',
  cancelled: 'revoked',
  expired: 'revoked',
  rejected: 'revoked',
};

export function orderView(o: repo.OrderRow): PerpOrder {
  const waitingMarket = o.state === 'untriggered' && !o.type.endsWith('limit');
  return {
    id: String(o.id),
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    price: waitingMarket || o.price === 0n ? null : fromAtoms(o.price),
    qty: fromAtoms(o.qty),
    filled_qty: fromAtoms(o.filled_qty),
    turnover: fromAtoms(o.filled_value),
    avg_price: o.filled_qty > 0n ? fromAtoms((o.filled_value * 100_000_000n) / o.filled_qty) : null,
    fee: fromAtoms(o.fee),
    fee_ratio: o.filled_value > 0n ? fromAtoms((o.fee * 100_000_000n) / o.filled_value) : null,
    degree: o.qty > 0n ? fromAtoms((o.filled_qty * 100_000_000n) / o.qty) : '0.00000000',
    leverage: Number(o.leverage),
    reduce_only: o.reduce_only === 1n,
    close_position: o.close_position === 1n,
    trigger_price: o.trigger_price === null ? null : fromAtoms(o.trigger_price),
    trigger_ref: o.trigger_ref,
    trigger_condition: o.trigger_condition,
    state: o.state,
    status: STATUS[o.state],
    end_reason: (o.end_reason as PerpOrder['end_reason']) ?? null,
    created_at: fromMillis(o.created_at),
    updated_at: fromMillis(o.updated_at),
  };
}

export function fillView(t: repo.TradeRow, orderNo: bigint): PerpFill {
  const maker = t.maker_order_no === orderNo;
  return {
    id: String(t.id),
    price: fromAtoms(t.price),
    qty: fromAtoms(t.qty),
    fee: fromAtoms(maker ? t.maker_fee : t.taker_fee),
    role: maker ? 'maker' : 'taker',
    at: fromMillis(t.created_at),
  };
}

/** The caller's position with the figures of perpetual.md §1 at `mark` (ticks). */
export function positionView(
  spec: PerpSpec,
  p: repo.PositionRow,
  mark: bigint,
  stops: { stopLoss: bigint | null; takeProfit: bigint | null },
): PerpPosition {
  const figures = { qty: p.qty, entry: p.entry, margin: p.margin, leverage: Number(p.leverage) };
  const size = p.qty < 0n ? -p.qty : p.qty;
  const tick = spec.tickAtoms;
  const notional = value(spec, size, mark);
  const lp = liquidationPrice(spec, figures);
  return {
    symbol: p.symbol,
    side: p.qty > 0n ? 'long' : 'short',
    qty: fromAtoms(size),
    entry_value: fromAtoms(p.entry),
    entry_price: fromAtoms((p.entry * 100_000_000n) / size),
    mark: fromAtoms(mark * tick),
    margin: fromAtoms(p.margin),
    leverage: Number(p.leverage),
    notional: fromAtoms(notional),
    maintenance_margin: fromAtoms(maintenanceMargin(spec, notional)),
    unrealised_pnl: fromAtoms(unrealisedPnl(spec, figures, mark)),
    roe: fromAtoms(roeBps(spec, figures, mark) * 10_000n),
    liquidation_price: lp === null ? null : fromAtoms(lp * tick),
    bankruptcy_price: fromAtoms(bankruptcyPrice(spec, figures) * tick),
    realised_pnl: fromAtoms(p.realised),
    stop_loss: stops.stopLoss === null ? null : fromAtoms(stops.stopLoss),
    take_profit: stops.takeProfit === null ? null : fromAtoms(stops.takeProfit),
  };
}

export function fundingPaymentView(f: repo.FundingPaymentRow): PerpFundingPayment {
  return {
    id: String(f.id),
    symbol: f.symbol,
    side: f.qty > 0n ? 'long' : 'short',
    qty: fromAtoms(f.qty < 0n ? -f.qty : f.qty),
    rate: fromAtoms(f.rate),
    mark: fromAtoms(f.mark),
    amount: fromAtoms(f.amount),
    at: fromMillis(f.funding_at),
  };
}

export function liquidationView(l: repo.LiquidationRow): PerpLiquidation {
  const side = l.qty > 0n ? 'long' : 'short';
  const size = l.qty < 0n ? -l.qty : l.qty;
  return {
    id: String(l.id),
    symbol: l.symbol,
    kind: l.kind,
    side,
    qty: fromAtoms(size),
    entry_price:
      l.kind === 'liquidation' && size > 0n ? fromAtoms((l.entry * 100_000_000n) / size) : '0.00000000',
    margin: fromAtoms(l.margin),
    mark: fromAtoms(l.mark),
    price: fromAtoms(l.price),
    pnl: fromAtoms(l.pnl),
    at: fromMillis(l.created_at),
  };
}
