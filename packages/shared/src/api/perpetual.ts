import { z } from 'zod';
import { marketSymbolField } from './delivery.ts';
import { tokenField } from './fields.ts';
import { DepthLevel } from './spot.ts';
import { amountField, historyQuery, idempotencyKeyField, idField, recordPage } from './wallet.ts';

/**
 * The perpetual contracts' API contract (`/apiv/Perp/*` and the `perp:<symbol>` `/ws` channel):
 * USDT-margined linear perpetuals, 1–5x, isolated margin, one-way mode (the rules are in
 * perpetual.md). Prices, quantities and amounts are decimal strings with up to 8 decimals; rates
 * are decimals too (`"0.0001"` = 0.01 %); times unix milliseconds; leverage a whole number.
 *
 * Customer paths (all but the market data need a session):
 * - GET  `/Perp/markets` → `PerpMarketList`
 * - GET  `/Perp/ticker` `PerpSymbolQuery` → `PerpTicker` (also pushed at 1 Hz on `perp:<symbol>`)
 * - GET  `/Perp/depth` `PerpDepthQuery` → `PerpDepth`
 * - GET  `/Perp/trades` `PerpSymbolQuery` → `PerpPublicTradeList`
 * - GET  `/Perp/rates` `PerpRatesQuery` → `PerpFundingRatePage` (the market's funding events)
 * - GET  `/Perp/account` `PerpSymbolQuery` → `PerpAccount` (leverage, available, position, open orders)
 * - POST `/Perp/leverage` `PerpLeverageBody` → `PerpAccount`
 * - POST `/Perp/place` `PerpPlaceBody` → `PerpOrderList` (a one-way flip answers two orders: the close and the open)
 * - POST `/Perp/cancel` `PerpCancelBody` → `PerpOrder`
 * - POST `/Perp/close` `PerpSymbolBody` → `PerpOrderList` (market reduce-only close of the whole position)
 * - POST `/Perp/tpsl` `PerpTpslBody` → `PerpOrderList` (the position's stop-loss / take-profit pair, one cancels the other)
 * - POST `/Perp/margin` `PerpMarginBody` → `PerpAccount`
 * - GET  `/Perp/orders` `PerpOrderHistoryQuery` → `PerpOrderPage`
 * - GET  `/Perp/order` `PerpOrderQuery` → `PerpOrderDetail` (the order page `/Trade/transinfo`)
 * - GET  `/Perp/funding` `PerpHistoryQuery` → `PerpFundingPage` (the caller's funding payments)
 * - GET  `/Perp/liquidations` `PerpHistoryQuery` → `PerpLiquidationPage` (the caller's liquidations and ADL)
 */

// ---------------------------------------------------------------------------------------------
// Constants

/** Order types: the trigger types wait for `trigger_price` on the last or the mark price. */
export const PERP_ORDER_TYPES = [
  'limit',
  'market',
  'stop_market',
  'stop_limit',
  'take_profit_market',
  'take_profit_limit',
] as const;
export type PerpOrderType = (typeof PERP_ORDER_TYPES)[number];

/** The price a trigger watches: the last trade or the mark. */
export const PERP_TRIGGER_REFS = ['last', 'mark'] as const;
export type PerpTriggerRef = (typeof PERP_TRIGGER_REFS)[number];

/**
 * An order's state. The spec's three (entrusted, completed, revoked) are `status`; `state` is the
 * detail: untriggered (a trigger waiting), new, partial, filled, cancelled, expired (an IOC or
 * market remainder), rejected (a fired trigger that could not enter).
 */
export const PERP_ORDER_STATES = [
  'untriggered',
  'new',
  'partial',
  'filled',
  'cancelled',
  'expired',
  'rejected',
] as const;
export type PerpOrderState = (typeof PERP_ORDER_STATES)[number];
export const PERP_ORDER_STATUSES = ['entrusted', 'completed', 'revoked'] as const;
export type PerpOrderStatus = (typeof PERP_ORDER_STATUSES)[number];

/** Why an order ended without filling whole. */
export const PERP_END_REASONS = [
  'user',
  'ioc',
  'reduce_only',
  'liquidation',
  'adl',
  'oco',
  'self_trade',
  'position_closed',
  'trigger_rejected',
  'price_protect',
] as const;
export type PerpEndReason = (typeof PERP_END_REASONS)[number];

