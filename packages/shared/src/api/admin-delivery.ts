import { z } from 'zod';
import { isDecimalString, toAtoms } from '../format.ts';
import { configAmountField, switchField } from './config.ts';
import { CONTRACT_DIRECTIONS, CONTRACT_RESULTS, CONTRACT_STATUSES, IndexConstituent } from './delivery.ts';

/**
 * The back office's delivery-contract contract (`/admin-api/delivery/*`): products and their
 * periods, trial-money plans and grants, open exposure, the house's profit and loss, and every
 * contract with its settlement data. Like the rest of the back office, names are camelCase and
 * amounts decimal strings with at most 8 decimals. There is no call that edits a contract: its
 * prices, times and outcome are written by placement and settlement alone.
 *
 * Paths (permission in brackets; `delivery.manage`: owner; `delivery.read`: owner and finance):
 * - GET  `/delivery/products` [read] → `AdminDeliveryProductList`
 * - POST `/delivery/products/:symbol` [manage] `DeliveryProductBody` → null
 * - GET  `/delivery/trial-plans` [read] → `TrialPlanList`
 * - POST `/delivery/trial-plans` [manage] `TrialPlanBody` → `{ id }`
 * - GET  `/delivery/trial-grants` [read] `TrialGrantListQuery` → `AdminTrialGrantList`
 * - POST `/delivery/trial-grants` [manage] `GrantTrialBody` → `AdminTrialGrant`
 * - GET  `/delivery/exposure` [read] → `DeliveryExposureList`
 * - GET  `/delivery/pnl` [read] `HousePnlQuery` → `HousePnl`
 * - GET  `/delivery/contracts` [read] `AdminContractListQuery` → `AdminContractList`
 * - GET  `/delivery/contracts/:id` [read] → `AdminContractRecord`
 * Every POST is one transaction with its audit record.
 */

const decimal = z.string();

// why: zod may run a refinement on a value whose own format check failed; such a value compares as -1.
function atoms(value: string): bigint {
  return isDecimalString(value.trim()) ? toAtoms(value) : -1n;
}
const tokenField = z.string().max(200).optional();

/** A payout ratio as staff type it: `"0.85"` pays amount × 1.85 on a win; 0.0001 to 10, 4 decimals. */
export const ratioField = z
  .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR') })
  .trim()
  .regex(/^\d{1,2}(\.\d{1,4})?$/, { error: 'PARAM_ERROR' })
  .refine((v) => atoms(v) > 0n && atoms(v) <= atoms('10'), { error: 'PARAM_ERROR' });

// ---------------------------------------------------------------------------------------------
// Products and periods

/** One period of a product: seconds, payout ratio, minimum and maximum amount (USDT). */
export const DeliveryPeriodBody = z
  .object({
    seconds: z.coerce.number({ error: 'CONTRACT_PERIOD_INVALID' }).int().min(10).max(31_536_000),
    ratio: ratioField,
    min: configAmountField,
    max: configAmountField,
  })
  .refine((p) => atoms(p.min) > 0n && atoms(p.min) <= atoms(p.max), {
    error: 'CONFIG_LIMITS_INVALID',
    path: ['max'],
  });
export type DeliveryPeriodBody = z.infer<typeof DeliveryPeriodBody>;

/**
 * `POST /delivery/products/:symbol`: creates or replaces a market's product. `status` `closed`
 * refuses new contracts (open ones still settle). `maxExposure` caps, per direction, the sum of
 * the amounts of open contracts on the market. The periods replace the product's periods; a
 * changed ratio applies to contracts placed afterwards only (a contract keeps the ratio it was
 * placed with).
 */
export const DeliveryProductBody = z
  .object({
    status: z.enum(['open', 'closed'], { error: 'PARAM_ERROR' }),
    maxExposure: configAmountField,
    periods: z.array(DeliveryPeriodBody).min(1, { error: 'PARAM_MISSING' }).max(20, { error: 'PARAM_ERROR' }),
    token: tokenField,
  })
  .refine((v) => new Set(v.periods.map((p) => p.seconds)).size === v.periods.length, {
    error: 'CONTRACT_PERIOD_INVALID',
    path: ['periods'],
  });
export type DeliveryProductBody = z.input<typeof DeliveryProductBody>;

export const AdminDeliveryPeriod = z.object({
  seconds: z.number().int(),
  ratio: decimal,
  min: decimal,
  max: decimal,
});
export type AdminDeliveryPeriod = z.infer<typeof AdminDeliveryPeriod>;

