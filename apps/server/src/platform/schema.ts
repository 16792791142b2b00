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
  index_ticks: IndexTicksTable;
  index_candles: IndexCandlesTable;
  index_source_mappings: IndexSourceMappingsTable;
  job_leases: JobLeasesTable;
  wallet_coins: WalletCoinsTable;
  wallet_networks: WalletNetworksTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  conversions: ConversionsTable;
  bank_cards: BankCardsTable;
  ledger_accounts: LedgerAccountsTable;
  journal_entries: JournalEntriesTable;
  postings: PostingsTable;
  audit_log: AuditLogTable;
  adjustment_requests: AdjustmentRequestsTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  delivery_products: DeliveryProductsTable;
  delivery_periods: DeliveryPeriodsTable;
  delivery_contracts: DeliveryContractsTable;
  trial_grant_plans: TrialGrantPlansTable;
  trial_grants: TrialGrantsTable;
  spot_markets: SpotMarketsTable;
  spot_orders: SpotOrdersTable;
  spot_trades: SpotTradesTable;
  market_maker_settings: MarketMakerSettingsTable;
  por_snapshots: PorSnapshotsTable;
  por_nodes: PorNodesTable;
  por_leaves: PorLeavesTable;
  por_reserves: PorReservesTable;
  referral_edges: ReferralEdgesTable;
  identity_uploads: IdentityUploadsTable;
  identity_verifications: IdentityVerificationsTable;
  user_security: UserSecurityTable;
  user_backup_codes: UserBackupCodesTable;
  email_codes: EmailCodesTable;
  mail_outbox: MailOutboxTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  support_conversations: SupportConversationsTable;
  support_messages: SupportMessagesTable;
  content_items: ContentItemsTable;
  content_texts: ContentTextsTable;
  terms_acceptances: TermsAcceptancesTable;
  lp_projects: LpProjectsTable;
  lp_records: LpRecordsTable;
  lp_rewards: LpRewardsTable;
  agents: AgentsTable;
  mining_products: MiningProductsTable;
  mining_instances: MiningInstancesTable;
  mining_orders: MiningOrdersTable;
  mining_revenues: MiningRevenuesTable;
  mining_days: MiningDaysTable;
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
  /** JSON of the latest tick's constituents (decimal-string prices); null before they were kept. */
  constituents: string | null;
}

/** Every recorded index tick (10^-8 quote units); pruned past the retention. */
export interface IndexTicksTable {
  symbol: string;
  at: Millis;
  price: bigint;
  /** The aggregator's label: one source's name, or `median(a,b,c)`. */
  source: string;
  /** JSON of every source's part in the tick (decimal-string prices); null before they were kept. */
  constituents: string | null;
}

/** Per market and venue, the venue's symbol for it; null leaves the venue out; no row = base/quote. */
export interface IndexSourceMappingsTable {
  symbol: string;
  venue: string;
  venue_symbol: string | null;
  updated_at: Millis;
  /** The staff member who set it. */
  updated_by: bigint;
}

/** Index candles per interval (`1m` … `1d`), `t` the bucket's open time; kept when ticks are pruned. */
export interface IndexCandlesTable {
  symbol: string;
  interval: string;
  t: Millis;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
}

/** Who runs a scheduled job that must run on one node, until when; written by the scheduler. */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: Millis;
}

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

/** A coin's wallet switches; written by the wallet module. */
export interface WalletCoinsTable {
  coin: string;
  icon: Generated<string>;
  display_decimals: Generated<bigint>;
  convertible: Generated<bigint>;
  deposit_enabled: Generated<bigint>;
  withdraw_enabled: Generated<bigint>;
}

/** A coin's network: deposit address and limits in atoms; written by the wallet module. */
export interface WalletNetworksTable {
  id: Generated<bigint>;
  coin: string;
  network: string;
  /** `btc`, `eth`, `trx`, ... (address validation) or `bank` (withdrawal to a bank card). */
  address_format: string;
  deposit_address: Generated<string>;
  min_deposit: Generated<bigint>;
  min_withdraw: Generated<bigint>;
  max_withdraw: Generated<bigint>;
  withdraw_fee: Generated<bigint>;
  enabled: Generated<bigint>;
  sort: Generated<bigint>;
}

