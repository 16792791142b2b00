/**
 * The one registry of API result codes. Every error the API can answer with has a stable numeric
 * code, the HTTP status it travels with, and a message key translated in packages/i18n
 * (`server.json` → `errors.<KEY>`). Codes never change meaning once published.
 */
export const RESULT_CODES = {
  OK: { code: 1000, status: 200 },
  SESSION_INVALID: { code: 100, status: 200 },
  // 1xxx-2xxx general
  PARAM_ERROR: { code: 1001, status: 200 },
  PARAM_MISSING: { code: 1002, status: 200 },
  ILLEGAL_OPERATION: { code: 1003, status: 200 },
  TOO_MANY_REQUESTS: { code: 1004, status: 429 },
  NOT_FOUND: { code: 1005, status: 404 },
  INTERNAL_ERROR: { code: 1006, status: 500 },
  PLEASE_LOGIN: { code: 1007, status: 200 },
  SERVICE_UNAVAILABLE: { code: 1008, status: 503 },
  // why: 1050 onwards: the platform halt (a failed ledger check stops new business until staff clear it).
  PLATFORM_HALTED: { code: 1050, status: 200 },
  LEDGER_CHECK_FAILED: { code: 1051, status: 200 },
  // 2xxx auth
  CAPTCHA_WRONG: { code: 2001, status: 200 },
  USER_OR_PASSWORD_WRONG: { code: 2002, status: 200 },
  USER_NOT_FOUND: { code: 2003, status: 200 },
  LOGIN_PASSWORD_WRONG: { code: 2004, status: 200 },
  ACCOUNT_FROZEN: { code: 2005, status: 200 },
  USERNAME_EXISTS: { code: 2006, status: 200 },
  REGISTERED_TOO_MANY: { code: 2007, status: 200 },
  INVITE_CODE_INVALID: { code: 2008, status: 200 },
  OLD_PASSWORD_WRONG: { code: 2009, status: 200 },
  PASSWORDS_INCONSISTENT: { code: 2010, status: 200 },
  USERNAME_INVALID: { code: 2011, status: 200 },
  PASSWORD_INVALID: { code: 2012, status: 200 },
  PHONE_INVALID: { code: 2013, status: 200 },
  PHONE_EXISTS: { code: 2014, status: 200 },
  REGISTER_MODE_DISABLED: { code: 2015, status: 200 },
  PASSWORD_SAME_AS_OLD: { code: 2016, status: 200 },
  CAPTCHA_REQUIRED: { code: 2017, status: 200 },
  // 21xx account services
  REALNAME_REQUIRED: { code: 2101, status: 200 },
  REALNAME_ALREADY: { code: 2102, status: 200 },
  REALNAME_INVALID: { code: 2103, status: 200 },
  COUNTRY_INVALID: { code: 2104, status: 200 },
  IMAGE_REQUIRED: { code: 2105, status: 200 },
  MOBILE_ALREADY_BOUND: { code: 2106, status: 200 },
  MAILBOX_NOT_REGISTERED: { code: 2107, status: 200 },
  EMAIL_OR_CAPTCHA_WRONG: { code: 2108, status: 200 },
  EMAIL_INVALID: { code: 2109, status: 200 },
  EMAIL_CODE_WRONG: { code: 2110, status: 200 },
  EMAIL_EXISTS: { code: 2111, status: 200 },
  CODE_RESEND_WAIT: { code: 2112, status: 200 },
  TOTP_REQUIRED: { code: 2113, status: 200 },
  TOTP_WRONG: { code: 2114, status: 200 },
  TOTP_ALREADY_ENABLED: { code: 2115, status: 200 },
  TOTP_NOT_ENABLED: { code: 2116, status: 200 },
  ANTI_PHISHING_INVALID: { code: 2117, status: 200 },
  CONTENT_TITLE_INVALID: { code: 2118, status: 200 },
  CONTENT_BODY_INVALID: { code: 2119, status: 200 },
  CONTENT_DEFAULT_TEXT_REQUIRED: { code: 2120, status: 200 },
  DOCUMENT_NUMBER_INVALID: { code: 2121, status: 200 },
  TERMS_NOT_ACCEPTED: { code: 2122, status: 200 },
  TERMS_VERSION_STALE: { code: 2123, status: 200 },
  // 3xxx funds
  WITHDRAW_PASSWORD_WRONG: { code: 3001, status: 200 },
  WITHDRAW_PASSWORD_NOT_SET: { code: 3002, status: 200 },
  WITHDRAW_PASSWORD_INVALID: { code: 3003, status: 200 },
  BALANCE_INSUFFICIENT: { code: 3004, status: 200 },
  AMOUNT_INVALID: { code: 3005, status: 200 },
  AMOUNT_BELOW_MIN: { code: 3006, status: 200 },
  AMOUNT_ABOVE_MAX: { code: 3007, status: 200 },
  WITHDRAW_ADDRESS_NOT_FOUND: { code: 3008, status: 200 },
  ADDRESS_INVALID: { code: 3009, status: 200 },
  COIN_UNAVAILABLE: { code: 3010, status: 200 },
  NETWORK_UNAVAILABLE: { code: 3011, status: 200 },
  DEPOSIT_DISABLED: { code: 3012, status: 200 },
  WITHDRAW_DISABLED: { code: 3013, status: 200 },
  CONVERT_DISABLED: { code: 3014, status: 200 },
  WITHDRAW_BLOCKED: { code: 3015, status: 200 },
  VOUCHER_REQUIRED: { code: 3016, status: 200 },
  BANK_CARD_INVALID: { code: 3017, status: 200 },
  BANK_CARD_NOT_FOUND: { code: 3018, status: 200 },
  CONVERT_SAME_COIN: { code: 3019, status: 200 },
  PRICE_UNAVAILABLE: { code: 3020, status: 200 },
  IDEMPOTENCY_KEY_REUSED: { code: 3021, status: 200 },
  WITHDRAW_ADDRESS_EXISTS: { code: 3022, status: 200 },
  SAVED_LIMIT_REACHED: { code: 3023, status: 200 },
  RECORD_NOT_FOUND: { code: 3024, status: 200 },
  TX_HASH_INVALID: { code: 3025, status: 200 },
  // 5xxx uploads
  UPLOAD_FAILED: { code: 5001, status: 200 },
  UPLOAD_NOT_IMAGE: { code: 5002, status: 200 },
  UPLOAD_TOO_LARGE: { code: 5003, status: 200 },
  IMAGE_TOO_LARGE: { code: 5004, status: 200 },
  UPLOAD_BUSY: { code: 5005, status: 503 },
  // 6xxx back office
  STAFF_TOTP_WRONG: { code: 6001, status: 200 },
  STAFF_FORBIDDEN: { code: 6002, status: 200 },
  STAFF_DISABLED: { code: 6003, status: 200 },
  STAFF_EXISTS: { code: 6004, status: 200 },
  STAFF_LOGIN_EXPIRED: { code: 6005, status: 200 },
  STAFF_PASSWORD_CHANGE_REQUIRED: { code: 6006, status: 200 },
  CONFIG_AMOUNT_INVALID: { code: 6007, status: 200 },
  CONFIG_LIMITS_INVALID: { code: 6008, status: 200 },
  TRIAL_TURNOVER_MULTIPLE_TOO_LOW: { code: 6009, status: 200 },
  ADJUSTMENT_SAME_STAFF: { code: 6010, status: 200 },
  ADJUSTMENT_ALREADY_DECIDED: { code: 6011, status: 200 },
  DOCUMENT_NUMBER_MISMATCH: { code: 6012, status: 200 },
  DOCUMENT_COUNTRY_MISMATCH: { code: 6013, status: 200 },
  // 7xxx trading (delivery contracts now; spot and perpetual reuse the general ones)
  MARKET_NOT_OPEN: { code: 7001, status: 200 },
  TRADING_BANNED: { code: 7002, status: 200 },
  CONTRACT_PERIOD_INVALID: { code: 7003, status: 200 },
  CONTRACT_EXPOSURE_LIMIT: { code: 7004, status: 200 },
  INDEX_STALE: { code: 7005, status: 200 },
  USDT_INSUFFICIENT: { code: 7006, status: 200 },
  TRIAL_BALANCE_INSUFFICIENT: { code: 7007, status: 200 },
  TRIAL_EXPIRED: { code: 7008, status: 200 },
  TRIAL_PROFIT_CAP_REACHED: { code: 7009, status: 200 },
  TRIAL_OPPOSITE_OPEN: { code: 7010, status: 200 },
  PRICE_INVALID: { code: 7011, status: 200 },
  QTY_INVALID: { code: 7012, status: 200 },
  ORDER_NOT_FOUND: { code: 7013, status: 200 },
  ORDER_ALREADY_REVOKED: { code: 7014, status: 200 },
  CANCEL_FAILED: { code: 7015, status: 200 },
  NOTIONAL_TOO_SMALL: { code: 7016, status: 200 },
  PRICE_OUT_OF_BAND: { code: 7017, status: 200 },
  MARKET_EXISTS: { code: 7018, status: 200 },
  MARKET_HAS_OPEN_ORDERS: { code: 7019, status: 200 },
  INDEX_SOURCE_INVALID: { code: 7020, status: 200 },
  INDEX_SYMBOL_INVALID: { code: 7021, status: 200 },
  // why: 7030 onwards: trial money (7020s are the index sources').
  TRIAL_ALREADY_CLAIMED: { code: 7030, status: 200 },
  TRIAL_OPPOSITE_REAL_OPEN: { code: 7031, status: 200 },
  TRIAL_OPPOSITE_LINKED: { code: 7032, status: 200 },
  // why: 7040 onwards: spot trigger orders.
  TRIGGER_PRICE_INVALID: { code: 7040, status: 200 },
  TRIGGER_WOULD_FIRE: { code: 7041, status: 200 },
  // why: 7050: no node owns the market right now (a failover under way); retrying is safe.
  MARKET_UNAVAILABLE: { code: 7050, status: 503 },
  // why: 7060 onwards: perpetual contracts.
  LEVERAGE_INVALID: { code: 7060, status: 200 },
  LEVERAGE_LOCKED: { code: 7061, status: 200 },
  REDUCE_ONLY_REJECTED: { code: 7062, status: 200 },
  RISK_LIMIT_EXCEEDED: { code: 7063, status: 200 },
  MARK_UNAVAILABLE: { code: 7064, status: 200 },
  REDUCE_ONLY_WHILE_FROZEN: { code: 7065, status: 200 },
  POSITION_NOT_FOUND: { code: 7066, status: 200 },
  MARGIN_REMOVAL_DENIED: { code: 7067, status: 200 },
  // why: resting reduce-only orders plus the new one may not exceed the position (perpetual.md §4b.2).
  REDUCE_ONLY_EXCEEDS_POSITION: { code: 7068, status: 200 },
  // why: a market's mark clamp must be above 0 and at most tier 1's MMR / 4 (perpetual.md §1, Mark).
  MARK_CLAMP_INVALID: { code: 7069, status: 200 },
  // why: a close priced past the position's bankruptcy price would be paid for by the insurance fund (perpetual.md §4c.4).
  PRICE_PAST_BANKRUPTCY: { code: 7070, status: 200 },
  // 76xx launchpad, 77xx agents
  LP_NOT_STARTED: { code: 7601, status: 200 },
  LP_CLOSED: { code: 7602, status: 200 },
  LP_FORBIDDEN: { code: 7603, status: 200 },
  LP_BELOW_MIN: { code: 7604, status: 200 },
  LP_ABOVE_MAX: { code: 7605, status: 200 },
  LP_INDIVIDUAL_LIMIT: { code: 7606, status: 200 },
  LP_TOTAL_ISSUE: { code: 7607, status: 200 },
  LP_REPEAT: { code: 7608, status: 200 },
  LP_INVENTORY_SHORT: { code: 7609, status: 200 },
  LP_NOT_EDITABLE: { code: 7610, status: 200 },
  LP_PROJECT_INVALID: { code: 7611, status: 200 },
  LP_ACK_REQUIRED: { code: 7612, status: 200 },
  AGENT_NOT_AGENT: { code: 7701, status: 200 },
  AGENT_PENDING: { code: 7702, status: 200 },
  AGENT_SUSPENDED: { code: 7703, status: 200 },
  AGENT_ALREADY: { code: 7704, status: 200 },
  // 78xx mining market
  MINE_PAUSED: { code: 7801, status: 200 },
  MINE_SOLD_OUT: { code: 7802, status: 200 },
  MINE_NOT_SHARED: { code: 7803, status: 200 },
  MINE_SHARE_INVALID: { code: 7804, status: 200 },
  MINE_PLATFORM_COIN: { code: 7805, status: 200 },
  MINE_REFERRALS: { code: 7806, status: 200 },
  MINE_REPEAT: { code: 7807, status: 200 },
  MINE_PRODUCT_INVALID: { code: 7808, status: 200 },
  MINE_NOT_EDITABLE: { code: 7809, status: 200 },
  // 89xx proof of reserves
  POR_NO_SNAPSHOT: { code: 8901, status: 200 },
  POR_NOT_INCLUDED: { code: 8902, status: 200 },
  POR_SNAPSHOT_PUBLISHED: { code: 8903, status: 200 },
  POR_RESERVE_ASSET: { code: 8904, status: 200 },
  POR_RESERVE_SIGNATURE: { code: 8905, status: 200 },
  POR_RESERVE_DUPLICATE: { code: 8906, status: 200 },
  // 4xxx transport-level session errors that the client handles by logging out
  UNAUTHORIZED: { code: 4010, status: 401 },
  FORBIDDEN: { code: 4005, status: 403 },
} as const satisfies Record<string, { code: number; status: number }>;

