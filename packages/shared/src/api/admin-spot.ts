import { z } from 'zod';
import { isDecimalString, toAtoms } from '../format.ts';
import { optionalText, textField, tokenField } from './fields.ts';
import { DEPTH_MAX_LEVELS, ORDER_STATUSES, ORDER_TYPES, TRIGGER_CONDITIONS } from './spot.ts';

/**
 * The back office's spot-market contract (`/admin-api/spot/*`): markets (create, edit, halt,
 * resume), a market's live book and recent trades, and a user's orders. Like the rest of the back
 * office, names are camelCase; prices, steps and amounts are decimal strings with at most 8
 * decimals; fee and band ratios are decimals too (`"0.001"` is 0.1 %, a whole number of basis
 * points).
 *
 * Paths (permission in brackets; `spot.manage`: owner; `spot.read`: owner, finance, compliance):
 * - GET  `/spot/markets` [read] → `AdminSpotMarketList`
 * - POST `/spot/markets` [manage] `CreateSpotMarketBody` → `AdminSpotMarket`
 * - POST `/spot/markets/:symbol` [manage] `EditSpotMarketBody` → `AdminSpotMarket`
 * - POST `/spot/markets/:symbol/halt` [manage] `SpotMarketStatusBody` → `{ revoked }`
 * - POST `/spot/markets/:symbol/resume` [manage] `SpotMarketStatusBody` → `AdminSpotMarket`
 * - GET  `/spot/markets/:symbol/book` [read] `AdminSpotBookQuery` → `DepthSnapshot`
 * - GET  `/spot/markets/:symbol/trades` [read] `AdminSpotBookQuery` → `PublicTradeList`
 * - GET  `/spot/orders` [read] `AdminSpotOrderQuery` → `AdminSpotOrderList`
 * - the market maker's settings and the demo traders' switch (below).
 * Every POST is one transaction with its audit record (before and after, in decimals). Halting
 * revokes every open order of the market (reason `halt`) and returns the funds they held.
 */

// why: zod may run a refinement on a value whose own format check failed; such a value compares as -1.
function atoms(value: string): bigint {
  return isDecimalString(value.trim()) ? toAtoms(value) : -1n;
}

/** A positive step (tick or lot size): at most 8 decimals, above zero. */
const stepField = z
  .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR') })
  .trim()
  .regex(/^\d{1,10}(\.\d{1,8})?$/, { error: 'PARAM_ERROR' })
  .refine((v) => atoms(v) > 0n, { error: 'PARAM_ERROR' });

/** An amount of zero or more with at most 8 decimals (the minimum notional). */
const amountText = z
  .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'CONFIG_AMOUNT_INVALID') })
  .trim()
  .regex(/^\d{1,10}(\.\d{1,8})?$/, { error: 'CONFIG_AMOUNT_INVALID' });

/** A ratio in whole basis points: `"0.001"` = 10 bps; 0 to `max`, at most 4 decimals. */
function ratioOf(max: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR') })
    .trim()
    .regex(/^\d(\.\d{1,4})?$/, { error: 'PARAM_ERROR' })
    .refine((v) => atoms(v) <= atoms(max), { error: 'PARAM_ERROR' });
}

/** Fee ratios: 0 to 10 %. */
export const feeRatioField = ratioOf('0.1');
/** The price band around the index: above 0, at most 100 %. */
export const bandRatioField = ratioOf('1').refine((v) => atoms(v) > 0n, { error: 'PARAM_ERROR' });

const marketFields = {
  tickSize: stepField,
  lotSize: stepField,
  minNotional: amountText,
  makerFee: feeRatioField,
  takerFee: feeRatioField,
  band: bandRatioField,
  token: tokenField,
};

/**
 * `POST /spot/markets`: adds a spot market for a market listed in the markets configuration
 * (its base and quote coins come from there). It opens at once unless `status` is `halted`.
 * Price and quantity decimals follow the tick and lot sizes. tick × lot must be a whole number of
 * atoms (10^-8 of the quote coin) so every trade's amount is exact.
 */
export const CreateSpotMarketBody = z.object({
  symbol: textField('PARAM_ERROR', { max: 24 })
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'PARAM_ERROR' }),
  ...marketFields,
  status: z.enum(['open', 'halted'], { error: 'PARAM_ERROR' }).optional().default('open'),
});
export type CreateSpotMarketBody = z.input<typeof CreateSpotMarketBody>;

/**
 * `POST /spot/markets/:symbol`: replaces a market's settings. Fees, band and minimum notional
 * apply to later orders; tick and lot size may change only while the market has no open order
 * (MARKET_HAS_OPEN_ORDERS otherwise: halting revokes them).
 */
export const EditSpotMarketBody = z.object(marketFields);
export type EditSpotMarketBody = z.input<typeof EditSpotMarketBody>;

/** `POST /spot/markets/:symbol/halt` and `/resume`: the reason goes to the audit log. */
export const SpotMarketStatusBody = z.object({
  reason: optionalText('PARAM_ERROR', 500),
  token: tokenField,
});
export type SpotMarketStatusBody = z.input<typeof SpotMarketStatusBody>;

