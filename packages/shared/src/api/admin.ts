import { z } from 'zod';
import { isAmountString } from '../format.ts';
import { optionalText, textField, tokenField } from './fields.ts';
import { DepositRecord, recordPage, WithdrawalRecord } from './wallet.ts';

/**
 * The back office's API contract (`/admin-api/*`): every request and answer but the wallet
 * configuration's (`config.ts`). Ids and times travel as JSON numbers (unix milliseconds), amounts
 * as decimal strings with 8 decimals. Field problems report result keys (`PARAM_MISSING`,
 * `PARAM_ERROR`, `STAFF_TOTP_WRONG`, …): the server answers them, the back office shows them
 * translated under the field.
 */

// ---------------------------------------------------------------------------------------------
// Fields

export const STAFF_ROLES = ['owner', 'finance', 'compliance', 'support', 'content'] as const;
export const StaffRole = z.enum(STAFF_ROLES, {
  error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR'),
});
export type StaffRole = z.infer<typeof StaffRole>;

/** Staff passwords: 8–128 characters, spaces kept. */
export const STAFF_PASSWORD_MIN = 8;
const staffPassword = textField('PARAM_ERROR', { min: STAFF_PASSWORD_MIN, max: 128, trim: false });

/** A record id in a path: 1–18 digits. */
const idText = z.string({ error: 'PARAM_ERROR' }).regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' });

/** A coin symbol in a query or body: upper-case letters and digits. */
const assetText = z
  .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR') })
  .trim()
  .regex(/^[A-Z0-9]{1,16}$/, { error: 'PARAM_ERROR' });

/** A reason or note typed by staff, at most 500 characters; '' when absent. */
const optionalReason = optionalText('PARAM_ERROR', 500);

/** A required reason (a rejection is always explained to the customer). */
const requiredReason = textField('PARAM_ERROR', { max: 500 });

/** A switch from a form or JSON: `true`/`false`, `1`/`0`. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'PARAM_ERROR' })
  .transform((v) => v === true || v === 'true' || v === '1');

const listLimit = z.coerce
  .number({ error: 'PARAM_ERROR' })
  .int({ error: 'PARAM_ERROR' })
  .min(1, { error: 'PARAM_ERROR' })
  .max(200, { error: 'PARAM_ERROR' })
  .default(50);

// why: 10 integer digits and 8 decimals, the same bound as every amount a customer types
// (MAX_AMOUNT_INTEGER_DIGITS: below 10^18 atoms, so a balance plus an adjustment stays in 64 bits).
const SIGNED_AMOUNT_RE = /^-?\d{1,10}(\.\d{1,8})?$/;

/** A positive amount staff type (a deposit's credited amount): at most 8 decimals. */
export const staffAmountField = textField('AMOUNT_INVALID', { max: 40 }).refine(
  (v) => isAmountString(v) && /[1-9]/.test(v),
  { error: 'AMOUNT_INVALID' },
);

/** A manual adjustment: signed, not zero, at most 8 decimals. */
export const signedAmountField = textField('PARAM_ERROR', { max: 40 }).refine(
  (v) => SIGNED_AMOUNT_RE.test(v) && /[1-9]/.test(v),
  { error: 'PARAM_ERROR' },
);

/** The six digits of an authenticator app. */
export const totpCodeField = textField('STAFF_TOTP_WRONG', { max: 10 }).refine((v) => /^\d{6}$/.test(v), {
  error: 'STAFF_TOTP_WRONG',
});

// ---------------------------------------------------------------------------------------------
// Requests

/** `POST /login`: step 1, the password. */
export const StaffLoginBody = z.object({
  username: textField('PARAM_ERROR', { max: 64 }),
  password: textField('PARAM_ERROR', { max: 128, trim: false }),
});
export type StaffLoginBody = z.input<typeof StaffLoginBody>;

/** `POST /totp/enrol`, `POST /totp/verify`: step 2, the ticket of step 1 and the current code. */
export const TotpBody = z.object({
  ticket: textField('STAFF_LOGIN_EXPIRED', { max: 200 }),
  code: totpCodeField,
  /** Required at enrolment when the password was set by someone else (STAFF_PASSWORD_CHANGE_REQUIRED). */
  newPassword: staffPassword.optional(),
});
export type TotpBody = z.input<typeof TotpBody>;

/** Calls that carry nothing but the session token (`/logout`, `/withdrawals/:id/approve`). */
export const StaffTokenBody = z.object({ token: tokenField });

