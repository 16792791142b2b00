import type {
  AssetRow,
  AssetsOverview,
  BankCard,
  BillLine,
  CoinBalance,
  CoinChoice,
  CoinSymbol,
  ConvertPage,
  ConvertResult,
  DepositPage,
  DepositRecord,
  StaffDeposit,
  StaffWithdrawal,
  UserHome,
  WithdrawAddress,
  WithdrawalRecord,
  WithdrawPage,
} from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Db } from '../../platform/db.ts';
import type { HistoryPage } from '../../platform/history-page.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import type { UploadedFile } from '../../platform/uploads.ts';
import * as balances from './balances.ts';
import * as bills from './bills.ts';
import type { CoinSettings, NetworkSettings, WalletConfig } from './config.ts';
import * as conversions from './conversions.ts';
import * as demo from './demo.ts';
import * as deposits from './deposits.ts';
import { type WalletDeps, WITHDRAWAL_RESERVATIONS } from './deps.ts';
import * as destinations from './destinations.ts';
import * as repo from './repository.ts';
import type { StaffQueueRow } from './review.ts';
import * as review from './review.ts';
import * as settings from './settings.ts';
import * as withdrawals from './withdrawals.ts';

export type { StaffActor } from '../../platform/staff-actor.ts';
export type { WalletDeps } from './deps.ts';

/**
 * The cashier: coins and networks, balances valued in USDT, deposits with a voucher, withdrawals
 * with the withdrawal password, conversions at the index price, saved addresses and bank cards,
 * the user's bills, and the staff review of deposits and withdrawals. Owner of `wallet_coins`,
 * `wallet_networks`, `deposits`, `withdrawals`, `conversions`, `bank_cards`, `withdraw_addresses`.
 * Balances move only through the ledger, in the same transaction as the row that explains them.
 *
 * A thin facade: each use case lives in its own file (deposits, withdrawals, conversions,
 * destinations, bills, balances, settings, demo, review), all sharing the one `WalletDeps`.
 */
export class WalletService {
  readonly #deps: WalletDeps;

  constructor(deps: WalletDeps) {
    this.#deps = deps;
    deps.ledger.addReservationSource(WITHDRAWAL_RESERVATIONS, async (db, users) => {
      const rows = await repo.sumPendingWithdrawals(db, users);
      return rows.map((row) => ({ userId: row.user_id, asset: row.coin, amount: BigInt(row.total) }));
    });
  }

  // --- configuration (staff) ---------------------------------------------------------------------

