import { z } from 'zod';
import { pageField } from './wallet.ts';

/**
 * The back office's perpetual contract (`/admin-api/perp/*`). Names camelCase; money, prices and
 * quantities decimal strings; rates decimals (`"0.0001"` = 0.01 %). No path sets a mark price, a
 * funding rate or a liquidation: those come only from the index, the book and the rules.
 *
 * Paths (permission in brackets; `perp.manage`: owner; `perp.read`: owner, finance, compliance):
 * - GET  `/perp/markets` [read] → `AdminPerpMarketList` (parameters and live figures)
 * - POST `/perp/markets/:symbol` [manage] `EditPerpMarketBody` → `AdminPerpMarket` (fees, band,
 *   mark clamp, status; audited)
 * - POST `/perp/markets/:symbol/insurance` [manage] `FundInsuranceBody` → `AdminPerpMarket`
 *   (moves USDT from the platform treasury into the market's insurance fund; audited)
 * - GET  `/perp/insurance` [read] `AdminPerpPageQuery` → `AdminInsurancePage` (every movement of a fund)
 * - GET  `/perp/liquidations` [read] `AdminPerpPageQuery` → `AdminLiquidationPage`
 * - GET  `/perp/adl` [read] `AdminPerpPageQuery` → `AdminAdlPage`
 * - GET  `/perp/funding` [read] `AdminPerpPageQuery` → `AdminFundingPage`
 * - GET  `/perp/health` [read] → `AdminPerpHealth` (the five invariants per market, checked now)
 */

const decimal = z.string();
const reasonField = z
  .string({ error: 'PARAM_MISSING' })
  .trim()
  .min(3, { error: 'PARAM_MISSING' })
  .max(500, { error: 'PARAM_ERROR' });
const amountText = z
  .string({ error: 'PARAM_MISSING' })
  .trim()
  .regex(/^\d{1,10}(\.\d{1,8})?$/, { error: 'AMOUNT_INVALID' })
  .refine((v) => /[1-9]/.test(v), { error: 'AMOUNT_INVALID' });
/** A ratio in whole basis points up to 10 %: `"0.0005"`. */
const ratioText = z
  .string({ error: 'PARAM_MISSING' })
  .trim()
  .regex(/^0(\.\d{1,4})?$/, { error: 'PARAM_ERROR' })
  .refine((v) => Number(v) <= 0.1, { error: 'PARAM_ERROR' });

/** The mark clamp as a ratio with up to 8 decimals (a rate over 10^8): `"0.005"` is 0.5 %. */
const clampText = z
  .string({ error: 'PARAM_MISSING' })
  .trim()
  .regex(/^\d{1,3}(\.\d{1,8})?$/, { error: 'PARAM_ERROR' });

export const AdminPerpTier = z.object({
  maxNotional: decimal.nullable(),
  maxLeverage: z.number().int(),
  mmr: decimal,
  cum: decimal,
});
export type AdminPerpTier = z.infer<typeof AdminPerpTier>;

export const AdminPerpMarket = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  tickSize: decimal,
  lotSize: decimal,
  makerFee: decimal,
  takerFee: decimal,
  band: decimal,
  maxLeverage: z.number().int(),
  tiers: z.array(AdminPerpTier),
  fundingIntervalHours: z.number().int(),
  fundingCap: decimal,
  /** The mark never leaves index·(1 ± markClamp); at most a quarter of tier 1's `mmr`. */
  markClamp: decimal,
  status: z.enum(['open', 'halted']),
  simulated: z.boolean(),
  /** Live figures. */
  mark: decimal.nullable(),
  index: decimal.nullable(),
  frozen: z.boolean(),
  insurance: decimal,
  openInterest: decimal,
  longs: z.number().int(),
  shorts: z.number().int(),
  /** Positions the fund holds (taken over, not yet unwound). */
  fundLots: decimal,
  fundingRate: decimal,
  nextFundingAt: z.number(),
  owner: z.string().nullable(),
});
export type AdminPerpMarket = z.infer<typeof AdminPerpMarket>;
export const AdminPerpMarketList = z.array(AdminPerpMarket);
export type AdminPerpMarketList = z.infer<typeof AdminPerpMarketList>;