/** Routes about one record: `/users/:id`, `/deposits/:id/…`, `/staff/:id/status`. */
export const IdParams = z.object({ id: idText });

/** `GET /users`: id, user name or phone (prefix); '' lists the newest. */
export const UserSearchQuery = z.object({ q: optionalText('PARAM_ERROR', 64), token: tokenField });

/** `GET /users/:id/statement`: newest first; `beforeId` is the last `id` of the previous page. */
export const StatementQuery = z.object({
  asset: assetText.optional(),
  beforeId: idText.optional(),
  limit: listLimit,
  token: tokenField,
});

/** `POST /users/:id/freeze`. */
export const FreezeBody = z.object({ frozen: flag, reason: optionalReason, token: tokenField });

/** `POST /users/:id/trade-ban`. */
export const TradeBanBody = z.object({ banned: flag, reason: optionalReason, token: tokenField });

/** `POST /users/:id/adjust`: `key` makes a repeated submission take effect once. */
export const AdjustBody = z.object({
  asset: assetText,
  amount: signedAmountField,
  reason: requiredReason,
  key: z
    .string({ error: 'PARAM_ERROR' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'PARAM_ERROR' })
    .optional(),
  token: tokenField,
});
export type AdjustBody = z.input<typeof AdjustBody>;

/** `GET /deposits`, `GET /withdrawals`: one status (absent or '' = every status), 20 a page. */
export const ReviewQueueQuery = z.object({
  status: z
    .string({ error: 'PARAM_ERROR' })
    .regex(/^[a-z_]{0,20}$/, { error: 'PARAM_ERROR' })
    .optional(),
  page: z.coerce
    .number({ error: 'PARAM_ERROR' })
    .int({ error: 'PARAM_ERROR' })
    .min(1, { error: 'PARAM_ERROR' })
    .max(100_000, { error: 'PARAM_ERROR' })
    .default(1),
  token: tokenField,
});

/** `POST /deposits/:id/confirm`: the amount that really arrived. */
export const ConfirmDepositBody = z.object({ amount: staffAmountField, token: tokenField });
export type ConfirmDepositBody = z.input<typeof ConfirmDepositBody>;

/** `POST /deposits/:id/reject`, `POST /withdrawals/:id/reject`. */
export const RejectBody = z.object({ reason: requiredReason, token: tokenField });
export type RejectBody = z.input<typeof RejectBody>;

/** `POST /staff`: a new account, which changes its password and enrols TOTP at first login. */
export const CreateStaffBody = z.object({
  username: textField('PARAM_ERROR', { max: 32 }).refine((v) => /^[A-Za-z0-9_.-]{3,32}$/.test(v), {
    error: 'PARAM_ERROR',
  }),
  password: staffPassword,
  role: StaffRole,
  token: tokenField,
});
export type CreateStaffBody = z.input<typeof CreateStaffBody>;

/** `POST /staff/:id/status`: disable (its sessions end) or enable. */
export const StaffStatusBody = z.object({ disabled: flag, reason: optionalReason, token: tokenField });

const auditFilterText = (max: number) =>
  z
    .string({ error: 'PARAM_ERROR' })
    .trim()
    .max(max, { error: 'PARAM_ERROR' })
    .optional()
    .transform((v) => v || undefined);
const millis = z.coerce.number({ error: 'PARAM_ERROR' }).int({ error: 'PARAM_ERROR' }).min(0).optional();

/** `GET /audit`: filters (exact actor, action and target; `from` inclusive, `to` exclusive). */
export const AuditQuery = z.object({
  actor: auditFilterText(64),
  action: auditFilterText(64),
  target: auditFilterText(128),
  from: millis,
  to: millis,
  beforeId: idText.optional(),
  limit: listLimit,
  token: tokenField,
});
export type AuditQuery = z.input<typeof AuditQuery>;

// ---------------------------------------------------------------------------------------------
// Answers

/** A staff account. */
export const StaffAccount = z.object({
  id: z.number().int(),
  username: z.string(),
  role: StaffRole,
  status: z.enum(['active', 'disabled']),
  totpEnabled: z.boolean(),
  mustChangePassword: z.boolean(),
  createdAt: z.number(),
});
export type StaffAccount = z.infer<typeof StaffAccount>;
export const StaffAccountList = z.array(StaffAccount);