/** A market's product; markets without one are listed with `configured` false and no periods. */
export const AdminDeliveryProduct = z.object({
  symbol: z.string(),
  configured: z.boolean(),
  status: z.enum(['open', 'closed']),
  maxExposure: decimal,
  periods: z.array(AdminDeliveryPeriod),
  updatedAt: z.number().nullable(),
});
export type AdminDeliveryProduct = z.infer<typeof AdminDeliveryProduct>;
export const AdminDeliveryProductList = z.array(AdminDeliveryProduct);

// ---------------------------------------------------------------------------------------------
// Trial money

export const TRIAL_TRIGGERS = ['signup', 'campaign'] as const;
export type TrialTrigger = (typeof TRIAL_TRIGGERS)[number];

/**
 * `POST /delivery/trial-plans`: creates a plan (no `id`) or updates one. `signup` plans that are
 * active grant every new account their amount; `campaign` plans are granted by staff to a user.
 * `profitCapPercent` caps the real USDT a grant's winning contracts pay, in percent of the
 * grant's amount (100 = the amount). A change applies to grants made afterwards.
 */
export const TrialPlanBody = z.object({
  id: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' })
    .optional(),
  name: z.string({ error: 'PARAM_MISSING' }).trim().min(1, { error: 'PARAM_MISSING' }).max(64),
  amount: configAmountField.refine((v) => atoms(v) > 0n, { error: 'CONFIG_AMOUNT_INVALID' }),
  validityDays: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(1).max(3650),
  profitCapPercent: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(0).max(10_000).default(100),
  trigger: z.enum(TRIAL_TRIGGERS, { error: 'PARAM_ERROR' }),
  active: switchField,
  token: tokenField,
});
export type TrialPlanBody = z.input<typeof TrialPlanBody>;

export const TrialPlan = z.object({
  id: z.string(),
  name: z.string(),
  amount: decimal,
  validityDays: z.number().int(),
  profitCapPercent: z.number().int(),
  trigger: z.enum(TRIAL_TRIGGERS),
  active: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TrialPlan = z.infer<typeof TrialPlan>;
export const TrialPlanList = z.array(TrialPlan);

/**
 * `POST /delivery/trial-grants`: grants a plan's trial money to a user (a campaign). `key` makes
 * a repeated submission take effect once (the same key answers the first grant).
 */
export const GrantTrialBody = z.object({
  userId: z.string().regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' }),
  planId: z.string().regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' }),
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'PARAM_ERROR' })
    .optional(),
  token: tokenField,
});
export type GrantTrialBody = z.input<typeof GrantTrialBody>;

/** `GET /delivery/trial-grants`: optionally one user's, 20 a page, newest first. */
export const TrialGrantListQuery = z.object({
  userId: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' })
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  token: tokenField,
});
export type TrialGrantListQuery = z.input<typeof TrialGrantListQuery>;

export const AdminTrialGrant = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  planId: z.string(),
  name: z.string(),
  amount: decimal,
  remaining: decimal,
  profitCap: decimal,
  profitPaid: decimal,
  /** Trial profit credited and still locked (docs/trial-money.md), released, and expired. */
  profitLocked: decimal,
  profitReleased: decimal,
  profitExpired: decimal,
  /** Real turnover required to release the locked profit, and counted so far. */
  turnoverRequired: decimal,
  turnoverDone: decimal,
  expiresAt: z.number(),
  status: z.enum(['active', 'used', 'expired']),
  /** Who granted it: `system` (on identity approval) or `staff:<id>`. */
  grantedBy: z.string(),
  createdAt: z.number(),
});
export type AdminTrialGrant = z.infer<typeof AdminTrialGrant>;

/**
 * `GET`/`POST /delivery/trial-settings`: the real turnover per unit of trial profit that releases
 * it. Multiples are decimal strings (at most two decimals). `minTurnoverMultiple` is
 * 2 / (1 − `maxRatio`) rounded up (null when no multiple is enough); the multiple in force is the
 * greater of the one set and that least one.
 */
export const TrialSettings = z.object({
  turnoverMultiple: z.string(),
  minTurnoverMultiple: z.string().nullable(),
  maxRatio: z.string(),
  effectiveTurnoverMultiple: z.string(),
});
export type TrialSettings = z.infer<typeof TrialSettings>;
export const TrialSettingsBody = z.object({
  turnoverMultiple: z
    .string({ error: 'PARAM_MISSING' })
    .trim()
    .regex(/^\d{1,4}(\.\d{1,2})?$/, { error: 'PARAM_ERROR' }),
});
export type TrialSettingsBody = z.input<typeof TrialSettingsBody>;

