import { z } from 'zod';
import { textField, tokenField } from './fields.ts';
import { amountField, historyQuery, idempotencyKeyField, idField, pageField } from './wallet.ts';

/** An amount on the wire in answers: 8 decimals, e.g. `"12.50000000"`. */
const amount = z.string();

// ---------------------------------------------------------------------------------------------
// Customer requests (`/Issue/*`, `/Agent/*`)

/** GET `/Issue/index`. */
export const IssueListQuery = z.object({ token: tokenField });
export type IssueListQuery = z.input<typeof IssueListQuery>;

/** GET `/Issue/details`: one project; `num` (tokens) prices a purchase and its expected allocation. */
export const IssueDetailQuery = z.object({
  id: idField,
  num: amountField('QTY_INVALID').optional(),
  token: tokenField,
});
export type IssueDetailQuery = z.input<typeof IssueDetailQuery>;

/** POST `/Issue/buy`: subscribe `num` tokens of project `id`. */
export const IssueBuyBody = z.object({
  id: idField,
  num: amountField('QTY_INVALID'),
  idempotency_key: idempotencyKeyField,
  token: tokenField,
});
export type IssueBuyBody = z.input<typeof IssueBuyBody>;

/**
 * GET `/Issue/issuelog`, `/Issue/rewards`, `/Agent/rewards`: newest first, 20 a page; `before` is
 * the last `id` of the previous page (see `historyQuery`).
 */
export const IssuePageQuery = historyQuery({ token: tokenField });
export type IssuePageQuery = z.input<typeof IssuePageQuery>;

/** GET `/Agent/index`: the agent centre; `generation` 1–3 filters the members. */
export const AgentCentreQuery = z.object({
  generation: z.coerce
    .number({ error: 'PARAM_ERROR' })
    .int({ error: 'PARAM_ERROR' })
    .min(1, { error: 'PARAM_ERROR' })
    .max(3, { error: 'PARAM_ERROR' })
    .optional(),
  page: pageField,
  token: tokenField,
});
export type AgentCentreQuery = z.input<typeof AgentCentreQuery>;

// ---------------------------------------------------------------------------------------------
// Customer answers

export const IssueProject = z.object({
  id: z.string(),
  name: z.string(),
  coin: z.string(),
  quote: z.string(),
  mode: z.enum(['pro_rata', 'fcfs']),
  /** not_started, open, allocating (window ended, distribution due), closed, cancelled, forbidden. */
  state: z.enum(['not_started', 'open', 'allocating', 'closed', 'cancelled', 'forbidden']),
  status: z.string(),
  start_at: z.number().int(),
  end_at: z.number().int(),
  release_at: z.number().int(),
  lock_days: z.number().int(),
  total_issue: amount,
  price: amount,
  per_min: amount,
  per_max: amount,
  individual_limit: amount,
  max_purchases: z.number().int(),
  soft_cap: amount,
  subscribed: amount,
  /** Σ records ÷ total issue in percent (two decimals); pro-rata demand may pass 100. */
  progress: z.string(),
  raised: amount,
  participants: z.number().int(),
  description: z.string(),
  server_time: z.number().int(),
});
export type IssueProject = z.infer<typeof IssueProject>;

export const IssueProjectList = z.object({ list: z.array(IssueProject), server_time: z.number().int() });
export type IssueProjectList = z.infer<typeof IssueProjectList>;

export const IssueDetail = z.object({
  project: IssueProject,
  mine: z.object({ records: z.number().int(), requested: amount, quantity: amount }),
  quote: z.object({
    quantity: amount,
    cost: amount,
    expected_quantity: amount,
    expected_paid: amount,
    expected_refund: amount,
    release_at: z.number().int(),
    oversubscribed: z.boolean(),
  }),
  server_time: z.number().int(),
});
export type IssueDetail = z.infer<typeof IssueDetail>;