/** `GET /me`: the signed-in staff member and the permissions of their role. */
export const StaffMe = StaffAccount.extend({ permissions: z.array(z.string()) });
export type StaffMe = z.infer<typeof StaffMe>;

/** `POST /login`: enrol a new TOTP secret (first login), or give the current code. */
export const StaffLoginStep = z.discriminatedUnion('step', [
  z.object({
    step: z.literal('enrol'),
    ticket: z.string(),
    secret: z.string(),
    otpauthUrl: z.string(),
    mustChangePassword: z.boolean(),
  }),
  z.object({ step: z.literal('totp'), ticket: z.string() }),
]);
export type StaffLoginStep = z.infer<typeof StaffLoginStep>;

/** `POST /totp/enrol`, `POST /totp/verify`: the staff session token. */
export const StaffSignedIn = z.object({ token: z.string(), staff: StaffAccount });
export type StaffSignedIn = z.infer<typeof StaffSignedIn>;

/** ok: serving normally; degraded: serving, but something needs the operator; down: not serving. */
export const HEALTH_STATUSES = ['ok', 'degraded', 'down'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** One dependency in the health report: its status, a line a person can act on, when it was taken. */
export const HealthCheck = z.object({
  status: z.enum(HEALTH_STATUSES),
  detail: z.string(),
  at: z.number(),
});
export type HealthCheck = z.infer<typeof HealthCheck>;

/** What `/readyz` answers and the dashboard shows: the worst status, then each dependency. */
export const HealthReport = z.object({
  status: z.enum(HEALTH_STATUSES),
  checks: z.object({
    database: HealthCheck,
    bus: HealthCheck,
    feed: HealthCheck,
    ledger: HealthCheck,
    /** The last scheduled backup's time and result; degraded when it failed or is overdue. */
    backup: HealthCheck,
    /** Degraded while a platform halt holds (orders, withdrawals and conversions refused). */
    halt: HealthCheck,
    /** Degraded (`warming: …`) while the markets' books load after a start; ok once loaded. */
    markets: HealthCheck,
  }),
});
export type HealthReport = z.infer<typeof HealthReport>;

/** The ledger's invariant check: its result and when it ran (unix ms). */
export const LedgerCheck = z.object({
  ok: z.boolean(),
  problems: z.array(z.string()),
  checkedAt: z.number().int(),
});
export type LedgerCheck = z.infer<typeof LedgerCheck>;

/** A platform halt that holds: why (`ledger`: a failed ledger check), its problems, since when. */
export const PlatformHalt = z.object({
  id: z.number().int(),
  reason: z.enum(['ledger']),
  detail: z.string(),
  haltedAt: z.number().int(),
});
export type PlatformHalt = z.infer<typeof PlatformHalt>;

/** `POST /platform/resume`: why staff clear the halt (on the record). */
export const ResumeBody = z.object({ reason: requiredReason, token: tokenField });
export type ResumeBody = z.input<typeof ResumeBody>;

/** `GET /dashboard`; the wallet's figures are null while no wallet is registered. */
export const Dashboard = z.object({
  usersTotal: z.number().int(),
  pendingDeposits: z.number().int().nullable(),
  pendingWithdrawals: z.number().int().nullable(),
  depositsToday: z.number().int().nullable(),
  withdrawalsToday: z.number().int().nullable(),
  /** The last periodic check (`LEDGER_CHECK_MINUTES`); `POST /ledger/check` runs one now. */
  ledger: LedgerCheck,
  /** The platform halt that holds, or null while the platform runs. */
  halt: PlatformHalt.nullable(),
  health: HealthReport,
});
export type Dashboard = z.infer<typeof Dashboard>;

/** A row of `GET /users`. */
export const UserSummary = z.object({
  id: z.number().int(),
  username: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(['active', 'frozen']),
  tradeBanned: z.boolean(),
  createdAt: z.number(),
  lastLoginAt: z.number().nullable(),
});
export type UserSummary = z.infer<typeof UserSummary>;
export const UserSummaryList = z.array(UserSummary);

/** `GET /users/:id`. */
export const UserAccount = UserSummary.extend({
  level: z.number().int(),
  inviteCode: z.string(),
  referrerId: z.number().int().nullable(),
  regIp: z.string(),
  lastLoginIp: z.string(),
  hasWithdrawPassword: z.boolean(),
  /** 0 not verified, 1 under review, 2 verified, 3 rejected. */
  realnameStatus: z.number().int(),
});
export type UserAccount = z.infer<typeof UserAccount>;

/** A row of `GET /users/:id/logins`; `reason` is the failure's result key ('' on success). */
export const LoginLogRow = z.object({
  id: z.number().int(),
  account: z.string(),
  success: z.boolean(),
  reason: z.string(),
  ip: z.string(),
  device: z.string(),
  createdAt: z.number(),
});
export type LoginLogRow = z.infer<typeof LoginLogRow>;
export const LoginLogList = z.array(LoginLogRow);

/** A row of `GET /users/:id/balances`: one asset and kind (`available`, `frozen`, …). */
export const BalanceRow = z.object({ asset: z.string(), kind: z.string(), balance: z.string() });
export type BalanceRow = z.infer<typeof BalanceRow>;
export const BalanceList = z.array(BalanceRow);

/** A row of `GET /users/:id/statement`: one ledger movement, signed. */
export const StatementRow = z.object({
  id: z.number().int(),
  entryId: z.number().int(),
  type: z.string(),
  ref: z.string(),
  memo: z.string(),
  asset: z.string(),
  kind: z.string(),
  amount: z.string(),
  balanceAfter: z.string(),
  createdAt: z.number(),
});
export type StatementRow = z.infer<typeof StatementRow>;
export const StatementList = z.array(StatementRow);

/**
 * `POST /users/:id/adjust`: `done` with the ledger entry and the user's available balance after
 * it; or `pending` with the request a second staff member must approve (the adjustment is worth
 * more than the approval threshold at the index, or its asset has no price).
 */
export const AdjustResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('done'), entryId: z.number().int(), balance: z.string() }),
  z.object({ status: z.literal('pending'), requestId: z.string() }),
]);
export type AdjustResult = z.infer<typeof AdjustResult>;

