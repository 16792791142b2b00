// Customers' accounts: users, sessions and logins, settings, referral edges, identity, two-factor, e-mail,
// notifications and support.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export interface UsersTable {
  id: Generated<bigint>;
  username: string;
  /** Lower-cased username: unique, so `Alice` and `alice` are one account. */
  username_key: string;
  phone: string | null;
  email: string | null;
  password_hash: string;
  pay_password_hash: string | null;
  level: Generated<bigint>;
  credit: Generated<bigint>;
  invite_code: string;
  referrer_id: bigint | null;
  reg_ip: string;
  status: Generated<'active' | 'frozen'>;
  trade_banned: Generated<bigint>;
  realname_status: Generated<bigint>;
  last_login_at: Millis | null;
  last_login_ip: Generated<string>;
  withdraw_blocked_until: Generated<Millis>;
  /** The language of the user's mail and notices: the one they last signed in with. */
  locale: Generated<string>;
  created_at: Millis;
}

export interface SessionsTable {
  id: Generated<bigint>;
  user_id: bigint;
  token_hash: string;
  device: string;
  ip: string;
  created_at: Millis;
  last_used_at: Millis;
  revoked_at: Millis | null;
}

export interface LoginLogsTable {
  id: Generated<bigint>;
  user_id: bigint | null;
  account: string;
  success: bigint;
  reason: string;
  ip: string;
  device: string;
  created_at: Millis;
}

export interface CaptchasTable {
  captcha_key: string;
  answer_hash: string;
  expires_at: Millis;
}

export interface WithdrawAddressesTable {
  id: Generated<bigint>;
  user_id: bigint;
  coin: string;
  network: string;
  address: string;
  remark: string;
  created_at: Millis;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface ReferralEdgesTable {
  ancestor_id: bigint;
  descendant_id: bigint;
  /** 1 = the inviter, 2 = the inviter's inviter, 3 = the next. */
  depth: bigint;
  created_at: Millis;
}

/** An image uploaded for real-name verification, before it is part of a submission. */
export interface IdentityUploadsTable {
  name: string;
  user_id: bigint;
  used: Generated<bigint>;
  created_at: Millis;
}

export type IdentityStatus = 'pending' | 'approved' | 'rejected';
export type IdentityDocType = 'passport' | 'driver_licence' | 'ssn' | 'id_card';

export interface IdentityVerificationsTable {
  id: Generated<bigint>;
  user_id: bigint;
  doc_type: IdentityDocType;
  real_name: string;
  country: string;
  mobile: string;
  front_image: string;
  back_image: string;
  /**
   * The identity this document is (its trial grants and same-identity links are keyed on it): the
   * keyed hash (HMAC) of the number alone, or the hash an earlier record of the same number was
   * given (before, of country and number). The number itself is never stored.
   */
  doc_hash: string | null;
  /** Keyed hash of the canonical document number alone; null on rows recorded before it was kept. */
  number_hash: string | null;
  status: IdentityStatus;
  reason: Generated<string>;
  reviewed_by: bigint | null;
  reviewed_at: Millis | null;
  created_at: Millis;
}

export interface UserSecurityTable {
  user_id: bigint;
  /** Sealed (SecretBox) TOTP secret in use; null when two-factor codes are off. */
  totp_secret: string | null;
  /** Sealed secret shown at set-up, until a code confirms it. */
  totp_pending: string | null;
  totp_enabled: Generated<bigint>;
  /** The last accepted time step: a code is good once. */
  totp_last_step: Generated<bigint>;
  anti_phishing: Generated<string>;
  updated_at: Millis;
}

export interface UserBackupCodesTable {
  user_id: bigint;
  code_hash: string;
  used_at: Millis | null;
}

export type EmailCodePurpose = 'reset_password' | 'bind_email';

export interface EmailCodesTable {
  id: Generated<bigint>;
  purpose: EmailCodePurpose;
  email: string;
  user_id: bigint;
  code_hash: string;
  attempts: Generated<bigint>;
  expires_at: Millis;
  used_at: Millis | null;
  created_at: Millis;
}

export interface MailOutboxTable {
  id: Generated<bigint>;
  user_id: bigint | null;
  recipient: string;
  subject: string;
  body: string;
  /** 'kept': no SMTP configured, the outbox is the delivery; 'sent' or 'failed' through SMTP. */
  status: 'kept' | 'sent' | 'failed';
  error: Generated<string>;
  created_at: Millis;
}

export interface NotificationsTable {
  id: Generated<bigint>;
  /** The reader; null for a staff broadcast to everyone. */
  user_id: bigint | null;
  msg_key: string;
  /** JSON object of the message's parameters. */
  params: Generated<string>;
  /** A broadcast's JSON `{locale: {title, body}}`; null for keyed notices. */
  texts: string | null;
  read_at: Millis | null;
  created_by: bigint | null;
  created_at: Millis;
}

export interface NotificationReadsTable {
  notification_id: bigint;
  user_id: bigint;
  read_at: Millis;
}

export interface SupportConversationsTable {
  id: Generated<bigint>;
  user_id: bigint;
  /** Staff messages the user has not read. */
  user_unread: Generated<bigint>;
  /** User messages no staff member has read. */
  staff_unread: Generated<bigint>;
  last_message_at: Millis;
  created_at: Millis;
}

export interface SupportMessagesTable {
  id: Generated<bigint>;
  conversation_id: bigint;
  sender: 'user' | 'staff';
  staff_id: bigint | null;
  body: Generated<string>;
  /** A generated file name in the chat's private store; null for text. */
  image: string | null;
  created_at: Millis;
}