export const PERP_MAX_LEVERAGE = 5;

// ---------------------------------------------------------------------------------------------
// Requests

export const PerpSymbolQuery = z.object({ symbol: marketSymbolField, token: tokenField });
export type PerpSymbolQuery = z.input<typeof PerpSymbolQuery>;
/** POST `/Perp/close`: the key (one per tap) makes a retried close close once. */
export const PerpSymbolBody = z.object({
  symbol: marketSymbolField,
  idempotency_key: idempotencyKeyField.optional(),
  token: tokenField,
});
export type PerpSymbolBody = z.input<typeof PerpSymbolBody>;

export const PerpDepthQuery = z.object({
  symbol: marketSymbolField,
  levels: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(1).max(100).optional().default(20),
});
export type PerpDepthQuery = z.input<typeof PerpDepthQuery>;

/** The market's funding events, newest first, 20 a page; `before` is the last `id` of the previous page. */
export const PerpRatesQuery = historyQuery({ symbol: marketSymbolField });
export type PerpRatesQuery = z.input<typeof PerpRatesQuery>;

const leverageField = z.coerce
  .number({ error: 'LEVERAGE_INVALID' })
  .int({ error: 'LEVERAGE_INVALID' })
  .min(1, { error: 'LEVERAGE_INVALID' })
  .max(PERP_MAX_LEVERAGE, { error: 'LEVERAGE_INVALID' });

/** POST `/Perp/leverage`: only while the caller holds no position and no open order in the market. */
export const PerpLeverageBody = z.object({
  symbol: marketSymbolField,
  leverage: leverageField,
  token: tokenField,
});
export type PerpLeverageBody = z.input<typeof PerpLeverageBody>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'PARAM_ERROR' })
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * POST `/Perp/place`. `qty` in the base coin on the lot size. Limit types take `price` (inside the
 * band around the mark, else PRICE_OUT_OF_BAND); market types fill up to the band and expire the
 * rest. Trigger types take `trigger_price` and `trigger_ref` (default last) and may ask
 * `price_protect` (skip while last and mark are more than the band apart). `close_position` (a
 * trigger only) closes whatever the position is when it fires. Opening quantity holds
 * IM + taker fee at the order's price (or the band price) from the available USDT.
 */
export const PerpPlaceBody = z.object({
  symbol: marketSymbolField,
  side: z.enum(['buy', 'sell'], { error: 'PARAM_ERROR' }),
  type: z.enum(PERP_ORDER_TYPES, { error: 'PARAM_ERROR' }),
  price: amountField('PRICE_INVALID').optional(),
  qty: amountField('QTY_INVALID').optional(),
  trigger_price: amountField('TRIGGER_PRICE_INVALID').optional(),
  trigger_ref: z.enum(PERP_TRIGGER_REFS, { error: 'PARAM_ERROR' }).optional().default('last'),
  price_protect: flag,
  reduce_only: flag,
  close_position: flag,
  post_only: flag,
  idempotency_key: idempotencyKeyField,
  token: tokenField,
});
export type PerpPlaceBody = z.input<typeof PerpPlaceBody>;

export const PerpCancelBody = z.object({ id: idField, token: tokenField });
export type PerpCancelBody = z.input<typeof PerpCancelBody>;

/** POST `/Perp/tpsl`: replaces the position's pair; either price may be left out. Fires as a market close. */
export const PerpTpslBody = z.object({
  symbol: marketSymbolField,
  stop_loss: amountField('TRIGGER_PRICE_INVALID').optional(),
  take_profit: amountField('TRIGGER_PRICE_INVALID').optional(),
  trigger_ref: z.enum(PERP_TRIGGER_REFS, { error: 'PARAM_ERROR' }).optional().default('mark'),
  token: tokenField,
});
export type PerpTpslBody = z.input<typeof PerpTpslBody>;

/**
 * POST `/Perp/margin`: add from available, or remove while the rule of perpetual.md §2 allows it.
 * The same key (one per submission) moves the margin once, however often it is sent.
 */
export const PerpMarginBody = z.object({
  symbol: marketSymbolField,
  direction: z.enum(['add', 'remove'], { error: 'PARAM_ERROR' }),
  amount: amountField(),
  idempotency_key: idempotencyKeyField.optional(),
  token: tokenField,
});
export type PerpMarginBody = z.input<typeof PerpMarginBody>;

