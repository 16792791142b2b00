import { z } from 'zod';
import { textField, tokenField } from './fields.ts';
import { amountField, historyQuery, idempotencyKeyField, idField } from './wallet.ts';

const amount = z.string();

/** GET `/Orepool/kjinfo`: one machine; `share` is a first buyer's share-link code. */
export const MiningProductQuery = z.object({
  id: idField,
  share: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,32}$/, { error: 'MINE_NOT_SHARED' })
    .optional(),
  token: tokenField,
});
export type MiningProductQuery = z.input<typeof MiningProductQuery>;

/** POST `/Orepool/buy`: a whole machine, or `share_bp` of a shared one (through `share`, the rest of that machine). */
export const MiningBuyBody = z.object({
  id: idField,
  share_bp: z.coerce
    .number({ error: 'MINE_SHARE_INVALID' })
    .int({ error: 'MINE_SHARE_INVALID' })
    .min(1, { error: 'MINE_SHARE_INVALID' })
    .max(10_000, { error: 'MINE_SHARE_INVALID' })
    .optional()
    .default(10_000),
  share: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,32}$/, { error: 'MINE_NOT_SHARED' })
    .optional(),
  idempotency_key: idempotencyKeyField,
  token: tokenField,
});
export type MiningBuyBody = z.input<typeof MiningBuyBody>;

/**
 * GET `/Orepool/Profitlist`: newest day first, 20 a page; `before` is the last `id` of the previous
 * page (see `historyQuery`), one of the caller's own rows.
 */
export const MiningPageQuery = historyQuery({ token: tokenField });
export type MiningPageQuery = z.input<typeof MiningPageQuery>;
export const MiningTokenQuery = z.object({ token: tokenField });
export type MiningTokenQuery = z.input<typeof MiningTokenQuery>;

export const MiningProduct = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['sole', 'shared']),
  coin: z.string(),
  income_type: z.enum(['constant', 'value']),
  price: amount,
  fees: z.object({
    hashrate: amount,
    electricity_day: amount,
    electricity_total: amount,
    management: amount,
  }),
  /** A whole machine's expected output a day (by value: at today's recorded index). */
  daily_output: amount,
  daily_value: amount,
  days: z.number().int(),
  capacity: z.number().int(),
  /** Machines left, in whole machines with decimals for shares. */
  capacity_left: amount,
  break_even: amount.nullable(),
  min_share_bp: z.number().int(),
  step_bp: z.number().int(),
  hold_coin: z.string(),
  min_hold: amount,
  min_referrals: z.number().int(),
  max_orders: z.number().int(),
  release_delay_days: z.number().int(),
  status: z.enum(['normal', 'stopped', 'paused', 'expired', 'sold_out']),
});
export type MiningProduct = z.infer<typeof MiningProduct>;

export const MiningOrder = z.object({
  id: z.string(),
  product_id: z.string(),
  name: z.string(),
  coin: z.string(),
  share_bp: z.number().int(),
  price: amount,
  start_at: z.number().int(),
  expire_at: z.number().int(),
  stopped_days: z.number().int(),
  status: z.enum(['waiting', 'normal', 'stopped', 'expired']),
  share_code: z.string().nullable(),
});
export type MiningOrder = z.infer<typeof MiningOrder>;

export const MiningMarket = z.object({ list: z.array(MiningProduct), orders: z.array(MiningOrder) });
export const MiningProductDetail = MiningProduct.extend({
  share: z.object({ code: z.string(), left_bp: z.number().int() }).nullable(),
});

export const MiningRevenue = z.object({
  id: z.string(),
  order_id: z.string(),
  name: z.string(),
  day: z.number().int(),
  coin: z.string(),
  amount,
  price_used: amount.nullable(),
  price_source: z.string().nullable(),
  release_at: z.number().int(),
  released: z.boolean(),
});
export type MiningRevenue = z.infer<typeof MiningRevenue>;
export const MiningRevenueList = z.object({ list: z.array(MiningRevenue), has_more: z.boolean() });

// Back office

export const AdminMiningProductBody = z.object({
  name: textField('MINE_PRODUCT_INVALID', { max: 100 }),
  type: z.enum(['sole', 'shared'], { error: 'MINE_PRODUCT_INVALID' }),
  feeHashrate: z.string().regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'MINE_PRODUCT_INVALID' }),
  feeElectricityDay: z.string().regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'MINE_PRODUCT_INVALID' }),
  feeManagement: z.string().regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'MINE_PRODUCT_INVALID' }),
  coin: z.string().regex(/^[A-Z0-9]{2,16}$/, { error: 'MINE_PRODUCT_INVALID' }),
  incomeType: z.enum(['constant', 'value'], { error: 'MINE_PRODUCT_INVALID' }),
  dailyQ: z
    .string()
    .regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'MINE_PRODUCT_INVALID' })
    .optional()
    .default('0'),
  dailyValue: z
    .string()
    .regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'MINE_PRODUCT_INVALID' })
    .optional()
    .default('0'),
  days: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(1).max(3650),
  capacity: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(1).max(1_000_000),
  minShareBp: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(1).max(10_000).optional().default(10_000),
  stepBp: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(1).max(10_000).optional().default(10_000),
  holdCoin: z
    .string()
    .regex(/^[A-Z0-9]{2,16}$/, { error: 'MINE_PRODUCT_INVALID' })
    .optional()
    .default('USDT'),
  minHold: z
    .string()
    .regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'MINE_PRODUCT_INVALID' })
    .optional()
    .default('0'),
  minReferrals: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(0).max(1000).optional().default(0),
  maxOrders: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(1).max(1000).optional().default(1),
  releaseDelayDays: z.number({ error: 'MINE_PRODUCT_INVALID' }).int().min(0).max(365).optional().default(1),
});

export const AdminMiningStatusBody = z.object({
  status: z.enum(['normal', 'paused'], { error: 'PARAM_ERROR' }),
});
export const AdminPoolFundBody = z.object({ amount: amountField(), idempotency_key: idempotencyKeyField });
export const AdminPoolList = z.object({
  list: z.array(
    z.object({
      coin: z.string(),
      balance: amount,
      daily: amount,
      days_covered: z.number().int().nullable(),
      warning: z.boolean(),
    }),
  ),
});

export const MiningProfitLine = z.object({
  series: z.array(
    z.object({
      coin: z.string(),
      points: z.array(z.object({ day: z.number().int(), amount, total: amount })),
    }),
  ),
});
export type MiningProfitLine = z.infer<typeof MiningProfitLine>;
export type MiningRevenueList = z.infer<typeof MiningRevenueList>;
export type MiningMarket = z.infer<typeof MiningMarket>;
export type MiningProductDetail = z.infer<typeof MiningProductDetail>;

export const AdminMiningOrderList = z.object({
  // why: an order as its owner sees it, with who bought it and what it has paid out so far.
  list: z.array(
    MiningOrder.pick({
      id: true,
      coin: true,
      share_bp: true,
      price: true,
      start_at: true,
      expire_at: true,
      stopped_days: true,
    }).extend({
      user_id: z.string(),
      username: z.string(),
      product: z.string(),
      earned: amount,
      frozen: amount,
    }),
  ),
});
export type AdminMiningOrderList = z.infer<typeof AdminMiningOrderList>;
export type AdminPoolList = z.infer<typeof AdminPoolList>;
