import { z } from 'zod';
import {
  CONSTITUENT_DROP_REASONS,
  CONTRACT_DIRECTIONS,
  CONTRACT_RESULTS,
  CONTRACT_STATUSES,
  HISTORY_MAX,
  KLINE_INTERVALS,
} from './delivery-constants.ts';
import { textField, tokenField } from './fields.ts';
import { amountField, historyQuery, idempotencyKeyField, idField, recordPage } from './wallet.ts';

/**
 * The delivery (timed up/down) contracts' API contract and the index history it is settled from:
 * `/apiv/Contract/*`, `/apiv/Market/index`, `/apiv/Market/kline`, and the `/ws` channels
 * `index:<symbol>` and `kline:<symbol>:<interval>`. Amounts and prices are decimal strings with 8
 * decimals; times are unix milliseconds; periods are seconds. The house is the counterparty: a win
 * pays amount × (1 + ratio), a loss keeps the amount, a draw (close = open) refunds it.
 */

// ---------------------------------------------------------------------------------------------
// Fields and constants

/** A market symbol such as `BTCUSDT` (upper-cased). */
export const marketSymbolField = textField('MARKET_NOT_OPEN', { max: 24 })
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'MARKET_NOT_OPEN' });

// why: the constants a page reads without validating anything are in a module without zod, so
// such a page does not load zod and the schemas (the package declares no side effects).
export * from './delivery-constants.ts';

/** Unix milliseconds in a query (`from`, `to`, `before`). */
const millisField = z.coerce
  .number({ error: 'PARAM_ERROR' })
  .int({ error: 'PARAM_ERROR' })
  .min(0, { error: 'PARAM_ERROR' })
  .max(8_640_000_000_000, { error: 'PARAM_ERROR' });

const limitField = z.coerce
  .number({ error: 'PARAM_ERROR' })
  .int({ error: 'PARAM_ERROR' })
  .min(1, { error: 'PARAM_ERROR' })
  .max(HISTORY_MAX, { error: 'PARAM_ERROR' })
  .optional();

/** A decimal on the wire in answers, e.g. `"96500.12000000"`. */
const decimal = z.string();

// ---------------------------------------------------------------------------------------------
// Index history

/** One recorded index tick: the price, when, and where it came from (`simulated` offline). */

/**
 * One source's part in one index tick: its price and its own timestamp (null when it had none),
 * and whether the median used it or why it was dropped.
 */
export const IndexConstituent = z.object({
  source: z.string(),
  price: decimal.nullable(),
  at: z.number().nullable(),
  used: z.boolean(),
  reason: z.enum(CONSTITUENT_DROP_REASONS).nullable(),
});
export type IndexConstituent = z.infer<typeof IndexConstituent>;

export const IndexTick = z.object({
  symbol: z.string(),
  price: decimal,
  at: z.number(),
  source: z.string(),
  /**
   * Every source's part in the tick (the index history and `index:<symbol>` frames carry it;
   * empty for ticks recorded before constituents were kept).
   */
  constituents: z.array(IndexConstituent).optional(),
});
export type IndexTick = z.infer<typeof IndexTick>;

/** One candle of the index: open time `t` (ms, aligned to the interval) and its prices. */
export const IndexCandle = z.object({
  t: z.number(),
  o: decimal,
  h: decimal,
  l: decimal,
  c: decimal,
});
export type IndexCandle = z.infer<typeof IndexCandle>;

/** GET `/Market/index`: recorded ticks of one symbol in [from, to], oldest first (at most `limit`). */
export const IndexHistoryQuery = z.object({
  symbol: marketSymbolField,
  from: millisField.optional(),
  to: millisField.optional(),
  limit: limitField,
});
export type IndexHistoryQuery = z.input<typeof IndexHistoryQuery>;
export const IndexHistory = z.array(IndexTick.required({ constituents: true }));
export type IndexHistory = z.infer<typeof IndexHistory>;

/** GET `/Market/kline`: candles of one symbol and interval, oldest first, ending before `before`. */
export const KlineQuery = z.object({
  symbol: marketSymbolField,
  interval: z.enum(KLINE_INTERVALS, { error: 'PARAM_ERROR' }),
  before: millisField.optional(),
  limit: limitField,
});
export type KlineQuery = z.input<typeof KlineQuery>;
export const KlineList = z.array(IndexCandle);
export type KlineList = z.infer<typeof KlineList>;

/** What the `kline:<symbol>:<interval>` channel pushes: the symbol, interval and the candle. */
export const KlineUpdate = z.object({
  symbol: z.string(),
  interval: z.enum(KLINE_INTERVALS),
  candle: IndexCandle,
});
export type KlineUpdate = z.infer<typeof KlineUpdate>;

// ---------------------------------------------------------------------------------------------
// Contracts: requests

/** GET `/Contract/index`: the trade page's products, balances and trial grants. */
export const DeliveryPageQuery = z.object({ token: tokenField });
export type DeliveryPageQuery = z.input<typeof DeliveryPageQuery>;

/**
 * POST `/Contract/place`: buy up or down on `symbol` for `period` seconds. `trial` `1` pays with
 * trial money (never both). The amount is frozen; the opening price is the index at acceptance.
 */
export const PlaceContractBody = z.object({
  symbol: marketSymbolField,
  direction: z.enum(CONTRACT_DIRECTIONS, { error: 'PARAM_ERROR' }),
  period: z.coerce
    .number({ error: 'CONTRACT_PERIOD_INVALID' })
    .int({ error: 'CONTRACT_PERIOD_INVALID' })
    .min(1, { error: 'CONTRACT_PERIOD_INVALID' })
    .max(31_536_000, { error: 'CONTRACT_PERIOD_INVALID' }),
  amount: amountField(),
  trial: z.enum(['0', '1'], { error: 'PARAM_ERROR' }).optional().default('0'),
  idempotency_key: idempotencyKeyField,
  token: tokenField,
});
export type PlaceContractBody = z.input<typeof PlaceContractBody>;