export const AdminSpotBookQuery = z.object({
  limit: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(1).max(DEPTH_MAX_LEVELS).default(20),
  token: tokenField,
});

/** `GET /spot/orders`: one user's orders, newest first, 20 a page; `symbol` and `status` filter. */
export const AdminSpotOrderQuery = z.object({
  userId: z.string({ error: 'PARAM_MISSING' }).regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' }),
  symbol: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'PARAM_ERROR' })
    .optional(),
  status: z.enum(ORDER_STATUSES, { error: 'PARAM_ERROR' }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  token: tokenField,
}); /** The filter a page holds for `GET /spot/orders` (the query as the server reads it). */
export type AdminSpotOrderFilter = z.output<typeof AdminSpotOrderQuery>;

const decimal = z.string();

export const AdminSpotMarket = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  tickSize: decimal,
  lotSize: decimal,
  minNotional: decimal,
  makerFee: decimal,
  takerFee: decimal,
  band: decimal,
  priceDecimals: z.number().int(),
  qtyDecimals: z.number().int(),
  status: z.enum(['open', 'halted']),
  /** Orders resting in the book now. */
  openOrders: z.number().int(),
  updatedAt: z.number().int(),
  /** The node that sequences the market now (its lease); null while none does (a failover). */
  owner: z.string().nullable(),
  /** The owner's epoch: it grows by one at every change of owner. */
  epoch: z.string(),
});
export type AdminSpotMarket = z.infer<typeof AdminSpotMarket>;
export const AdminSpotMarketList = z.array(AdminSpotMarket);

export const SpotHaltResult = z.object({ revoked: z.number().int() });
export type SpotHaltResult = z.infer<typeof SpotHaltResult>;

export const AdminSpotOrder = z.object({
  id: z.string(),
  userId: z.string(),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(ORDER_TYPES),
  tif: z.string(),
  price: decimal.nullable(),
  qty: decimal.nullable(),
  quoteAmount: decimal.nullable(),
  /** A trigger type's trigger price and condition on the last price; null otherwise. */
  triggerPrice: decimal.nullable(),
  triggerCondition: z.enum(TRIGGER_CONDITIONS).nullable(),
  /** When the trigger fired (unix ms); null while it waits and without one. */
  triggeredAt: z.number().int().nullable(),
  filledQty: decimal,
  turnover: decimal,
  fee: decimal,
  feeCoin: z.string(),
  held: decimal,
  holdCoin: z.string(),
  status: z.enum(ORDER_STATUSES),
  revokeReason: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type AdminSpotOrder = z.infer<typeof AdminSpotOrder>;

export const AdminSpotOrderList = z.object({
  list: z.array(AdminSpotOrder),
  page: z.number().int(),
  hasMore: z.boolean(),
});
export type AdminSpotOrderList = z.infer<typeof AdminSpotOrderList>;

// ---------------------------------------------------------------------------------------------
// The market maker and the demo traders
//
// - GET  `/spot/market-maker` [read] → `AdminMakerOverview`
// - POST `/spot/market-maker/:symbol` [manage] `MakerSettingsBody` → `AdminMakerOverview`
// - POST `/spot/demo-traders` [manage] `DemoTradersBody` → `AdminMakerOverview`

const flagField = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'PARAM_ERROR' })
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * How the maker quotes a market: `levels` orders a side, the first `spread / 2` from the index and
 * each next one `step` further (ratios, `"0.002"` = 0.2 %), `levelQty` each (on the lot size);
 * it stops bidding above `inventoryTarget + maxInventoryDeviation` of the base coin and stops
 * asking below `inventoryTarget − maxInventoryDeviation`.
 */
export const MakerSettingsBody = z.object({
  enabled: flagField,
  levels: z.coerce.number({ error: 'PARAM_ERROR' }).int({ error: 'PARAM_ERROR' }).min(1).max(50),
  spread: ratioOf('0.2').refine((v) => atoms(v) > 0n, { error: 'PARAM_ERROR' }),
  step: ratioOf('0.1'),
  levelQty: stepField,
  inventoryTarget: amountText,
  maxInventoryDeviation: amountText,
  token: tokenField,
});
export type MakerSettingsBody = z.input<typeof MakerSettingsBody>;

/** `POST /spot/demo-traders`: switches the demo traders' random market orders. */
export const DemoTradersBody = z.object({ on: flagField, token: tokenField });

export const AdminMakerSettings = z.object({
  symbol: z.string(),
  enabled: z.boolean(),
  levels: z.number().int(),
  spread: decimal,
  step: decimal,
  levelQty: decimal,
  inventoryTarget: decimal,
  maxInventoryDeviation: decimal,
});
export type AdminMakerSettings = z.infer<typeof AdminMakerSettings>;

export const AdminMakerOverview = z.object({
  markets: z.array(AdminMakerSettings),
  demoTraders: z.boolean(),
});
export type AdminMakerOverview = z.infer<typeof AdminMakerOverview>;
