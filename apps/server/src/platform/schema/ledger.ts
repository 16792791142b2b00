// The ledger (accounts, journal entries, postings, adjustments waiting for approval), the audit log and
// the back office's staff.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export interface LedgerAccountsTable {
  id: Generated<bigint>;
  /** `user:<id>` or `system:<name>`. */
  owner: string;
  user_id: bigint | null;
  asset: string;
  kind: string;
  balance: Generated<bigint>;
}

export interface JournalEntriesTable {
  id: Generated<bigint>;
  type: string;
  ref: string;
  memo: Generated<string>;
  created_by: string;
  created_at: Millis;
}

export interface PostingsTable {
  id: Generated<bigint>;
  entry_id: bigint;
  account_id: bigint;
  amount: bigint;
  balance_after: bigint;
}

/** One run of the routine ledger check: the postings it verified, and how it ended. */
export interface LedgerChecksTable {
  id: Generated<bigint>;
  read_at: bigint;
  from_posting_id: bigint;
  through_posting_id: bigint;
  ok: bigint | null;
  verified_through: bigint | null;
  finished_at: bigint | null;
  problems: Generated<string>;
}

/** A manual adjustment above the approval threshold, waiting for a second staff member. */
export interface AdjustmentRequestsTable {
  id: Generated<bigint>;
  user_id: bigint;
  asset: string;
  amount: bigint;
  usdt_value: bigint | null;
  reason: string;
  key: string;
  status: 'pending' | 'approved' | 'rejected';
  requested_by: string;
  requested_at: Millis;
  decided_by: string | null;
  decided_at: Millis | null;
  decision_reason: string | null;
  entry_id: bigint | null;
}

export interface AuditLogTable {
  id: Generated<bigint>;
  actor: string;
  action: string;
  target: string;
  reason: Generated<string>;
  before_json: string | null;
  after_json: string | null;
  ip: Generated<string>;
  created_at: Millis;
}

export type StaffRole = 'owner' | 'finance' | 'compliance' | 'support' | 'content';

/** Back-office accounts, apart from customers; written by the staff module. */
export interface StaffTable {
  id: Generated<bigint>;
  username: string;
  username_key: string;
  password_hash: string;
  role: StaffRole;
  /** Base32 TOTP secret; never returned after enrolment. */
  /** Sealed with `STAFF_SECRET_KEY` (`v1:…`, AES-256-GCM); the store never holds it in plain text. */
  totp_secret: string | null;
  totp_enabled: Generated<bigint>;
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  totp_last_step: Generated<bigint>;
  must_change_password: Generated<bigint>;
  status: Generated<'active' | 'disabled'>;
  created_at: Millis;
}

/** Staff sessions; `enrol` and `totp` are login steps waiting for a TOTP code, `active` a session. */
export interface StaffSessionsTable {
  id: Generated<bigint>;
  staff_id: bigint;
  token_hash: string;
  stage: 'enrol' | 'totp' | 'active';
  device: string;
  ip: string;
  created_at: Millis;
  last_used_at: Millis;
  revoked_at: Millis | null;
}
