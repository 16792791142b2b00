import { MAX_PRICE, type MarketSpec } from '@bourse/engine';
import { ATOMS_PER_UNIT, fromAtoms, MAX_AMOUNT_ATOMS } from '@bourse/shared';
import type { SpotMarket, SpotOrder } from '@bourse/shared/api';
import { fromMillis } from '../../platform/time.ts';
import type { OrderRow, SpotMarketRow } from './repository.ts';

/**
 * A spot market's units. The engine counts prices in ticks and quantities in lots; the ledger
 * counts atoms. A tick is `tick_size` quote atoms, a lot `lot_size` base atoms, and a tick·lot
 * `tick_size × lot_size / 10^8` quote atoms, which a market must make a whole number (checked when
 * it is configured), so every conversion is exact.
 */

/** Highest price in ticks any book accepts: the engine's limit (2^53 − 1). */
export const MAX_PRICE_TICKS = MAX_PRICE;

/**
 * Highest price in ticks a market accepts: any price its quote asset can express (an amount is
 * below 10^18 atoms), up to the engine's limit of 2^53 − 1 ticks, which only ticks under 112
 * atoms reach first (a 10^-8 tick: 90,071,992.54740991); with a 0.01 tick, 9,999,999,999.99.
 */
export function maxPriceTicks(market: Pick<SpotMarketRow, 'tick_size'>): number {
  const expressible = MAX_AMOUNT_ATOMS / market.tick_size;
  return expressible < BigInt(MAX_PRICE_TICKS) ? Number(expressible) : MAX_PRICE_TICKS;
}

/**
 * Largest order in lots: any quantity its base asset can express. The engine also refuses a limit
 * whose price × quantity in tick·lots is not a safe integer (BTCUSDT: about 900,000,000 USDT), so
 * every fill's quote converts exactly.
 */
export function maxQtyLots(market: Pick<SpotMarketRow, 'lot_size'>): number {
  const expressible = MAX_AMOUNT_ATOMS / market.lot_size;
  return expressible < BigInt(Number.MAX_SAFE_INTEGER) ? Number(expressible) : Number.MAX_SAFE_INTEGER;
}

export function quotePerTickLot(market: Pick<SpotMarketRow, 'tick_size' | 'lot_size'>): bigint {
  return (market.tick_size * market.lot_size) / ATOMS_PER_UNIT;
}

/** Whether a market's sizes convert exactly (see above). */
export function hasExactUnits(market: Pick<SpotMarketRow, 'tick_size' | 'lot_size'>): boolean {
  return (
    market.tick_size > 0n &&
    market.lot_size > 0n &&
    (market.tick_size * market.lot_size) % ATOMS_PER_UNIT === 0n
  );
}

export function engineSpec(market: SpotMarketRow): MarketSpec {
  return {
    symbol: market.symbol,
    tickSize: Number(market.tick_size),
    lotSize: Number(market.lot_size),
    minPrice: 1,
    maxPrice: maxPriceTicks(market),
    maxQty: maxQtyLots(market),
    // why: a user's order never trades with the same user's resting order; its remainder is revoked.
    selfTradePrevention: 'cancel-newest',
    triggerSource: 'trade',
  };
}

/** Quote atoms of `qty` base atoms at `price` (both on the market's grid, so exact). */
export function quoteOf(price: bigint, qty: bigint): bigint {
  return (price * qty) / ATOMS_PER_UNIT;
}

/** A ratio in basis points as a short decimal: 10 → `"0.001"`. */
export function ratioOfBps(bps: bigint): string {
  return trimZeros(fromAtoms(bps * 10_000n));
}

/** A step size in atoms as a short decimal: 1,000,000 → `"0.01"`. */
export function stepOf(atoms: bigint): string {
  return trimZeros(fromAtoms(atoms));
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** `part ÷ whole` as a percent with two decimals, truncated (`"37.50"`). */
export function percentOf(part: bigint, whole: bigint): string {
  if (whole <= 0n) return '0.00';
  const hundredths = (part * 10_000n) / whole;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

export function toSpotMarket(row: SpotMarketRow): SpotMarket {
  return {
    symbol: row.symbol,
    base: row.base,
    quote: row.quote,
    tick_size: stepOf(row.tick_size),
    lot_size: stepOf(row.lot_size),
    min_notional: fromAtoms(row.min_notional),
    maker_fee: ratioOfBps(row.maker_fee_bps),
    taker_fee: ratioOfBps(row.taker_fee_bps),
    price_decimals: Number(row.price_decimals),
    qty_decimals: Number(row.qty_decimals),
    status: row.status,
  };
}

/** An order as its owner sees it; `market` gives the fee coin. */
export function toSpotOrder(row: OrderRow, market: Pick<SpotMarketRow, 'base' | 'quote'>): SpotOrder {
  const byAmount = row.qty === null;
  return {
    id: String(row.id),
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    tif: row.tif,
    price: row.price === null ? null : fromAtoms(row.price),
    qty: row.qty === null ? null : fromAtoms(row.qty),
    quote_amount: row.quote_amount === null ? null : fromAtoms(row.quote_amount),
    filled_qty: fromAtoms(row.filled_qty),
    turnover: fromAtoms(row.filled_quote),
    avg_price: row.filled_qty === 0n ? null : fromAtoms((row.filled_quote * ATOMS_PER_UNIT) / row.filled_qty),
    fee: fromAtoms(row.fee),
    fee_coin: row.side === 'buy' ? market.base : market.quote,
    fee_ratio: ratioOfBps(row.fee_bps),
    completion: byAmount
      ? percentOf(row.filled_quote, row.quote_amount ?? 0n)
      : percentOf(row.filled_qty, row.qty ?? 0n),
    status: row.status,
    revoke_reason: row.revoke_reason,
    trigger_price: row.trigger_price === null ? null : fromAtoms(row.trigger_price),
    trigger_condition: row.trigger_condition,
    triggered_at: row.triggered_at === null ? null : fromMillis(row.triggered_at),
    created_at: fromMillis(row.created_at),
    updated_at: fromMillis(row.updated_at),
  };
}
