import type {
  CaptchasTable,
  EmailCodesTable,
  IdentityUploadsTable,
  IdentityVerificationsTable,
  LoginLogsTable,
  MailOutboxTable,
  NotificationReadsTable,
  NotificationsTable,
  ReferralEdgesTable,
  SessionsTable,
  SettingsTable,
  SupportConversationsTable,
  SupportMessagesTable,
  UserBackupCodesTable,
  UserSecurityTable,
  UsersTable,
  WithdrawAddressesTable,
} from './schema/accounts.ts';
import type { ClusterNodesTable, CustomerActivityTable, MarketLeasesTable } from './schema/cluster.ts';
import type { ContentItemsTable, ContentTextsTable, TermsAcceptancesTable } from './schema/content.ts';
import type {
  DeliveryContractsTable,
  DeliveryPeriodsTable,
  DeliveryPnlDaysTable,
  DeliveryProductsTable,
  TrialGrantPlansTable,
  TrialGrantsTable,
} from './schema/delivery.ts';
import type { StoredFilesTable } from './schema/files.ts';
import type { PlatformHaltsTable } from './schema/halt.ts';
import type { AgentsTable, LpProjectsTable, LpRecordsTable, LpRewardsTable } from './schema/launchpad.ts';
import type {
  AdjustmentRequestsTable,
  AuditLogTable,
  JournalEntriesTable,
  LedgerAccountsTable,
  LedgerChecksTable,
  PostingsTable,
  StaffSessionsTable,
  StaffTable,
} from './schema/ledger.ts';
import type {
  CoinsTable,
  IndexCandlesTable,
  IndexPricesTable,
  IndexSourceMappingsTable,
  IndexTicksTable,
  JobLeasesTable,
  MarketsTable,
} from './schema/markets.ts';
import type {
  MiningDaysTable,
  MiningInstancesTable,
  MiningOrdersTable,
  MiningProductsTable,
  MiningRevenuesTable,
} from './schema/mining.ts';
import type {
  PerpFundingPaymentsTable,
  PerpFundingsTable,
  PerpInsuranceMovesTable,
  PerpLiquidationsTable,
  PerpLotsTable,
  PerpMarginRequestsTable,
  PerpMarketsTable,
  PerpOrdersTable,
  PerpPositionsTable,
  PerpPremiumsTable,
  PerpTradesTable,
} from './schema/perpetual.ts';
import type {
  PorLeavesTable,
  PorNodesTable,
  PorReservesTable,
  PorSnapshotsTable,
} from './schema/reserves.ts';
import type {
  MarketMakerSettingsTable,
  SpotCandleFoldsTable,
  SpotCandlesTable,
  SpotMarketsTable,
  SpotOrdersTable,
  SpotTradesTable,
} from './schema/spot.ts';
import type {
  BankCardsTable,
  ConversionsTable,
  DepositsTable,
  WalletCoinsTable,
  WalletNetworksTable,
  WithdrawalsTable,
} from './schema/wallet.ts';

export type * from './schema/accounts.ts';
export type { Millis } from './schema/columns.ts';
export type * from './schema/content.ts';
export type * from './schema/delivery.ts';
export type * from './schema/files.ts';
export type * from './schema/launchpad.ts';
export type * from './schema/ledger.ts';
export type * from './schema/markets.ts';
export type * from './schema/mining.ts';
export type * from './schema/perpetual.ts';
export type * from './schema/reserves.ts';
export type * from './schema/spot.ts';
export type * from './schema/wallet.ts';

/**
 * Table types of the store. Every integer column reads back as `bigint` on both dialects (see
 * db.ts): ids, money, quantities, sequence numbers, flags and times alike. Times are unix
 * milliseconds (`Millis`), converted to and from the clock's numbers only in `time.ts`.
 *
 * Each domain's table types live in `schema/<domain>.ts`; this file gathers them.
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
  market_leases: MarketLeasesTable;
  cluster_nodes: ClusterNodesTable;
  customer_activity: CustomerActivityTable;
  wallet_coins: WalletCoinsTable;
  wallet_networks: WalletNetworksTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  conversions: ConversionsTable;
  bank_cards: BankCardsTable;
  ledger_accounts: LedgerAccountsTable;
  journal_entries: JournalEntriesTable;
  postings: PostingsTable;
  ledger_checks: LedgerChecksTable;
  audit_log: AuditLogTable;
  adjustment_requests: AdjustmentRequestsTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  delivery_products: DeliveryProductsTable;
  delivery_periods: DeliveryPeriodsTable;
  delivery_contracts: DeliveryContractsTable;
  delivery_pnl_days: DeliveryPnlDaysTable;
  trial_grant_plans: TrialGrantPlansTable;
  trial_grants: TrialGrantsTable;
  spot_markets: SpotMarketsTable;
  spot_orders: SpotOrdersTable;
  spot_trades: SpotTradesTable;
  spot_candles: SpotCandlesTable;
  spot_candle_folds: SpotCandleFoldsTable;
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
  stored_files: StoredFilesTable;
  platform_halts: PlatformHaltsTable;
  perp_markets: PerpMarketsTable;
  perp_positions: PerpPositionsTable;
  perp_orders: PerpOrdersTable;
  perp_lots: PerpLotsTable;
  perp_trades: PerpTradesTable;
  perp_fundings: PerpFundingsTable;
  perp_funding_payments: PerpFundingPaymentsTable;
  perp_liquidations: PerpLiquidationsTable;
  perp_insurance_moves: PerpInsuranceMovesTable;
  perp_premiums: PerpPremiumsTable;
  perp_margin_requests: PerpMarginRequestsTable;
}
