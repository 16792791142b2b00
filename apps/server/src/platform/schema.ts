import type { Generated } from 'kysely';

/**
 * Table types of the store. Every integer column reads back as `bigint` on both dialects (see
 * db.ts): ids, money, quantities, sequence numbers, flags and times alike. Times are unix
 * milliseconds (`Millis`), converted to and from the clock's numbers only in `time.ts`.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_logs: LoginLogsTable;
  captchas: CaptchasTable;
  withdraw_addresses: WithdrawAddressesTable;
  settings: SettingsTable;
  coins: CoinsTable;
  markets: MarketsTable;
  index_prices: IndexPricesTable;
  job_leases: JobLeasesTable;
}

/** Unix milliseconds as stored: a `bigint` column. */
export type Millis = bigint;

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

export type ListingStatus = 'active' | 'disabled';

/** Assets the platform knows; written by the markets module. */
export interface CoinsTable {
  id: Generated<bigint>;
  symbol: string;
  name: string;
  /** Decimals shown for amounts of this coin. */
  display_decimals: bigint;
  sort: Generated<bigint>;
  status: Generated<ListingStatus>;
}

/** Trading pairs; written by the markets module. */
export interface MarketsTable {
  id: Generated<bigint>;
  symbol: string;
  base: string;
  quote: string;
  /** Decimals shown for prices. */
  price_decimals: bigint;
  sort: Generated<bigint>;
  status: Generated<ListingStatus>;
}

/** The index feed's latest price per symbol (10^-8 quote units), so a restart continues from it. */
export interface IndexPricesTable {
  symbol: string;
  price: bigint;
  source: string;
  updated_at: Millis;
}

/** Who runs a scheduled job that must run on one node, until when; written by the scheduler. */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: Millis;
}