export type DepositStatus = 'confirming' | 'credited' | 'rejected';

export interface DepositsTable {
  id: Generated<bigint>;
  user_id: bigint;
  coin: string;
  network: string;
  address: string;
  amount: bigint;
  credited_amount: Generated<bigint>;
  tx_hash: Generated<string>;
  /** File name of the voucher image in the upload store. */
  voucher: string;
  status: DepositStatus;
  reason: Generated<string>;
  reviewed_by: Generated<string>;
  created_at: Millis;
  reviewed_at: Millis | null;
}

export type WithdrawalStatus = 'review' | 'passed' | 'rejected';

export interface WithdrawalsTable {
  id: Generated<bigint>;
  user_id: bigint;
  coin: string;
  network: string;
  type: 'address' | 'bank';
  destination: string;
  amount: bigint;
  fee: bigint;
  status: WithdrawalStatus;
  reason: Generated<string>;
  idempotency_key: string;
  reviewed_by: Generated<string>;
  created_at: Millis;
  reviewed_at: Millis | null;
}

export interface ConversionsTable {
  id: Generated<bigint>;
  user_id: bigint;
  from_coin: string;
  to_coin: string;
  amount: bigint;
  /** Atoms of `to_coin` per unit of `from_coin`, before the fee. */
  rate: bigint;
  fee: bigint;
  received: bigint;
  idempotency_key: string;
  created_at: Millis;
}

export interface BankCardsTable {
  id: Generated<bigint>;
  user_id: bigint;
  number: string;
  name: string;
  bank: string;
  bank_code: string;
  created_at: Millis;
}

export interface DeliveryProductsTable {
  symbol: string;
  status: 'open' | 'closed';
  max_exposure: bigint;
  updated_at: Millis;
}

export interface DeliveryPeriodsTable {
  symbol: string;
  seconds: bigint;
  /** Payout ratio in basis points: 8000 pays amount × 1.80 on a win. */
  ratio_bps: bigint;
  min_amount: bigint;
  max_amount: bigint;
}

export type ContractStatusValue = 'opening' | 'open' | 'settling' | 'settled' | 'closed';
export type ContractResultValue = 'win' | 'loss' | 'draw' | 'refund';

export interface DeliveryContractsTable {
  id: Generated<bigint>;
  user_id: bigint;
  symbol: string;
  direction: 'up' | 'down';
  period: bigint;
  amount: bigint;
  funding: 'real' | 'trial';
  grant_id: bigint | null;
  ratio_bps: bigint;
  /** The first index tick recorded after acceptance: null while the contract is `opening`. */
  open_price: bigint | null;
  open_price_at: Millis | null;
  open_source: string | null;
  /** JSON: the sources that made the opening tick (decimal-string prices). */
  open_constituents: string | null;
  /** Acceptance time. */
  opened_at: Millis;
  /** Opening tick + period; while `opening`, acceptance + period. */
  expires_at: Millis;
  status: ContractStatusValue;
  result: ContractResultValue | null;
  close_price: bigint | null;
  close_at: Millis | null;
  close_source: string | null;
  close_constituents: string | null;
  payout: bigint | null;
  profit: bigint | null;
  settled_at: Millis | null;
  idempotency_key: string;
}

export interface TrialGrantPlansTable {
  id: Generated<bigint>;
  name: string;
  amount: bigint;
  validity_days: bigint;
  profit_cap_percent: bigint;
  trigger: 'signup' | 'campaign';
  active: bigint;
  created_at: Millis;
  updated_at: Millis;
}

