// What a place must be before it reaches the sequencer: its input, its trigger condition, and the
// checks against the market that turn it into the order row and the engine's units.

import { validatePlace } from '@bourse/engine';
import { AppError } from '@bourse/shared';
import type { SpotOrderType, TriggerCondition } from '@bourse/shared/api';
import { type EngineOrder, type NewOrder, toEngineOrder } from './commands.ts';
import type { SpotDeps } from './deps.ts';
import { engineSpec, MAX_PRICE_TICKS, quoteOf, quotePerTickLot } from './market.ts';
import type * as repo from './repository.ts';

export interface PlaceInput {
  symbol: string;
  side: 'buy' | 'sell';
  type: SpotOrderType;
  tif: 'gtc' | 'ioc' | 'fok' | 'post_only';
  price?: bigint;
  qty?: bigint;
  quoteAmount?: bigint;
  /** Trigger types only: the last trade price at which the order enters the book. */
  triggerPrice?: bigint;
  idempotencyKey: string;
}

/**
 * A trigger's condition on the last price: a stop buys when the price rises to its trigger and
 * sells when it falls to it; a take-profit the other way round.
 */
export function triggerConditionOf(type: SpotOrderType, side: 'buy' | 'sell'): TriggerCondition | null {
  if (type === 'limit' || type === 'market') return null;
  const isStop = type !== 'take_profit';
  return isStop === (side === 'buy') ? 'gte' : 'lte';
}

/** Checks a place against the market and turns it into the order row and the engine's units. */
export function prepareOrder(
  index: SpotDeps['index'],
  market: repo.SpotMarketRow,
  userId: bigint,
  input: PlaceInput,
): { order: NewOrder; engine: EngineOrder } {
  const { tick_size: tick, lot_size: lot } = market;
  const condition = triggerConditionOf(input.type, input.side);
  let triggerPrice: bigint | null = null;
  if (condition !== null) {
    const trigger = input.triggerPrice;
    if (
      trigger === undefined ||
      trigger <= 0n ||
      trigger % tick !== 0n ||
      trigger / tick > BigInt(MAX_PRICE_TICKS)
    )
      throw new AppError('TRIGGER_PRICE_INVALID');
    triggerPrice = trigger;
  }
  const base = {
    symbol: market.symbol,
    user_id: userId,
    side: input.side,
    type: input.type,
    idempotency_key: input.idempotencyKey,
    trigger_price: triggerPrice,
    trigger_condition: condition,
  };
  const reference = index.latestIndex(market.symbol)?.price;
  let order: NewOrder;
  let engine: EngineOrder;
  if (input.type === 'limit' || input.type === 'stop_limit') {
    const { price, qty } = input;
    if (price === undefined || price <= 0n || price % tick !== 0n) throw new AppError('PRICE_INVALID');
    if (price / tick > BigInt(MAX_PRICE_TICKS)) throw new AppError('PRICE_INVALID');
    if (qty === undefined || qty <= 0n || qty % lot !== 0n) throw new AppError('QTY_INVALID');
    const notional = quoteOf(price, qty);
    if (notional < market.min_notional) throw new AppError('NOTIONAL_TOO_SMALL');
    // why: a stop-limit's price is for the market as it will be; it is checked when it fires.
    if (input.type === 'limit' && reference !== undefined && reference > 0n) {
      const distance = price > reference ? price - reference : reference - price;
      if (distance * 10_000n > reference * market.band_bps) throw new AppError('PRICE_OUT_OF_BAND');
    }
    const buy = input.side === 'buy';
    order = {
      ...base,
      tif: input.tif,
      price,
      qty,
      quote_amount: null,
      fee_bps: input.tif === 'post_only' ? market.maker_fee_bps : market.taker_fee_bps,
      hold_asset: buy ? market.quote : market.base,
      held: buy ? notional : qty,
    };
    engine = {
      side: input.side,
      orderType: 'limit',
      tif: input.tif === 'post_only' ? 'post-only' : input.tif,
      price: Number(price / tick),
      qty: Number(qty / lot),
      quoteAmount: 0,
    };
  } else if (input.side === 'sell') {
    const { qty } = input;
    if (qty === undefined || qty <= 0n || qty % lot !== 0n) throw new AppError('QTY_INVALID');
    const at = triggerPrice ?? reference;
    if (at !== undefined && quoteOf(at, qty) < market.min_notional) throw new AppError('NOTIONAL_TOO_SMALL');
    order = {
      ...base,
      tif: 'ioc',
      price: null,
      qty,
      quote_amount: null,
      fee_bps: market.taker_fee_bps,
      hold_asset: market.base,
      held: qty,
    };
    engine = {
      side: 'sell',
      orderType: 'market',
      tif: undefined,
      price: 0,
      qty: Number(qty / lot),
      quoteAmount: 0,
    };
  } else {
    const amount = input.quoteAmount;
    if (amount === undefined || amount <= 0n) throw new AppError('AMOUNT_INVALID');
    if (amount < market.min_notional) throw new AppError('NOTIONAL_TOO_SMALL');
    const tickLots = amount / quotePerTickLot(market);
    if (tickLots < 1n || tickLots > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError('AMOUNT_INVALID');
    order = {
      ...base,
      tif: 'ioc',
      price: null,
      qty: null,
      quote_amount: amount,
      fee_bps: market.taker_fee_bps,
      hold_asset: market.quote,
      held: amount,
    };
    engine = {
      side: 'buy',
      orderType: 'market',
      tif: undefined,
      price: 0,
      qty: 0,
      quoteAmount: Number(tickLots),
    };
  }
  // why: the engine view of a trigger is what enters when it fires; the sequencer rebuilds it then.
  if (condition !== null) engine = toEngineOrder(order, market);
  const code = validatePlace(engineSpec(market), {
    type: 'place',
    seq: 1,
    orderId: 1,
    userId: 1,
    ...engine,
  });
  if (code === 1006 || code === 1007) throw new AppError('PRICE_INVALID');
  if (code === 1008) throw new AppError('QTY_INVALID');
  if (code !== 0) throw new AppError('PARAM_ERROR');
  return { order, engine };
}