export const IssueRecord = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  coin: z.string(),
  quote: z.string(),
  price: amount,
  requested: amount,
  committed: amount,
  quantity: amount,
  paid: amount,
  refunded: amount,
  /** The freeze cycle in days. */
  lock_days: z.number().int(),
  created_at: z.number().int(),
  release_at: z.number().int(),
  released_at: z.number().int().nullable(),
  /** frozen (committed or locked), thawed (released), refunded. */
  status: z.enum(['frozen', 'thawed', 'refunded']),
  stage: z.enum(['committed', 'locked', 'released', 'refunded']),
});
export type IssueRecord = z.infer<typeof IssueRecord>;

export const IssueRecordList = z.object({ list: z.array(IssueRecord), has_more: z.boolean() });
export type IssueRecordList = z.infer<typeof IssueRecordList>;

export const RewardRecord = z.object({
  id: z.string(),
  project: z.string(),
  /** Masked. */
  buyer: z.string(),
  generation: z.number().int(),
  asset: z.string(),
  base: amount,
  rate_bp: z.number().int(),
  amount,
  capped: amount,
  status: z.enum(['pending', 'paid', 'void', 'capped']),
  reason: z.string(),
  created_at: z.number().int(),
});
export type RewardRecord = z.infer<typeof RewardRecord>;

export const RewardList = z.object({
  list: z.array(RewardRecord),
  has_more: z.boolean(),
  /** Paid and pending this calendar month (UTC). */
  month_total: amount,
});
export type RewardList = z.infer<typeof RewardList>;

export const AgentStatusInfo = z.object({
  status: z.enum(['none', 'pending', 'approved', 'rejected', 'suspended']),
});
export type AgentStatusInfo = z.infer<typeof AgentStatusInfo>;

export const AgentCentre = z.object({
  counts: z.tuple([z.number().int(), z.number().int(), z.number().int()]),
  members: z.array(
    z.object({
      name: z.string(),
      joined_at: z.number().int(),
      generation: z.number().int(),
      verified: z.boolean(),
      total_paid: amount,
    }),
  ),
  has_more: z.boolean(),
  daily: z.array(z.object({ day: z.string(), amount })),
});
export type AgentCentre = z.infer<typeof AgentCentre>;

// ---------------------------------------------------------------------------------------------
// Back office

const bp = z.coerce
  .number({ error: 'CONFIG_LIMITS_INVALID' })
  .int({ error: 'CONFIG_LIMITS_INVALID' })
  .min(0)
  .max(10_000);

export const AdminProjectBody = z.object({
  name: textField('LP_PROJECT_INVALID', { max: 100 }),
  coin: z.string().regex(/^[A-Z0-9]{2,16}$/, { error: 'LP_PROJECT_INVALID' }),
  coinName: textField('LP_PROJECT_INVALID', { max: 60 }),
  coinDecimals: z.number({ error: 'LP_PROJECT_INVALID' }).int().min(0).max(8),
  quote: z.string().regex(/^[A-Z0-9]{2,16}$/, { error: 'LP_PROJECT_INVALID' }),
  startAt: z.number({ error: 'LP_PROJECT_INVALID' }).int().min(0),
  endAt: z.number({ error: 'LP_PROJECT_INVALID' }).int().min(0),
  totalIssue: amountField('LP_PROJECT_INVALID'),
  price: amountField('LP_PROJECT_INVALID'),
  lockDays: z.number({ error: 'LP_PROJECT_INVALID' }).int().min(0).max(3650),
  perMin: amountField('LP_PROJECT_INVALID'),
  perMax: amountField('LP_PROJECT_INVALID'),
  individualLimit: amountField('LP_PROJECT_INVALID'),
  maxPurchases: z.number({ error: 'LP_PROJECT_INVALID' }).int().min(1).max(1000).optional().default(1),
  softCap: z
    .string()
    .regex(/^\d{1,20}(\.\d{1,8})?$/, { error: 'LP_PROJECT_INVALID' })
    .optional()
    .default('0'),
  mode: z.enum(['pro_rata', 'fcfs'], { error: 'LP_PROJECT_INVALID' }).optional().default('pro_rata'),
  referralBudgetBp: bp.optional(),
  descriptions: z.record(z.string(), z.string().max(20_000)).optional().default({}),
});
export type AdminProjectBody = z.input<typeof AdminProjectBody>;