export interface TrialGrantsTable {
  id: Generated<bigint>;
  user_id: bigint;
  plan_id: bigint;
  name: string;
  amount: bigint;
  remaining: bigint;
  profit_cap: bigint;
  profit_paid: Generated<bigint>;
  expires_at: Millis;
  status: 'active' | 'expired';
  grant_key: string;
  granted_by: string;
  created_at: Millis;
  /** Keyed hash of the verified identity the grant was given for; unique per plan. */
  identity_hash: string | null;
  /** Trial profit credited to the user's `trial_profit` balance and not yet released or expired. */
  profit_locked: Generated<bigint>;
  profit_released: Generated<bigint>;
  profit_expired: Generated<bigint>;
  /** Real turnover needed to release what is locked (grows with each profit credited). */
  turnover_required: Generated<bigint>;
  /** Real turnover counted toward `turnover_required` (never above it). */
  turnover_done: Generated<bigint>;
}

export interface SpotMarketsTable {
  symbol: string;
  base: string;
  quote: string;
  /** Atoms of the quote coin per price step, atoms of the base coin per quantity step. */
  tick_size: bigint;
  lot_size: bigint;
  min_notional: bigint;
  maker_fee_bps: bigint;
  taker_fee_bps: bigint;
  band_bps: bigint;
  price_decimals: bigint;
  qty_decimals: bigint;
  status: 'open' | 'halted';
  /** The last sequence number the market's sequencer applied. */
  seq: Generated<bigint>;
  updated_at: Millis;
}

export type SpotOrderStatusValue = 'entrusted' | 'completed' | 'revoked';