/**
 * GET `/Contract/ctbill`: `open` (open and settling) or `settled` (settled and closed), newest
 * first, 20 a page; `before` is the last `id` of the previous page (see `historyQuery`).
 */
export const ContractListQuery = historyQuery({
  status: z.enum(['open', 'settled'], { error: 'PARAM_ERROR' }).optional().default('open'),
  token: tokenField,
});
export type ContractListQuery = z.input<typeof ContractListQuery>;

/** GET `/Contract/cbillinfo`. */
export const ContractQuery = z.object({ id: idField, token: tokenField });
export type ContractQuery = z.input<typeof ContractQuery>;

// ---------------------------------------------------------------------------------------------
// Contracts: answers

/** One period a market offers: its length, payout ratio and amount bounds (USDT). */
export const ContractPeriod = z.object({
  /** Seconds; shown by the spec's duration rule (under 3600 s in seconds, then hours, then days). */
  seconds: z.number().int(),
  /** Paid on a win on top of the amount: `"0.80"` returns amount × 1.80. */
  ratio: decimal,
  min: decimal,
  max: decimal,
});
export type ContractPeriod = z.infer<typeof ContractPeriod>;

/** A market open for delivery contracts, with its latest index tick. */
export const DeliveryMarket = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  price_decimals: z.number().int(),
  /** `closed` markets are listed but refuse new contracts (MARKET_NOT_OPEN). */
  status: z.enum(['open', 'closed']),
  periods: z.array(ContractPeriod),
  /** The latest index tick; `stale` when it is older than the staleness limit. */
  index: IndexTick.nullable(),
  stale: z.boolean(),
});
export type DeliveryMarket = z.infer<typeof DeliveryMarket>;

/** One grant of trial money and what is left of it. */
export const TrialGrant = z.object({
  id: z.string(),
  /** The plan's name as staff wrote it (a campaign name). */
  name: z.string(),
  /**
   * Granted by the platform when the identity was verified (the welcome grant; the app shows its
   * own translated name for these).
   */
  signup: z.boolean(),
  amount: decimal,
  remaining: decimal,
  /** Most real USDT its winning contracts can pay out in profit. */
  profit_cap: decimal,
  profit_paid: decimal,
  /** Profit credited and still locked in `trial_profit` (docs/trial-money.md). */
  profit_locked: decimal,
  /** Real turnover still needed to release `profit_locked` (0 when nothing is locked). */
  turnover_left: decimal,
  expires_at: z.number(),
  status: z.enum(['active', 'used', 'expired']),
});
export type TrialGrant = z.infer<typeof TrialGrant>;

/** GET `/Contract/index` answer. */
export const DeliveryPage = z.object({
  markets: z.array(DeliveryMarket),
  /**
   * Available real USDT, trial money, and trial profit locked until real turnover releases it
   * (`trial_profit`).
   */
  balance: z.object({ usdt: decimal, trial: decimal, trial_profit: decimal }),
  /**
   * Real delivery turnover still needed to release all locked trial profit: the amounts of real
   * contracts settled as a win or a loss from now on count.
   */
  trial_turnover_left: decimal,
  /** Real turnover required per unit of trial profit (e.g. `"10"`). */
  trial_turnover_multiple: z.string(),
  trial_grants: z.array(TrialGrant),
  /** A contract whose expiry finds no index tick for this long is closed and refunded. */
  grace_seconds: z.number().int(),
  /** An index older than this refuses new contracts (INDEX_STALE). */
  stale_after_ms: z.number().int(),
  /** The server's clock, so countdowns do not depend on the phone's. */
  server_time: z.number(),
});
export type DeliveryPage = z.infer<typeof DeliveryPage>;

/** A delivery contract as the customer sees it (list and detail). */
export const ContractRecord = z.object({
  id: z.string(),
  symbol: z.string(),
  direction: z.enum(CONTRACT_DIRECTIONS),
  /** Seconds. */
  period: z.number().int(),
  amount: decimal,
  funding: z.enum(['real', 'trial']),
  /** The payout ratio fixed when the contract was placed (the yield ratio). */
  ratio: decimal,
  status: z.enum(CONTRACT_STATUSES),
  result: z.enum(CONTRACT_RESULTS).nullable(),
  /** The opening index: the first tick recorded after acceptance; null while `opening`. */
  open_price: decimal.nullable(),
  /** When the opening tick was recorded; null while `opening`. */
  open_at: z.number().nullable(),
  open_source: z.string().nullable(),
  /** The sources' prices that made the opening tick (empty for ticks recorded before they were kept). */
  open_constituents: z.array(IndexConstituent).nullable(),
  /** When the contract expires (open_at + period); while `opening`, the earliest it can (acceptance + period). */
  expires_at: z.number(),
  close_price: decimal.nullable(),
  close_at: z.number().nullable(),
  close_source: z.string().nullable(),
  close_constituents: z.array(IndexConstituent).nullable(),
  /**
   * Signed profit or loss in USDT once settled: `+amount × ratio` on a win (for trial money: the
   * profit paid to the real balance, capped by the grant), `-amount` on a loss, `0` on a draw or
   * refund; null while open.
   */
  profit: decimal.nullable(),
  settled_at: z.number().nullable(),
  /** When the contract was accepted (its amount held). */
  created_at: z.number(),
});
export type ContractRecord = z.infer<typeof ContractRecord>;

export const ContractList = recordPage(ContractRecord);
export type ContractList = z.infer<typeof ContractList>;