export type ResultKey = keyof typeof RESULT_CODES;

export const SUCCESS_CODE = RESULT_CODES.OK.code;
export const SESSION_INVALID_CODE = RESULT_CODES.SESSION_INVALID.code;

/** Message keys for success answers (translated in server.json → `success.<KEY>`). */
export const SUCCESS_MESSAGES = [
  'OK',
  'REGISTERED',
  'LOGGED_IN',
  'LOGGED_OUT',
  'PASSWORD_CHANGED',
  'WITHDRAW_PASSWORD_SET',
  'DEPOSIT_SUBMITTED',
  'WITHDRAWAL_SUBMITTED',
  'CONVERTED',
  'ADDRESS_ADDED',
  'ADDRESS_DELETED',
  'BANK_CARD_ADDED',
  'BANK_CARD_DELETED',
  'CONTRACT_PLACED',
  'ORDER_PLACED',
  'ORDER_CANCELLED',
  'IDENTITY_SUBMITTED',
  'TOTP_ENABLED',
  'TOTP_DISABLED',
  'ANTI_PHISHING_SET',
  'SESSION_ENDED',
  'CODE_SENT',
  'PASSWORD_RESET',
  'EMAIL_BOUND',
  'MOBILE_BOUND',
  'LP_SUBSCRIBED',
  'AGENT_APPLIED',
  'MINE_BOUGHT',
] as const;
export type SuccessKey = (typeof SUCCESS_MESSAGES)[number];

/**
 * A business error: thrown by services, turned into the `{code, msg, data}` envelope by the
 * platform's error handler with `msg` translated into the request's language.
 */
export class AppError extends Error {
  readonly key: ResultKey;
  readonly code: number;
  readonly status: number;
  readonly params: Record<string, string | number> | undefined;

  constructor(key: ResultKey, params?: Record<string, string | number>) {
    super(key);
    this.name = 'AppError';
    this.key = key;
    this.code = RESULT_CODES[key].code;
    this.status = RESULT_CODES[key].status;
    this.params = params;
  }
}

/** The response envelope of every `/apiv` call. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