/** `GET /adjustments?status=`: requests for a second staff member's decision, newest first. */
export const AdjustmentRequestQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected'], { error: 'PARAM_ERROR' }).default('pending'),
  token: tokenField,
});

export const AdjustmentRequest = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  asset: z.string(),
  amount: z.string(),
  /** Its USDT value at the index when requested; null when the asset had no price. */
  usdtValue: z.string().nullable(),
  reason: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  requestedBy: z.string(),
  requestedAt: z.number(),
  decidedBy: z.string().nullable(),
  decidedAt: z.number().nullable(),
  decisionReason: z.string().nullable(),
  entryId: z.string().nullable(),
});
export type AdjustmentRequest = z.infer<typeof AdjustmentRequest>;
export const AdjustmentRequestList = z.array(AdjustmentRequest);

/** `POST /adjustments/:id/reject`. */
export const RejectAdjustmentBody = z.object({ reason: requiredReason, token: tokenField });

/** A deposit as staff review it: the customer's record, whose it is and who reviewed it. */
export const StaffDeposit = DepositRecord.extend({ user_id: z.string(), reviewed_by: z.string() });
export type StaffDeposit = z.infer<typeof StaffDeposit>;
/** A withdrawal as staff review it. */
export const StaffWithdrawal = WithdrawalRecord.extend({ user_id: z.string(), reviewed_by: z.string() });
export type StaffWithdrawal = z.infer<typeof StaffWithdrawal>;

/** `GET /deposits`: a page of the queue, each with the customer's user name ('' when unknown). */
export const StaffDepositRow = StaffDeposit.extend({ username: z.string() });
export type StaffDepositRow = z.infer<typeof StaffDepositRow>;
export const StaffDepositQueue = recordPage(StaffDepositRow);
export type StaffDepositQueue = z.infer<typeof StaffDepositQueue>;

/** `GET /withdrawals`. */
export const StaffWithdrawalRow = StaffWithdrawal.extend({ username: z.string() });
export type StaffWithdrawalRow = z.infer<typeof StaffWithdrawalRow>;
export const StaffWithdrawalQueue = recordPage(StaffWithdrawalRow);
export type StaffWithdrawalQueue = z.infer<typeof StaffWithdrawalQueue>;

/** `POST /staff`: the new account's id. */
export const CreatedStaff = z.object({ id: z.number().int() });

/**
 * A row of `GET /audit`: who, when, what, and the state before and after (JSON as recorded;
 * amounts in it are decimal strings).
 */
export const AuditRow = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  reason: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string(),
  createdAt: z.number(),
});
export type AuditRow = z.infer<typeof AuditRow>;
export const AuditList = z.array(AuditRow);