  /** Every listed coin's wallet settings and networks (the back office's configuration page). */
  getConfig(): Promise<WalletConfig> {
    return settings.getConfig(this.#deps);
  }

  /** Saves a coin's wallet settings, audited. */
  saveCoinSettings(input: { settings: CoinSettings; staff: StaffActor }): Promise<void> {
    return settings.saveCoinSettings(this.#deps, input);
  }

  /** Saves a network (deposit address, limits, fee), audited; the deposit address must be valid. */
  saveNetwork(input: { network: NetworkSettings; staff: StaffActor }): Promise<void> {
    return settings.saveNetwork(this.#deps, input);
  }

  // --- demo seeding ------------------------------------------------------------------------------

  /** Adds the coin settings and networks that are missing (the demo seed); existing rows stay. */
  addMissingConfig(trx: Db, config: WalletConfig): Promise<void> {
    return demo.addMissingConfig(trx, config);
  }

  /** Credits a demo account's starting balances from the `demo` system account (one entry). */
  creditDemo(trx: Db, userId: bigint): Promise<void> {
    return demo.creditDemo(this.#deps, trx, userId);
  }

  // --- balances ----------------------------------------------------------------------------------

  /** The assets tab's home: the user's profile and the assets overview, read together. */
  getUserHome(userId: bigint): Promise<UserHome> {
    return balances.getUserHome(this.#deps, userId);
  }

  /** Every wallet coin with the user's available and frozen amounts, valued in USDT. */
  getAssets(userId: bigint): Promise<AssetsOverview> {
    return balances.getAssets(this.#deps, userId);
  }

  getTotalValue(userId: bigint): Promise<{ total_usdt: string }> {
    return balances.getTotalValue(this.#deps, userId);
  }

  /** One coin of the overview. */
  getCoinInfo(userId: bigint, coin: string): Promise<AssetRow> {
    return balances.getCoinInfo(this.#deps, userId, coin);
  }

  getBalance(userId: bigint, coin: string): Promise<CoinBalance> {
    return balances.getBalance(this.#deps, userId, coin);
  }

  /** Coins open for deposit (`deposit`) or withdrawal (`withdraw`), with the user's available amount. */
  listCoinChoices(userId: bigint, purpose: 'deposit' | 'withdraw'): Promise<CoinChoice[]> {
    return balances.listCoinChoices(this.#deps, userId, purpose);
  }

  /** A coin's networks for deposit and withdrawal, and its index price in USDT. */
  getCoinSymbol(coin: string): Promise<CoinSymbol> {
    return balances.getCoinSymbol(this.#deps, coin);
  }

  /** What `amount` atoms of `coin` are worth in USDT atoms at the index; undefined without a price. */
  usdtValue(coin: string, amount: bigint): Promise<bigint | undefined> {
    return balances.usdtValue(this.#deps, coin, amount);
  }

  // --- deposits ----------------------------------------------------------------------------------

  getDepositPage(coin: string, network?: string): Promise<DepositPage> {
    return deposits.getDepositPage(this.#deps, coin, network);
  }

  /**
   * Records a deposit for review: the network must take deposits, the amount be at least its
   * minimum, and the transfer voucher an image (checked, re-encoded and stored under a random name).
   */
  submitDeposit(
    auth: AuthContext,
    input: { coin: string; network: string; amount: bigint; hash: string; voucher: UploadedFile | undefined },
  ): Promise<DepositRecord> {
    return deposits.submitDeposit(this.#deps, auth, input);
  }

  listUserDeposits(
    userId: bigint,
    query: { coin?: string } & HistoryPage,
  ): Promise<{ list: DepositRecord[]; page: number; has_more: boolean }> {
    return deposits.listUserDeposits(this.#deps, userId, query);
  }

  /** One of the user's deposits; someone else's answers RECORD_NOT_FOUND like a missing one. */
  getDeposit(userId: bigint, id: bigint): Promise<DepositRecord> {
    return deposits.getDeposit(this.#deps, userId, id);
  }

  // --- withdrawals -------------------------------------------------------------------------------

  getWithdrawPage(auth: AuthContext, coin: string): Promise<WithdrawPage> {
    return withdrawals.getWithdrawPage(this.#deps, auth, coin);
  }

  /**
   * Requests a withdrawal: to a saved address (on its network) or a saved bank card (the coin's
   * bank network). The amount must be within the network's minimum and maximum; withdrawals must
   * not be blocked (24 h after a login-password change); the withdrawal password must be set and
   * right. Amount plus fee move from available to frozen in the same transaction as the record.
   * The same idempotency key again answers the first request's record and moves nothing.
   */
  requestWithdrawal(
    auth: AuthContext,
    input: {
      coin: string;
      type: 'address' | 'bank';
      addressId?: bigint;
      bankCardId?: bigint;
      amount: bigint;
      payPassword: string;
      idempotencyKey: string;
      totpCode?: string;
    },
  ): Promise<WithdrawalRecord> {
    return withdrawals.requestWithdrawal(this.#deps, auth, input);
  }

  listUserWithdrawals(
    userId: bigint,
    query: { coin?: string } & HistoryPage,
  ): Promise<{ list: WithdrawalRecord[]; page: number; has_more: boolean }> {
    return withdrawals.listUserWithdrawals(this.#deps, userId, query);
  }

  /** One of the user's withdrawals; someone else's answers RECORD_NOT_FOUND like a missing one. */
  getWithdrawal(userId: bigint, id: bigint): Promise<WithdrawalRecord> {
    return withdrawals.getWithdrawal(this.#deps, userId, id);
  }

  // --- conversions -------------------------------------------------------------------------------

  /** The published fee, the convertible coins with prices and the user's amounts, and a quote when asked. */
  getConvertPage(
    userId: bigint,
    query: { from?: string; to?: string; amount?: bigint },
  ): Promise<ConvertPage> {
    return conversions.getConvertPage(this.#deps, userId, query);
  }

  /**
   * Converts `amount` of one coin into another at the index prices (both valued in USDT), less
   * the published fee taken in the coin received; one ledger entry through the `conversion`
   * account. The same idempotency key again answers the first conversion and moves nothing.
   */
  convert(
    auth: AuthContext,
    input: { from: string; to: string; amount: bigint; idempotencyKey: string },
  ): Promise<ConvertResult> {
    return conversions.convert(this.#deps, auth, input);
  }

  // --- addresses and bank cards ------------------------------------------------------------------

  /** Whether the user has saved a withdrawal address (the profile's `is_address`). */
  hasWithdrawAddress(userId: bigint): Promise<boolean> {
    return destinations.hasWithdrawAddress(this.#deps, userId);
  }

  listAddresses(userId: bigint, coin?: string): Promise<WithdrawAddress[]> {
    return destinations.listAddresses(this.#deps, userId, coin);
  }

  /** Saves a withdrawal address after checking it against the network's format (checksums included). */
  addAddress(
    auth: AuthContext,
    input: { coin: string; network: string; address: string; remark: string },
  ): Promise<WithdrawAddress> {
    return destinations.addAddress(this.#deps, auth, input);
  }

  /** Deletes one of the user's addresses; someone else's answers WITHDRAW_ADDRESS_NOT_FOUND. */
  deleteAddress(auth: AuthContext, id: bigint): Promise<void> {
    return destinations.deleteAddress(this.#deps, auth, id);
  }

  listBankCards(userId: bigint): Promise<BankCard[]> {
    return destinations.listBankCards(this.#deps, userId);
  }

  addBankCard(
    auth: AuthContext,
    input: { number: string; name: string; bank: string; bankCode: string },
  ): Promise<BankCard> {
    return destinations.addBankCard(this.#deps, auth, input);
  }

  deleteBankCard(auth: AuthContext, id: bigint): Promise<void> {
    return destinations.deleteBankCard(this.#deps, auth, id);
  }

  // --- bills -------------------------------------------------------------------------------------

  /** The user's statement, newest first, a page at a time (`before` = last id of the previous page). */
  listBills(
    userId: bigint,
    query: { coin?: string; before?: bigint },
  ): Promise<{ list: BillLine[]; has_more: boolean }> {
    return bills.listBills(this.#deps, userId, query);
  }

  /** One line of the user's statement; someone else's answers RECORD_NOT_FOUND. */
  getBill(userId: bigint, id: bigint): Promise<BillLine> {
    return bills.getBill(this.#deps, userId, id);
  }

  // --- staff review ------------------------------------------------------------------------------

  /** The deposit queue (or any status), newest first, 20 a page. */
  listDeposits(query: { status?: string; page: number }): Promise<{
    list: StaffQueueRow<StaffDeposit>[];
    page: number;
    has_more: boolean;
  }> {
    return review.listDeposits(this.#deps, query);
  }

  /** The withdrawal queue (or any status), newest first, 20 a page. */
  listWithdrawals(query: { status?: string; page: number }): Promise<{
    list: StaffQueueRow<StaffWithdrawal>[];
    page: number;
    has_more: boolean;
  }> {
    return review.listWithdrawals(this.#deps, query);
  }

  /**
   * Credits a confirming deposit with the amount that really arrived: one ledger entry from
   * `external_deposits`, the row, and the audit record in one transaction. A deposit no longer
   * confirming (acted on already) answers ILLEGAL_OPERATION and changes nothing.
   */
  confirmDeposit(input: {
    depositId: bigint;
    creditedAmount: bigint;
    staff: StaffActor;
  }): Promise<StaffDeposit> {
    return deposits.confirmDeposit(this.#deps, input);
  }

  /** Rejects a confirming deposit with a reason (nothing is credited), audited. */
  rejectDeposit(input: { depositId: bigint; reason: string; staff: StaffActor }): Promise<StaffDeposit> {
    return deposits.rejectDeposit(this.#deps, input);
  }

  /**
   * Passes a withdrawal under review: the frozen amount leaves to `external_withdrawals` and the
   * fee to `fees`, with the row and the audit record in one transaction. Acting twice answers
   * ILLEGAL_OPERATION.
   */
  approveWithdrawal(input: { withdrawalId: bigint; staff: StaffActor }): Promise<StaffWithdrawal> {
    return withdrawals.approveWithdrawal(this.#deps, input);
  }

  /** Rejects a withdrawal under review with a reason: amount and fee return to available, audited. */
  rejectWithdrawal(input: {
    withdrawalId: bigint;
    reason: string;
    staff: StaffActor;
  }): Promise<StaffWithdrawal> {
    return withdrawals.rejectWithdrawal(this.#deps, input);
  }

  /** Dashboard figures: open reviews, and deposits and withdrawals requested since `since` (ms). */
  reviewFigures(since: number): Promise<{
    pendingDeposits: number;
    pendingWithdrawals: number;
    depositsToday: number;
    withdrawalsToday: number;
  }> {
    return review.reviewFigures(this.#deps, since);
  }

  /** The user's five newest deposits and withdrawals, newest first (support's context panel). */
  recentActivity(userId: bigint) {
    return review.recentActivity(this.#deps, userId);
  }
}
