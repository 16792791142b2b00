import { z } from 'zod';
import { marketSymbolField } from './delivery.ts';
import { tokenField } from './fields.ts';
import {
  DEPTH_MAX_LEVELS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  TIME_IN_FORCE,
  TRADE_KLINE_INTERVALS,
  TRIGGER_CONDITIONS,
} from './spot-constants.ts';
import {
  amountField,
  CoinBalance,
  historyQuery,
  idempotencyKeyField,
  idField,
  recordPage,
} from './wallet.ts';

/**
 * The spot markets' API contract: `/apiv/Trade/*` (order entry and the customer's orders and
 * trades) and `/apiv/Market/*` (markets, tickers, depth, trades, candles built from the market's
 * own trades), plus the `/ws` channels. Prices and amounts are decimal strings with up to 8
 * decimals; times unix milliseconds. The spec's order states: entrusted (open, partially filled),
 * completed (filled), revoked (cancelled, possibly after partial fills).
 */

// why: the constants a page reads without validating anything are in a module without zod, so
// such a page does not load zod and the schemas (the package declares no side effects).
export * from './spot-constants.ts';

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * POST `/Trade/place`. Limit: `price` and `qty` (base), `tif` (default gtc). Market sell: `qty`.
 * Market buy: `quote_amount` (what to spend, in the quote coin). A trigger type also needs
 * `trigger_price`, which the last price must not have reached yet (else TRIGGER_WOULD_FIRE):
 * `stop_limit` takes `price` and `qty` like a limit; `stop_market` and `take_profit` take what a
 * market order of their side takes. Funds are held at acceptance, triggers included:
 * a limit buy holds price × qty, a market buy its quote amount, a sell its quantity (each side's
 * fee is taken from the coin it receives, so the hold needs no room for it). Prices must sit on
 * the tick size, quantities on the lot size.
 */
export const PlaceOrderBody = z.object({
  symbol: marketSymbolField,
  side: z.enum(ORDER_SIDES, { error: 'PARAM_ERROR' }),
  type: z.enum(ORDER_TYPES, { error: 'PARAM_ERROR' }),
  price: amountField('PRICE_INVALID').optional(),
  qty: amountField('QTY_INVALID').optional(),
  quote_amount: amountField('AMOUNT_INVALID').optional(),
  trigger_price: amountField('TRIGGER_PRICE_INVALID').optional(),
  tif: z.enum(TIME_IN_FORCE, { error: 'PARAM_ERROR' }).optional().default('gtc'),
  idempotency_key: idempotencyKeyField,
  token: tokenField,
});
export type PlaceOrderBody = z.input<typeof PlaceOrderBody>;

/** POST `/Trade/cancel`. */
export const CancelOrderBody = z.object({ id: idField, token: tokenField });
export type CancelOrderBody = z.input<typeof CancelOrderBody>;

/** POST `/Trade/cancelall`: every open order of the caller, optionally on one market. */
export const CancelAllBody = z.object({ symbol: marketSymbolField.optional(), token: tokenField });
export type CancelAllBody = z.input<typeof CancelAllBody>;

/** GET `/Trade/openorders`: the caller's open orders, newest first (all markets or one). */
export const OpenOrdersQuery = z.object({ symbol: marketSymbolField.optional(), token: tokenField });
export type OpenOrdersQuery = z.input<typeof OpenOrdersQuery>;

/**
 * GET `/Trade/tradebill`: the caller's orders, newest first, 20 a page; `status` filters. `before`
 * is the last `id` of the previous page (see `historyQuery`).
 */
export const OrderHistoryQuery = historyQuery({
  symbol: marketSymbolField.optional(),
  status: z.enum(ORDER_STATUSES, { error: 'PARAM_ERROR' }).optional(),
  token: tokenField,
});
export type OrderHistoryQuery = z.input<typeof OrderHistoryQuery>;

/** GET `/Trade/billinfo`: one of the caller's orders with its fills. */
export const OrderQuery = z.object({ id: idField, token: tokenField });
export type OrderQuery = z.input<typeof OrderQuery>;

/** GET `/Trade/mytrades`: the caller's fills, newest first, 20 a page; `before` as in `historyQuery`. */
export const MyTradesQuery = historyQuery({ symbol: marketSymbolField.optional(), token: tokenField });
export type MyTradesQuery = z.input<typeof MyTradesQuery>;

/** GET `/Market/depth`. */
export const DepthQuery = z.object({
  symbol: marketSymbolField,
  levels: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(1).max(DEPTH_MAX_LEVELS).optional().default(20),
});
export type DepthQuery = z.input<typeof DepthQuery>;