export const AdminTrialGrantList = z.object({
  list: z.array(AdminTrialGrant),
  page: z.number().int(),
  hasMore: z.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Exposure and profit and loss

/**
 * Open exposure of one market and direction: the amounts of open (and settling) contracts, what
 * the house would pay if all of them won (amount × (1 + ratio)), and the product's cap on `open`.
 */
export const DeliveryExposure = z.object({
  symbol: z.string(),
  direction: z.enum(CONTRACT_DIRECTIONS),
  openCount: z.number().int(),
  open: decimal,
  potentialPayout: decimal,
  maxExposure: decimal,
});
export type DeliveryExposure = z.infer<typeof DeliveryExposure>;
export const DeliveryExposureList = z.array(DeliveryExposure);

/** `GET /delivery/pnl`: contracts settled in [from, to] (unix ms; both optional). */
export const HousePnlQuery = z.object({
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  token: tokenField,
});
/** The filter a page holds for `GET /delivery/pnl` (the query as the server reads it). */
export type HousePnlFilter = z.output<typeof HousePnlQuery>;

/**
 * The house's result over settled and closed contracts. Real money: a loss earns the house the
 * amount, a win costs it amount × ratio. Trial money: a loss earns nothing (the trial money
 * returns to the trial account), a win costs the profit paid in real USDT. `pnl` is the sum.
 */
export const HousePnlLine = z.object({
  symbol: z.string(),
  contracts: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  draws: z.number().int(),
  refunds: z.number().int(),
  /** Amounts staked with real money. */
  staked: decimal,
  pnl: decimal,
});
export const HousePnl = z.object({
  from: z.number().nullable(),
  to: z.number().nullable(),
  total: HousePnlLine.omit({ symbol: true }),
  bySymbol: z.array(HousePnlLine),
});
export type HousePnl = z.infer<typeof HousePnl>;
export type HousePnlLine = z.infer<typeof HousePnlLine>;

// ---------------------------------------------------------------------------------------------
// Contracts (read only)

/** `GET /delivery/contracts`: filters; newest first, 20 a page. */
export const AdminContractListQuery = z.object({
  status: z.enum(CONTRACT_STATUSES, { error: 'PARAM_ERROR' }).optional(),
  symbol: z
    .string()
    .regex(/^[A-Z0-9]{2,24}$/, { error: 'PARAM_ERROR' })
    .optional(),
  userId: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' })
    .optional(),
  funding: z.enum(['real', 'trial'], { error: 'PARAM_ERROR' }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  token: tokenField,
});
/** The filter a page holds for `GET /delivery/contracts` (the query as the server reads it). */
export type AdminContractFilter = z.output<typeof AdminContractListQuery>;

/** A contract with everything its settlement used. */
export const AdminContractRecord = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  symbol: z.string(),
  direction: z.enum(CONTRACT_DIRECTIONS),
  period: z.number().int(),
  amount: decimal,
  funding: z.enum(['real', 'trial']),
  /** The trial grant it was paid from (trial money only). */
  grantId: z.string().nullable(),
  ratio: decimal,
  status: z.enum(CONTRACT_STATUSES),
  result: z.enum(CONTRACT_RESULTS).nullable(),
  /** The first index tick recorded after acceptance; null while the contract is `opening`. */
  openPrice: decimal.nullable(),
  /** When the opening index tick was recorded; the contract expires at `openPriceAt + period`. */
  openPriceAt: z.number().nullable(),
  openSource: z.string().nullable(),
  openConstituents: z.array(IndexConstituent).nullable(),
  /** Acceptance time. */
  openAt: z.number(),
  expiresAt: z.number(),
  closePrice: decimal.nullable(),
  closeAt: z.number().nullable(),
  closeSource: z.string().nullable(),
  closeConstituents: z.array(IndexConstituent).nullable(),
  /** What returned to the user in total (principal included) once settled; null while open. */
  payout: decimal.nullable(),
  /** The customer's signed result (see the customer `ContractRecord.profit`). */
  profit: decimal.nullable(),
  settledAt: z.number().nullable(),
  createdAt: z.number(),
});
export type AdminContractRecord = z.infer<typeof AdminContractRecord>;
export const AdminContractList = z.object({
  list: z.array(AdminContractRecord),
  page: z.number().int(),
  hasMore: z.boolean(),
});
export type AdminContractList = z.infer<typeof AdminContractList>;
