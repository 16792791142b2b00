/** The spot markets' constants (see spot.ts), in a module without zod. */

export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];

/**
 * `limit` and `market` enter the book at once. The trigger types wait, with their funds held,
 * until the market's last trade price reaches `trigger_price`, then enter as a limit order at
 * `price` (`stop_limit`) or as a market order (`stop_market`, `take_profit`). A stop buys when the
 * price rises to its trigger and sells when it falls to it; a take-profit the other way round.
 */
export const ORDER_TYPES = ['limit', 'market', 'stop_limit', 'stop_market', 'take_profit'] as const;
export type SpotOrderType = (typeof ORDER_TYPES)[number];

/** The order types that wait for a trigger price. */
export const TRIGGER_ORDER_TYPES = ['stop_limit', 'stop_market', 'take_profit'] as const;
export type TriggerOrderType = (typeof TRIGGER_ORDER_TYPES)[number];

/**
 * A trigger's condition on the last trade price: `gte` fires when it rises to the trigger or
 * above, `lte` when it falls to it or below. Derived from the type and side: stop buy and
 * take-profit sell are `gte`; stop sell and take-profit buy are `lte`.
 */
export const TRIGGER_CONDITIONS = ['gte', 'lte'] as const;
export type TriggerCondition = (typeof TRIGGER_CONDITIONS)[number];

/** Time in force of a limit order; `post_only` rests without taking or is revoked. */
export const TIME_IN_FORCE = ['gtc', 'ioc', 'fok', 'post_only'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

/** entrusted: open (maybe partly filled); completed: fully filled; revoked: cancelled or expired. */
export const ORDER_STATUSES = ['entrusted', 'completed', 'revoked'] as const;
export type SpotOrderStatus = (typeof ORDER_STATUSES)[number];

/** Candle intervals built from trades. */
export const TRADE_KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w'] as const;
export type TradeKlineInterval = (typeof TRADE_KLINE_INTERVALS)[number];

/** Depth levels a snapshot carries at most. */
export const DEPTH_MAX_LEVELS = 100;
