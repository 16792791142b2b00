import type { Generated } from 'kysely';

/** Table types of the store. Times are unix milliseconds (`bigint` columns, read back as number|string). */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_logs: LoginLogsTable;
  captchas: CaptchasTable;
  withdraw_addresses: WithdrawAddressesTable;
  settings: SettingsTable;
}

type Millis = number | string | bigint;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username: unique, so `Alice` and `alice` are one account. */
  username_key: string;
  phone: string | null;
  email: string | null;
  password_hash: string;
  pay_password_hash: string | null;
  level: Generated<number>;
  credit: Generated<number>;
  invite_code: string;
  referrer_id: number | null;
  reg_ip: string;
  status: Generated<'active' | 'frozen'>;
  trade_banned: Generated<number>;
  realname_status: Generated<number>;
  last_login_at: Millis | null;
  last_login_ip: Generated<string>;
  withdraw_blocked_until: Generated<Millis>;
  created_at: Millis;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  device: string;
  ip: string;
  created_at: Millis;
  last_used_at: Millis;
  revoked_at: Millis | null;
}

export interface LoginLogsTable {
  id: Generated<number>;
  user_id: number | null;
  account: string;
  success: number;
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
  id: Generated<number>;
  user_id: number;
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
