/** Shapes of `/admin-api` answers (ids and times as numbers, amounts as decimal strings). */

export type StaffRole = 'owner' | 'finance' | 'compliance' | 'support' | 'content';

export interface StaffView {
  id: number;
  username: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  totpEnabled: boolean;
  mustChangePassword: boolean;
  createdAt: number;
}

export interface Me extends StaffView {
  permissions: string[];
}

export type LoginStep =
  | { step: 'enrol'; ticket: string; secret: string; otpauthUrl: string; mustChangePassword: boolean }
  | { step: 'totp'; ticket: string };

export interface UserSummary {
  id: number;
  username: string;
  phone: string | null;
  email: string | null;
  status: 'active' | 'frozen';
  tradeBanned: boolean;
  createdAt: number;
  lastLoginAt: number | null;
}

export interface UserAccount extends UserSummary {
  level: number;
  inviteCode: string;
  referrerId: number | null;
  regIp: string;
  lastLoginIp: string;
  hasWithdrawPassword: boolean;
  realnameStatus: number;
}

export interface LoginLogRow {
  id: number;
  account: string;
  success: boolean;
  reason: string;
  ip: string;
  device: string;
  createdAt: number;
}

export interface BalanceRow {
  asset: string;
  kind: string;
  balance: string;
}

export interface StatementRow {
  id: number;
  type: string;
  ref: string;
  memo: string;
  asset: string;
  kind: string;
  amount: string;
  balanceAfter: string;
  createdAt: number;
}

export interface AuditRow {
  id: number;
  actor: string;
  action: string;
  target: string;
  reason: string;
  before: unknown;
  after: unknown;
  ip: string;
  createdAt: number;
}

export interface Dashboard {
  usersTotal: number;
  pendingDeposits: number | null;
  pendingWithdrawals: number | null;
  depositsToday: number | null;
  withdrawalsToday: number | null;
  ledger: { ok: boolean; problems: string[] };
}

/** A deposit or withdrawal as the wallet lists it; read with {@link pick} since field names vary. */
export type ReviewRow = Record<string, unknown>;

/** The first present field among `names` (camelCase or snake_case), as text. */
export function pick(row: ReviewRow, ...names: string[]): string {
  for (const name of names) {
    const value = row[name];
    if (value !== undefined && value !== null) return String(value);
  }
  return '';
}

/** The rows of a list answer: an array, or `{ list | items, total | has_more }` (the wallet pages by `has_more`). */
export function rowsOf(data: unknown, page: number, pageSize: number): { rows: ReviewRow[]; total: number } {
  if (Array.isArray(data)) return { rows: data as ReviewRow[], total: data.length };
  const object = (data ?? {}) as Record<string, unknown>;
  const rows = (object.list ?? object.items ?? []) as ReviewRow[];
  if (typeof object.total === 'number') return { rows, total: object.total };
  // why: without a total, one more page is offered while the server says there is more.
  return { rows, total: (page - 1) * pageSize + rows.length + (object.has_more ? 1 : 0) };
}