export interface SpotOrdersTable {
  id: Generated<bigint>;
  symbol: string;
  user_id: bigint;
  side: 'buy' | 'sell';
  type: 'limit' | 'market' | 'stop_limit' | 'stop_market' | 'take_profit';
  tif: 'gtc' | 'ioc' | 'fok' | 'post_only';
  price: bigint | null;
  qty: bigint | null;
  quote_amount: bigint | null;
  /** A trigger type's trigger price on the last trade price; null for limit and market. */
  trigger_price: bigint | null;
  /** `gte` or `lte` the trigger; null without one. */
  trigger_condition: 'gte' | 'lte' | null;
  /** When the trigger fired and the order entered the book; null while it waits or without one. */
  triggered_at: Millis | null;
  filled_qty: bigint;
  filled_quote: bigint;
  fee: bigint;
  /** The fee ratio of the last fill's role (the taker's before any fill). */
  fee_bps: bigint;
  hold_asset: string;
  /** What is still frozen for the order (0 once it has ended). */
  held: bigint;
  status: SpotOrderStatusValue;
  revoke_reason: string | null;
  /** The command that placed it: the engine's order id within the market. */
  seq: bigint;
  idempotency_key: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface SpotTradesTable {
  id: Generated<bigint>;
  symbol: string;
  seq: bigint;
  price: bigint;
  qty: bigint;
  quote: bigint;
  maker_order_id: bigint;
  maker_user_id: bigint;
  taker_order_id: bigint;
  taker_user_id: bigint;
  taker_side: 'buy' | 'sell';
  maker_fee: bigint;
  taker_fee: bigint;
  at: Millis;
}

export interface MarketMakerSettingsTable {
  symbol: string;
  /** 1 while the maker quotes the market. */
  enabled: bigint;
  levels: bigint;
  /** Between the best bid and the best ask, in basis points of the index. */
  spread_bps: bigint;
  /** Between two levels on one side, in basis points of the index. */
  step_bps: bigint;
  /** Base atoms per level. */
  level_qty: bigint;
  /** Base atoms the maker aims to hold, and how far from it it may drift before it stops a side. */
  inventory_target: bigint;
  max_inventory_deviation: bigint;
  updated_at: Millis;
}

export interface PorSnapshotsTable {
  id: Generated<bigint>;
  /** The snapshot's instant (00:00 UTC for the scheduled ones), unique. */
  taken_at: Millis;
  /** The last journal entry the snapshot counts. */
  ledger_seq: bigint;
  /** JSON array of the asset symbols, in the order of every balance vector. */
  assets: string;
  depth: bigint;
  /** Root hash, hex. */
  root: string;
  /** JSON array of decimal strings, one per asset. */
  root_sums: string;
  /** JSON object: trial money per asset (not counted; published on its own line). */
  trial_total: string;
  /** 1 for the first of the month (kept indefinitely, attested). */
  monthly: bigint;
  /** `pending` until its header is signed (reserve entries are attached meanwhile), then `published`. */
  status: 'pending' | 'published';
  /** When the scheduled job publishes it (unix ms). */
  publish_at: Millis;
  /** The signed header as published (canonical JSON) and its signature. */
  header_json: string | null;
  sig: string | null;
  created_at: Millis;
}

export interface PorNodesTable {
  snapshot_id: bigint;
  /** 0 = leaves (in tree order), up to `depth` = the root. */
  level: bigint;
  idx: bigint;
  hash: string;
  /** JSON array of decimal strings, one per asset. */
  sums: string;
}

export interface PorLeavesTable {
  snapshot_id: bigint;
  user_id: bigint;
  leaf_index: bigint;
  /** JSON array of decimal strings: the balances the leaf commits to. */
  balances: string;
}

export interface PorReservesTable {
  id: Generated<bigint>;
  snapshot_id: bigint;
  asset: string;
  chain: string;
  address: string;
  balance: bigint;
  height: bigint;
  block_hash: string;
  message: string;
  sig: string;
  scheme: string;
  simulated: bigint;
  created_at: Millis;
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
  /** Keyed hash (HMAC) of the country and document number; the number itself is never stored. */
  doc_hash: string | null;
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

export type ContentKind = 'announcement' | 'help' | 'page';

export interface ContentItemsTable {
  id: Generated<bigint>;
  kind: ContentKind;
  /** A page's name (`aboutus`, `msb`); '' for announcements and help articles. */
  slug: Generated<string>;
  pinned: Generated<bigint>;
  status: 'draft' | 'published';
  /** Shown to customers from this time on (once published). */
  publish_at: Millis;
  created_by: bigint | null;
  created_at: Millis;
  updated_at: Millis;
  /** A terms page's version (unique when > 0); 0 for other items and unpublished terms texts. */
  terms_version: Generated<bigint>;
}

/** Which terms-of-service versions each customer accepted, when and from where. */
export interface TermsAcceptancesTable {
  user_id: bigint;
  version: bigint;
  accepted_at: Millis;
  ip: Generated<string>;
}

export interface ContentTextsTable {
  item_id: bigint;
  locale: string;
  title: string;
  /** Sanitised when written: only the allowed tags and attributes remain. */
  body_html: string;
}

export type LpMode = 'pro_rata' | 'fcfs';
/** draft → scheduled → distributed; scheduled → cancelled. Open and allocating follow from the clock. */
export type LpProjectStatus = 'draft' | 'scheduled' | 'distributed' | 'cancelled';
/** committed (pro-rata, frozen) → locked → released; committed → refunded; locked → refunded (cancelled). */
export type LpRecordStatus = 'committed' | 'locked' | 'released' | 'refunded';
export type LpRewardStatus = 'pending' | 'paid' | 'void' | 'capped';
export type AgentStatus = 'pending' | 'approved' | 'rejected' | 'suspended';

export interface LpProjectsTable {
  id: Generated<bigint>;
  name: string;
  coin: string;
  quote: string;
  start_at: Millis;
  end_at: Millis;
  /** Token atoms. */
  total_issue: bigint;
  /** Quote atoms per whole token. */
  price: bigint;
  lock_days: bigint;
  /** Token atoms per purchase. */
  per_min: bigint;
  per_max: bigint;
  /** Token atoms one user may hold from the project. */
  individual_limit: bigint;
  max_purchases: bigint;
  /** Quote atoms: a raise below it cancels the project. */
  soft_cap: bigint;
  mode: LpMode;
  /** Share of the raise set aside for referral rewards, in basis points. */
  referral_budget_bp: bigint;
  status: LpProjectStatus;
  /** 1: subscriptions refused ("forbidden"). */
  disabled: Generated<bigint>;
  release_at: Millis;
  /** JSON: locale → description text. */
  descriptions: Generated<string>;
  distributed_at: Millis | null;
  created_at: Millis;
}

export interface LpRecordsTable {
  id: Generated<bigint>;
  project_id: bigint;
  user_id: bigint;
  /** Token atoms asked for. */
  requested: bigint;
  /** Quote atoms taken (FCFS) or frozen (pro-rata). */
  committed: bigint;
  /** Token atoms allocated (0 until distribution in pro-rata). */
  quantity: bigint;
  paid: bigint;
  refunded: bigint;
  status: LpRecordStatus;
  idempotency_key: string;
  created_at: Millis;
  release_at: Millis;
  released_at: Millis | null;
}

export interface LpRewardsTable {
  id: Generated<bigint>;
  project_id: bigint;
  /** The launchpad record whose paid amount earned it. */
  source_id: bigint;
  buyer_id: bigint;
  beneficiary_id: bigint;
  generation: bigint;
  asset: string;
  base: bigint;
  rate_bp: bigint;
  /** Atoms paid (or to be paid while pending). */
  amount: bigint;
  /** Atoms over a cap: recorded, never paid. */
  capped: bigint;
  status: LpRewardStatus;
  reason: Generated<string>;
  /** `YYYY-MM` (UTC) of the distribution: the monthly cap's period. */
  month: string;
  created_at: Millis;
  settled_at: Millis | null;
}

export interface AgentsTable {
  user_id: bigint;
  status: AgentStatus;
  /** JSON `[g1, g2, g3]` basis points, or null for the platform's rates. */
  rates_override: string | null;
  note: Generated<string>;
  applied_at: Millis;
  decided_at: Millis | null;
  decided_by: string | null;
}

export type MiningType = 'sole' | 'shared';
export type MiningIncome = 'constant' | 'value';
/** draft → normal ↔ paused (sales); expired. "stopped" is shown while the pool cannot pay. */
export type MiningProductStatus = 'draft' | 'normal' | 'paused' | 'expired';

export interface MiningProductsTable {
  id: Generated<bigint>;
  name: string;
  type: MiningType;
  /** USDT atoms for a whole machine: hashrate + days × electricity + management. */
  unit_price: bigint;
  fee_hashrate: bigint;
  fee_electricity_day: bigint;
  fee_management: bigint;
  coin: string;
  income_type: MiningIncome;
  /** Coin atoms a whole machine earns a day (constant income). */
  daily_q: bigint;
  /** USDT atoms a whole machine earns a day (income by output value). */
  daily_value: bigint;
  days: bigint;
  /** Machines for sale, fixed once the product opens. */
  capacity: bigint;
  min_share_bp: bigint;
  step_bp: bigint;
  /** The platform coin a buyer must hold (available + locked), checked and not spent. */
  hold_coin: string;
  min_hold: bigint;
  min_referrals: bigint;
  max_orders: bigint;
  release_delay_days: bigint;
  status: MiningProductStatus;
  created_at: Millis;
}

export interface MiningInstancesTable {
  id: Generated<bigint>;
  product_id: bigint;
  /** Basis points of this machine sold (10,000 = all of it). */
  sold_bp: bigint;
  /** The first buyer's share link code (a shared machine's rest is sold through it). */
  share_code: string;
  created_at: Millis;
}

export interface MiningOrdersTable {
  id: Generated<bigint>;
  user_id: bigint;
  product_id: bigint;
  instance_id: bigint;
  share_bp: bigint;
  price: bigint;
  /** The first 00:00 (UTC) after the purchase: the first day accrues from here. */
  start_at: Millis;
  /** start + days, moved one day later per stopped day. */
  expire_at: Millis;
  stopped_days: Generated<bigint>;
  idempotency_key: string;
  created_at: Millis;
}

export interface MiningRevenuesTable {
  id: Generated<bigint>;
  order_id: bigint;
  user_id: bigint;
  /** The day's 00:00 (UTC), unix ms. */
  day: Millis;
  coin: string;
  /** The recorded index at the 00:00 ending the day (income by output value), with its source. */
  price_used: bigint | null;
  price_source: string | null;
  amount: bigint;
  release_at: Millis;
  released_at: Millis | null;
}

export interface MiningDaysTable {
  coin: string;
  day: Millis;
  status: 'paid' | 'stopped';
  needed: bigint;
  created_at: Millis;
}
