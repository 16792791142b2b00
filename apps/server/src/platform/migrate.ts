import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as accounts from './migrations/2026_11_22_0001_accounts.ts';
import * as int8Ids from './migrations/2026_11_23_0001_int8_ids.ts';
import * as ports from './migrations/2026_11_23_0002_ports.ts';
import * as ledger from './migrations/2026_11_23_0003_ledger.ts';
import * as wallet from './migrations/2026_11_23_0004_wallet.ts';
import * as staff from './migrations/2026_11_23_0005_staff.ts';
import * as indexHistory from './migrations/2026_11_23_0006_index_history.ts';
import * as delivery from './migrations/2026_11_23_0007_delivery.ts';
import * as walletStaffHardening from './migrations/2026_11_23_0008_wallet_staff_hardening.ts';
import * as spot from './migrations/2026_11_23_0009_spot.ts';
import * as marketMaker from './migrations/2026_11_23_0010_market_maker.ts';
import * as reserves from './migrations/2026_11_24_0017_reserves.ts';
import * as referralEdges from './migrations/2026_11_24_0018_referral_edges.ts';
import * as identity from './migrations/2026_11_24_0019_identity.ts';
import * as accountSecurity from './migrations/2026_11_24_0020_account_security.ts';
import * as content from './migrations/2026_11_24_0021_content.ts';
import * as supportChat from './migrations/2026_11_24_0022_support_chat.ts';
import * as launchpad from './migrations/2026_11_25_0023_launchpad.ts';
import * as mining from './migrations/2026_11_25_0024_mining.ts';
import * as deliveryOpening from './migrations/2026_11_27_0024_delivery_opening.ts';
import * as indexConstituents from './migrations/2026_11_27_0025_index_constituents.ts';
import * as trialRules from './migrations/2026_11_27_0026_trial_rules.ts';
import * as adjustmentRequests from './migrations/2026_11_27_0027_adjustment_requests.ts';
import * as spotTriggers from './migrations/2026_11_27_0028_spot_triggers.ts';
import * as terms from './migrations/2026_11_27_0029_terms.ts';
import * as marketOwnership from './migrations/2026_11_27_0030_market_ownership.ts';
import * as storedFiles from './migrations/2026_11_27_0031_stored_files.ts';
import * as platformHalt from './migrations/2026_11_27_0032_platform_halt.ts';
import * as perpetual from './migrations/2026_11_27_0033_perpetual.ts';
import * as perpMarginRequests from './migrations/2026_11_27_0034_perp_margin_requests.ts';
import * as perpRequestFingerprints from './migrations/2026_11_29_0035_perp_request_fingerprints.ts';
import * as perpMarkClamp from './migrations/2026_11_29_0036_perp_mark_clamp.ts';
import * as identityNumberHash from './migrations/2026_11_29_0037_identity_number_hash.ts';
import * as withdrawalNotified from './migrations/2026_11_30_0038_withdrawal_notified.ts';
import * as listIndexes from './migrations/2026_12_01_0039_list_indexes.ts';
import * as retention from './migrations/2026_12_01_0040_retention.ts';
import * as ledgerChecks from './migrations/2026_12_01_0041_ledger_checks.ts';
import * as deliveryPnlDays from './migrations/2026_12_01_0042_delivery_pnl_days.ts';
import * as reviewCounts from './migrations/2026_12_01_0043_review_counts.ts';
import * as spotCandles from './migrations/2026_12_01_0044_spot_candles.ts';
import * as moreRetention from './migrations/2026_12_01_0045_more_retention.ts';
import * as perpOpenOrders from './migrations/2026_12_01_0046_perp_open_orders.ts';
import * as listCursorIndexes from './migrations/2026_12_02_0047_list_cursor_indexes.ts';
import * as customerActivity from './migrations/2026_12_02_0048_customer_activity.ts';

// why: a static list (not a folder scan) so the migrations travel with bundles and tests alike.
const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_0001_accounts': accounts,
  '2026_11_23_0001_int8_ids': int8Ids,
  '2026_11_23_0002_ports': ports,
  '2026_11_23_0003_ledger': ledger,
  '2026_11_23_0004_wallet': wallet,
  '2026_11_23_0005_staff': staff,
  '2026_11_23_0006_index_history': indexHistory,
  '2026_11_23_0007_delivery': delivery,
  '2026_11_23_0008_wallet_staff_hardening': walletStaffHardening,
  '2026_11_23_0009_spot': spot,
  '2026_11_23_0010_market_maker': marketMaker,
  '2026_11_24_0017_reserves': reserves,
  '2026_11_24_0018_referral_edges': referralEdges,
  '2026_11_24_0019_identity': identity,
  '2026_11_24_0020_account_security': accountSecurity,
  '2026_11_24_0021_content': content,
  '2026_11_24_0022_support_chat': supportChat,
  '2026_11_25_0023_launchpad': launchpad,
  '2026_11_25_0024_mining': mining,
  '2026_11_27_0024_delivery_opening': deliveryOpening,
  '2026_11_27_0025_index_constituents': indexConstituents,
  '2026_11_27_0026_trial_rules': trialRules,
  '2026_11_27_0027_adjustment_requests': adjustmentRequests,
  '2026_11_27_0028_spot_triggers': spotTriggers,
  '2026_11_27_0029_terms': terms,
  '2026_11_27_0030_market_ownership': marketOwnership,
  '2026_11_27_0031_stored_files': storedFiles,
  '2026_11_27_0032_platform_halt': platformHalt,
  '2026_11_27_0033_perpetual': perpetual,
  '2026_11_27_0034_perp_margin_requests': perpMarginRequests,
  '2026_11_29_0035_perp_request_fingerprints': perpRequestFingerprints,
  '2026_11_29_0036_perp_mark_clamp': perpMarkClamp,
  '2026_11_29_0037_identity_number_hash': identityNumberHash,
  '2026_11_30_0038_withdrawal_notified': withdrawalNotified,
  '2026_12_01_0039_list_indexes': listIndexes,
  '2026_12_01_0040_retention': retention,
  '2026_12_01_0041_ledger_checks': ledgerChecks,
  '2026_12_01_0042_delivery_pnl_days': deliveryPnlDays,
  '2026_12_01_0043_review_counts': reviewCounts,
  '2026_12_01_0044_spot_candles': spotCandles,
  '2026_12_01_0045_more_retention': moreRetention,
  '2026_12_01_0046_perp_open_orders': perpOpenOrders,
  '2026_12_02_0047_list_cursor_indexes': listCursorIndexes,
  '2026_12_02_0048_customer_activity': customerActivity,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