export const AdminProject = IssueProject.extend({
  disabled: z.boolean(),
  referral_budget_bp: z.number().int(),
  descriptions: z.record(z.string(), z.string()),
  /** Token atoms held in the project's inventory account. */
  inventory: amount,
});
export type AdminProject = z.infer<typeof AdminProject>;
export const AdminProjectList = z.object({ list: z.array(AdminProject) });

export const AdminRecordList = z.object({ list: z.array(IssueRecord.extend({ user_id: z.string() })) });

export const AdminReward = RewardRecord.extend({ beneficiary_id: z.string(), buyer_id: z.string() });
export type AdminReward = z.infer<typeof AdminReward>;
export const AdminRewardList = z.object({ list: z.array(AdminReward), has_more: z.boolean() });

export const AdminRewardQuery = z.object({
  project: idField.optional(),
  status: z.enum(['pending', 'paid', 'void', 'capped']).optional(),
  page: pageField,
});

export const ReasonBody = z.object({ reason: textField('PARAM_MISSING', { max: 500 }) });
export type ReasonBody = z.input<typeof ReasonBody>;
export const DisableBody = z.object({
  disabled: z.boolean(),
  reason: textField('PARAM_MISSING', { max: 500 }),
});
export type DisableBody = z.input<typeof DisableBody>;

export const ReferralConfigBody = z.object({
  ratesBp: z.tuple([bp, bp, bp]),
  generations: z.union([z.literal(1), z.literal(3)], { error: 'CONFIG_LIMITS_INVALID' }),
  capPerProject: amountField('CONFIG_LIMITS_INVALID'),
  capPerMonth: amountField('CONFIG_LIMITS_INVALID'),
  budgetBp: bp,
  blockedCountries: z.array(z.string().regex(/^[A-Z]{2}$/, { error: 'COUNTRY_INVALID' })).max(300),
  /** The owner's acknowledgement of the legal warning: needed to turn generations 2–3 on. */
  acknowledge: z.boolean().optional().default(false),
});
export type ReferralConfigBody = z.input<typeof ReferralConfigBody>;

export type ReferralConfigInfo = z.infer<typeof ReferralConfigInfo>;
export const ReferralConfigInfo = z.object({
  ratesBp: z.tuple([z.number(), z.number(), z.number()]),
  generations: z.number().int(),
  capPerProject: amount,
  capPerMonth: amount,
  budgetBp: z.number().int(),
  blockedCountries: z.array(z.string()),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.number().int().nullable(),
});

export const AgentDecisionBody = z.object({
  decision: z.enum(['approve', 'reject', 'suspend', 'reinstate'], { error: 'PARAM_ERROR' }),
  note: z.string().max(500).optional().default(''),
  ratesBp: z.tuple([bp, bp, bp]).nullable().optional(),
});
export type AgentDecisionBody = z.input<typeof AgentDecisionBody>;

export const AdminAgent = z.object({
  user_id: z.string(),
  username: z.string(),
  status: z.enum(['pending', 'approved', 'rejected', 'suspended']),
  rates_override: z.array(z.number()).nullable(),
  note: z.string(),
  applied_at: z.number().int(),
  decided_at: z.number().int().nullable(),
  decided_by: z.string().nullable(),
});
export type AdminAgent = z.infer<typeof AdminAgent>;
export const AdminAgentList = z.object({ list: z.array(AdminAgent), has_more: z.boolean() });

export const AdminAgentQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected', 'suspended']).optional(),
  page: pageField,
});