/** The caller's orders, newest first, 20 a page; `before` is the last `id` of the previous page. */
export const PerpOrderHistoryQuery = historyQuery({
  symbol: marketSymbolField.optional(),
  status: z.enum(PERP_ORDER_STATUSES, { error: 'PARAM_ERROR' }).optional(),
  token: tokenField,
});
export type PerpOrderHistoryQuery = z.input<typeof PerpOrderHistoryQuery>;

export const PerpOrderQuery = z.object({ id: idField, token: tokenField });
export type PerpOrderQuery = z.input<typeof PerpOrderQuery>;

/** The caller's funding payments or liquidations, newest first, 20 a page; `before` as in `historyQuery`. */
export const PerpHistoryQuery = historyQuery({ symbol: marketSymbolField.optional(), token: tokenField });
export type PerpHistoryQuery = z.input<typeof PerpHistoryQuery>;

// ---------------------------------------------------------------------------------------------
// Answers

const decimal = z.string();

/** One risk tier: positions up to `max_notional` USDT (null: no bound) may use `max_leverage`. */
export const PerpTier = z.object({
  max_notional: decimal.nullable(),
  max_leverage: z.number().int(),
  mmr: decimal,
  cum: decimal,
});
export type PerpTier = z.infer<typeof PerpTier>;

export const PerpMarket = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  tick_size: decimal,
  lot_size: decimal,
  price_decimals: z.number().int(),
  qty_decimals: z.number().int(),
  maker_fee: decimal,
  taker_fee: decimal,
  band: decimal,
  max_leverage: z.number().int(),
  tiers: z.array(PerpTier),
  funding_interval_hours: z.number().int(),
  funding_cap: decimal,
  /** The mark's clamp c as a ratio (`"0.005"` = 0.5 %): the mark always stays within index·(1 ± c). */
  mark_clamp: decimal,
  status: z.enum(['open', 'halted']),
  /** The index comes from the demo's simulated feed, not real exchanges. */
  simulated: z.boolean(),
});
export type PerpMarket = z.infer<typeof PerpMarket>;
export const PerpMarketList = z.array(PerpMarket);
export type PerpMarketList = z.infer<typeof PerpMarketList>;

/** GET `/Perp/ticker` and each `perp:<symbol>` push (1 Hz). Null before the first value. */
export const PerpTicker = z.object({
  symbol: z.string(),
  mark: decimal.nullable(),
  index: decimal.nullable(),
  last: decimal.nullable(),
  /** The index is out: mark and funding frozen, only reduce-only orders accepted. */
  frozen: z.boolean(),
  /** The rate the next funding event would use if it were now, and when it is. */
  funding_rate: decimal,
  next_funding_at: z.number(),
  change_24h: decimal,
  volume_24h: decimal,
  ts: z.number(),
});
export type PerpTicker = z.infer<typeof PerpTicker>;

export const PerpDepth = z.object({
  symbol: z.string(),
  seq: z.number().int(),
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
});
export type PerpDepth = z.infer<typeof PerpDepth>;

export const PerpPublicTrade = z.object({
  id: z.string(),
  price: decimal,
  qty: decimal,
  side: z.enum(['buy', 'sell']),
  at: z.number(),
});
export type PerpPublicTrade = z.infer<typeof PerpPublicTrade>;
export const PerpPublicTradeList = z.array(PerpPublicTrade);
export type PerpPublicTradeList = z.infer<typeof PerpPublicTradeList>;

/**
 * The caller's position, with the figures of perpetual.md §1 at the current mark: `side` long or
 * short, `qty` unsigned; `entry_price` = entry value / qty (display); `liquidation_price` null
 * when there is none; `roe` a ratio (`"0.25"` = 25 %).
 */
export const PerpPosition = z.object({
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  qty: decimal,
  entry_value: decimal,
  entry_price: decimal,
  mark: decimal,
  margin: decimal,
  leverage: z.number().int(),
  notional: decimal,
  maintenance_margin: decimal,
  unrealised_pnl: decimal,
  roe: decimal,
  liquidation_price: decimal.nullable(),
  bankruptcy_price: decimal,
  realised_pnl: decimal,
  /** The position's attached stop-loss and take-profit trigger prices, if set. */
  stop_loss: decimal.nullable(),
  take_profit: decimal.nullable(),
});
export type PerpPosition = z.infer<typeof PerpPosition>;