/** GET `/Market/trades`: the market's latest trades, newest first. */
export const RecentTradesQuery = z.object({
  symbol: marketSymbolField,
  limit: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(1).max(500).optional().default(50),
});
export type RecentTradesQuery = z.input<typeof RecentTradesQuery>;

/** GET `/Market/candles`: candles from the market's trades, oldest first, ending before `before`. */
export const TradeKlineQuery = z.object({
  symbol: marketSymbolField,
  interval: z.enum(TRADE_KLINE_INTERVALS, { error: 'PARAM_ERROR' }),
  before: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(0).optional(),
  limit: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(1).max(1000).optional().default(300),
});
export type TradeKlineQuery = z.input<typeof TradeKlineQuery>;

// ---------------------------------------------------------------------------------------------
// Answers

const decimal = z.string();

/** A spot market as customers see it (GET `/Market/spot`). */
export const SpotMarket = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  /** Smallest price step and quantity step, as decimals (`"0.01"`, `"0.0001"`). */
  tick_size: decimal,
  lot_size: decimal,
  /** Smallest price × quantity accepted, in the quote coin. */
  min_notional: decimal,
  /** Fee ratios, e.g. `"0.001"` for 0.1 %. */
  maker_fee: decimal,
  taker_fee: decimal,
  price_decimals: z.number().int(),
  qty_decimals: z.number().int(),
  status: z.enum(['open', 'halted']),
});
export type SpotMarket = z.infer<typeof SpotMarket>;
export const SpotMarketList = z.array(SpotMarket);
export type SpotMarketList = z.infer<typeof SpotMarketList>;

/** 24h statistics from the market's own trades, with the index beside them. */
export const SpotTicker = z.object({
  symbol: z.string(),
  /** Last trade price; null before the first trade. */
  last: decimal.nullable(),
  open_24h: decimal.nullable(),
  high_24h: decimal.nullable(),
  low_24h: decimal.nullable(),
  /** Percent with two decimals, e.g. `"-1.25"`; `"0.00"` without trades. */
  change_24h: decimal,
  /** Base volume and quote turnover over 24 hours. */
  volume_24h: decimal,
  turnover_24h: decimal,
  index: decimal.nullable(),
  ts: z.number(),
});
export type SpotTicker = z.infer<typeof SpotTicker>;
export const SpotTickerList = z.array(SpotTicker);
export type SpotTickerList = z.infer<typeof SpotTickerList>;

/** A depth level: price and total quantity. */
export const DepthLevel = z.tuple([decimal, decimal]);
export type DepthLevel = z.infer<typeof DepthLevel>;

/**
 * GET `/Market/depth` and the `depth:<symbol>` snapshot. `seq` is the market's sequence after
 * which the snapshot was taken; deltas carry the sequence they follow from.
 */
export const DepthSnapshot = z.object({
  symbol: z.string(),
  seq: z.number().int(),
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
});
export type DepthSnapshot = z.infer<typeof DepthSnapshot>;

/** A public trade. `side` is the taker's. */
export const PublicTrade = z.object({
  id: z.string(),
  price: decimal,
  qty: decimal,
  side: z.enum(ORDER_SIDES),
  at: z.number(),
});
export type PublicTrade = z.infer<typeof PublicTrade>;
export const PublicTradeList = z.array(PublicTrade);
export type PublicTradeList = z.infer<typeof PublicTradeList>;

/** A candle of the market's trades (open time `t`; volume `v` in base, turnover `q` in quote). */
export const TradeCandle = z.object({
  t: z.number(),
  o: decimal,
  h: decimal,
  l: decimal,
  c: decimal,
  v: decimal,
  q: decimal,
});
export type TradeCandle = z.infer<typeof TradeCandle>;
export const TradeCandleList = z.array(TradeCandle);
export type TradeCandleList = z.infer<typeof TradeCandleList>;

/** One fill of an order. */
export const OrderFill = z.object({
  id: z.string(),
  price: decimal,
  qty: decimal,
  /** Quote amount of the fill (price × qty). */
  turnover: decimal,
  fee: decimal,
  fee_coin: z.string(),
  role: z.enum(['maker', 'taker']),
  at: z.number(),
});
export type OrderFill = z.infer<typeof OrderFill>;