/**
 * Fee ratios, band, mark clamp and status; every field optional; the reason goes into the audit
 * record. The clamp's bounds depend on the market's tiers, so the server checks them
 * (`MARK_CLAMP_INVALID`: above 0 and at most tier 1's maintenance margin rate / 4).
 */
export const EditPerpMarketBody = z.object({
  makerFee: ratioText.optional(),
  takerFee: ratioText.optional(),
  band: ratioText.optional(),
  markClamp: clampText.optional(),
  status: z.enum(['open', 'halted'], { error: 'PARAM_ERROR' }).optional(),
  reason: reasonField,
});
export type EditPerpMarketBody = z.input<typeof EditPerpMarketBody>;

export const FundInsuranceBody = z.object({ amount: amountText, reason: reasonField });
export type FundInsuranceBody = z.input<typeof FundInsuranceBody>;

export const AdminPerpPageQuery = z.object({
  symbol: z.string().trim().max(24).optional(),
  page: pageField,
});
export type AdminPerpPageQuery = z.input<typeof AdminPerpPageQuery>;

function page<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** One movement of a market's insurance fund and why. */
export const AdminInsuranceMove = z.object({
  id: z.string(),
  symbol: z.string(),
  kind: z.enum(['takeover', 'unwind', 'bankrupt', 'funding', 'adl', 'topup']),
  amount: decimal,
  balanceAfter: decimal,
  ref: z.string(),
  at: z.number(),
});
export type AdminInsuranceMove = z.infer<typeof AdminInsuranceMove>;
export const AdminInsurancePage = page(AdminInsuranceMove);
export type AdminInsurancePage = z.infer<typeof AdminInsurancePage>;

export const AdminLiquidation = z.object({
  id: z.string(),
  symbol: z.string(),
  userId: z.string(),
  username: z.string(),
  side: z.enum(['long', 'short']),
  qty: decimal,
  entryPrice: decimal,
  margin: decimal,
  mark: decimal,
  bankruptcyPrice: decimal,
  /** Margin left at BP that went to the fund. */
  remainder: decimal,
  at: z.number(),
});
export type AdminLiquidation = z.infer<typeof AdminLiquidation>;
export const AdminLiquidationPage = page(AdminLiquidation);
export type AdminLiquidationPage = z.infer<typeof AdminLiquidationPage>;

export const AdminAdlEvent = z.object({
  id: z.string(),
  symbol: z.string(),
  userId: z.string(),
  username: z.string(),
  qty: decimal,
  price: decimal,
  pnl: decimal,
  at: z.number(),
});
export type AdminAdlEvent = z.infer<typeof AdminAdlEvent>;
export const AdminAdlPage = page(AdminAdlEvent);
export type AdminAdlPage = z.infer<typeof AdminAdlPage>;

export const AdminFundingEvent = z.object({
  id: z.string(),
  symbol: z.string(),
  rate: decimal,
  mark: decimal,
  /** Σ paid by payers, Σ received, and the residual kept by the fund. */
  paid: decimal,
  received: decimal,
  residual: decimal,
  positions: z.number().int(),
  at: z.number(),
});
export type AdminFundingEvent = z.infer<typeof AdminFundingEvent>;
export const AdminFundingPage = page(AdminFundingEvent);
export type AdminFundingPage = z.infer<typeof AdminFundingPage>;

/** One invariant of perpetual.md §5 for one market: the figure, what it must equal, and whether it does. */
export const AdminPerpInvariant = z.object({
  name: z.enum(['fund_zero', 'settlement', 'open_interest', 'margins', 'no_negative']),
  value: decimal,
  expected: decimal,
  ok: z.boolean(),
});
export const AdminPerpHealth = z.object({
  checkedAt: z.number(),
  markets: z.array(z.object({ symbol: z.string(), invariants: z.array(AdminPerpInvariant) })),
});
export type AdminPerpHealth = z.infer<typeof AdminPerpHealth>;