/** An order as the spec's order page shows it (price, quantity, turnover, fee and ratio, trigger, degree, status). */
export const PerpOrder = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(PERP_ORDER_TYPES),
  /** Limit price, or the band price a market order was capped at; null for a market trigger still waiting. */
  price: decimal.nullable(),
  qty: decimal,
  filled_qty: decimal,
  /** Turnover: Σ price × quantity of the fills. */
  turnover: decimal,
  avg_price: decimal.nullable(),
  fee: decimal,
  /** Fee ratio actually charged: fee / turnover (null before a fill). */
  fee_ratio: decimal.nullable(),
  /** Completion degree: filled / ordered, `"0"`..`"1"`. */
  degree: decimal,
  leverage: z.number().int(),
  reduce_only: z.boolean(),
  close_position: z.boolean(),
  trigger_price: decimal.nullable(),
  trigger_ref: z.enum(PERP_TRIGGER_REFS).nullable(),
  /** `gte` fires when the reference rises to the trigger, `lte` when it falls to it. */
  trigger_condition: z.enum(['gte', 'lte']).nullable(),
  state: z.enum(PERP_ORDER_STATES),
  status: z.enum(PERP_ORDER_STATUSES),
  end_reason: z.enum(PERP_END_REASONS).nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type PerpOrder = z.infer<typeof PerpOrder>;
export const PerpOrderList = z.array(PerpOrder);
export type PerpOrderList = z.infer<typeof PerpOrderList>;
export const PerpOrderPage = recordPage(PerpOrder);
export type PerpOrderPage = z.infer<typeof PerpOrderPage>;

export const PerpFill = z.object({
  id: z.string(),
  price: decimal,
  qty: decimal,
  fee: decimal,
  role: z.enum(['maker', 'taker']),
  at: z.number(),
});
export type PerpFill = z.infer<typeof PerpFill>;
export const PerpOrderDetail = PerpOrder.extend({ fills: z.array(PerpFill) });
export type PerpOrderDetail = z.infer<typeof PerpOrderDetail>;

/** GET `/Perp/account`: what the order page needs in one answer. */
export const PerpAccount = z.object({
  symbol: z.string(),
  leverage: z.number().int(),
  /** Whether the leverage may be changed now (no position, no open order). */
  leverage_locked: z.boolean(),
  available: decimal,
  position: PerpPosition.nullable(),
  orders: PerpOrderList,
});
export type PerpAccount = z.infer<typeof PerpAccount>;

/** One funding event of a market: the rate and the mark it was paid at (`id`: the cursor of `before`). */
export const PerpFundingRate = z.object({
  id: z.string(),
  symbol: z.string(),
  rate: decimal,
  mark: decimal,
  at: z.number(),
});
export type PerpFundingRate = z.infer<typeof PerpFundingRate>;
export const PerpFundingRatePage = recordPage(PerpFundingRate);
export type PerpFundingRatePage = z.infer<typeof PerpFundingRatePage>;

/** One funding payment of the caller: negative paid, positive received. */
export const PerpFundingPayment = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  qty: decimal,
  rate: decimal,
  mark: decimal,
  amount: decimal,
  at: z.number(),
});
export type PerpFundingPayment = z.infer<typeof PerpFundingPayment>;
export const PerpFundingPage = recordPage(PerpFundingPayment);
export type PerpFundingPage = z.infer<typeof PerpFundingPage>;

/**
 * One of the caller's liquidation records: `liquidation` (the position taken over at its
 * bankruptcy price when its equity reached the maintenance margin at `mark`) or `adl` (part of
 * the position closed at `price` against the insurance fund's lot, with its `pnl`).
 */
export const PerpLiquidation = z.object({
  id: z.string(),
  symbol: z.string(),
  kind: z.enum(['liquidation', 'adl']),
  side: z.enum(['long', 'short']),
  qty: decimal,
  entry_price: decimal,
  margin: decimal,
  mark: decimal,
  price: decimal,
  pnl: decimal,
  at: z.number(),
});
export type PerpLiquidation = z.infer<typeof PerpLiquidation>;
export const PerpLiquidationPage = recordPage(PerpLiquidation);
export type PerpLiquidationPage = z.infer<typeof PerpLiquidationPage>;