/** An order as the customer sees it (the spec's fields: price, quantity, turnover, fee and fee ratio, limit price, completion degree, status). */
export const SpotOrder = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  tif: z.enum(TIME_IN_FORCE),
  /** The limit price; null for market orders. */
  price: decimal.nullable(),
  /** Ordered quantity (base); null for a market buy by amount. */
  qty: decimal.nullable(),
  /** A market buy's amount to spend (quote); null otherwise. */
  quote_amount: decimal.nullable(),
  filled_qty: decimal,
  /** Σ price × qty of the fills (quote). */
  turnover: decimal,
  /** Average fill price; null before a fill. */
  avg_price: decimal.nullable(),
  fee: decimal,
  /** The coin the fee is taken in: the base coin for buys, the quote coin for sells. */
  fee_coin: z.string(),
  /** The ratio charged on the last fill's role, e.g. `"0.001"`; the detail lists each fill's. */
  fee_ratio: decimal,
  /** Completion degree: filled ÷ ordered, percent with two decimals (`"37.50"`). */
  completion: decimal,
  status: z.enum(ORDER_STATUSES),
  /**
   * Why a revoked order ended: `user`, `unfilled`, `fok`, `post_only`, `self_trade`, `halt`;
   * for a trigger that fired and could not enter: `trigger_out_of_band` (its limit price, or the
   * market's price for a market order, was outside the band around the index when it fired).
   */
  revoke_reason: z.string().nullable(),
  /** The trigger price of a trigger type; null for `limit` and `market`. */
  trigger_price: decimal.nullable(),
  /** The spec's "trigger condition": on the last price, `gte` or `lte` the trigger; null without one. */
  trigger_condition: z.enum(TRIGGER_CONDITIONS).nullable(),
  /** When the trigger fired (unix ms); null while it waits and for orders without one. */
  triggered_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type SpotOrder = z.infer<typeof SpotOrder>;

export const SpotOrderDetail = SpotOrder.extend({ fills: z.array(OrderFill) });
export type SpotOrderDetail = z.infer<typeof SpotOrderDetail>;

export const SpotOrderList = z.array(SpotOrder);
export type SpotOrderList = z.infer<typeof SpotOrderList>;
export const SpotOrderPage = recordPage(SpotOrder);
export type SpotOrderPage = z.infer<typeof SpotOrderPage>;

/** A fill of the caller's, with its order. */
export const MyTrade = OrderFill.extend({
  order_id: z.string(),
  symbol: z.string(),
  side: z.enum(ORDER_SIDES),
});
export type MyTrade = z.infer<typeof MyTrade>;
export const MyTradePage = recordPage(MyTrade);
export type MyTradePage = z.infer<typeof MyTradePage>;

/** POST `/Trade/cancelall` answer. */
export const CancelAllResult = z.object({ cancelled: z.number().int() });
export type CancelAllResult = z.infer<typeof CancelAllResult>;

// ---------------------------------------------------------------------------------------------
// WebSocket (`/ws`, `{"op":"subscribe","channel":…}`)

/**
 * `depth:<symbol>`: first a `DepthSnapshot`, then `DepthDelta`s. A delta lists changed levels
 * with their new total (`"0"` removes the level); `prev_seq` must equal the last seen `seq`,
 * else the client resubscribes for a new snapshot. One delta per committed batch of the market
 * (a batch already groups the commands queued meanwhile). The snapshot carries at most
 * `DEPTH_MAX_LEVELS` per side; deltas cover every level, so a level deeper than the snapshot's
 * last one is known once a delta touches it.
 */
export const DepthDelta = z.object({
  symbol: z.string(),
  prev_seq: z.number().int(),
  seq: z.number().int(),
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
  /** When the batch behind the delta was committed and published (unix ms). */
  ts: z.number(),
});
export type DepthDelta = z.infer<typeof DepthDelta>;

/** `trades:<symbol>`: the latest trades on subscribe (newest first), then each new batch. */
export const TradesUpdate = z.object({ symbol: z.string(), trades: z.array(PublicTrade) });
export type TradesUpdate = z.infer<typeof TradesUpdate>;

/** `spot-ticker`: every market's ticker on subscribe, then those that traded or whose index moved. */
export const SpotTickerUpdate = z.array(SpotTicker);
export type SpotTickerUpdate = z.infer<typeof SpotTickerUpdate>;

/** `spot-kline:<symbol>:<interval>`: the current candle on subscribe, then on every trade. */
export const TradeKlineUpdate = z.object({
  symbol: z.string(),
  interval: z.enum(TRADE_KLINE_INTERVALS),
  candle: TradeCandle,
});
export type TradeKlineUpdate = z.infer<typeof TradeKlineUpdate>;

/**
 * Private, after `{"op":"auth","token":…}`: `orders` sends the caller's open orders on subscribe,
 * then each batch's placed and changed orders of the caller.
 */
export const OrdersUpdate = z.array(SpotOrder);
export type OrdersUpdate = z.infer<typeof OrdersUpdate>;

/**
 * Private, after `auth`: `balances` sends every coin the caller holds on subscribe, then the
 * market's two coins whenever a batch moves the caller's funds there (holds, fills, releases).
 * Other movements (deposits, withdrawals, contracts) are not pushed.
 */
export const BalancesUpdate = z.array(CoinBalance);
export type BalancesUpdate = z.infer<typeof BalancesUpdate>;
