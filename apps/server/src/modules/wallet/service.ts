import { AppError, ATOMS_PER_UNIT, fromAtoms, MAX_AMOUNT_ATOMS } from '@bourse/shared';
import type {
  AssetRow,
  AssetsOverview,
  BankCard,
  BillLine,
  CoinBalance,
  CoinChoice,
  CoinSymbol,
  ConvertPage,
  ConvertQuote,
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
import { WALLET_PAGE_SIZE } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import type { DepositStatus, WithdrawalStatus } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { type ImageUploads, toUploadUrl, type UploadedFile } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService, StatementLine } from '../ledger/service.ts';
import type { Coin, MarketsService, RecordedPrice } from '../markets/service.ts';
import type { Notifier } from '../notices/service.ts';
import type { UsersService } from '../users/service.ts';
import { isAddressFormat, isValidAddress } from './address-format.ts';
import type { CoinSettings, NetworkSettings, WalletConfig } from './config.ts';
import { DEMO_BALANCES } from './config.ts';
import * as repo from './repository.ts';

/** Published conversion fee: 0.20 % of the converted value, taken in the coin received. */
export const DEFAULT_CONVERSION_FEE_BPS = 20;
/** Saved withdrawal addresses, and bank cards, per user. */
export const MAX_SAVED_PER_USER = 20;
/** Deposits a user may have waiting for review at once (each carries an image). */
export const MAX_PENDING_DEPOSITS = 10;
/** Name of the wallet's source of open reservations in the ledger's invariant check. */
export const WITHDRAWAL_RESERVATIONS = 'wallet.withdrawals';

const USDT = 'USDT';
const BILLS_PAGE_SIZE = 20;

/** A staff member acting through the back office (the same shape as the staff module's reference). */
export interface StaffActor {
  staffId: bigint;
  username: string;
  /** `staff:<id>`. */
  actor: string;
  ip: string;
}

/** A row of a back-office queue: the record plus the customer's username ('' when unknown). */
type StaffQueueRow<T> = T & { username: string };

export interface WalletDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  markets: MarketsService;
  users: UsersService;
  uploads: ImageUploads;
  /** This node's live index prices (the feed's), merged with the recorded ones; the newer wins. */
  livePrices?: () => readonly RecordedPrice[];
  conversionFeeBps?: number;
  /** Tells users of reviews (deposits credited or rejected, withdrawals passed or rejected). */
  notices?: Notifier;
  /**
   * The security module: whether an account has two-factor codes on (the withdrawal page says so)
   * and the check of its code. Required, so a missed wire fails at start instead of skipping it.
   */
  secondFactor: {
    isTotpEnabled(userId: bigint): Promise<boolean>;
    verifySecondFactor(userId: bigint, code: string | undefined): Promise<void>;
  };
  /** Refuses withdrawals that need a verified identity (the identity module's policy). Required. */
  identityGate: { requireForWithdrawal(userId: bigint, usdtValue: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
}

/** A coin the wallet can work with: listed, active, with its wallet switches and networks. */
interface WalletCoin {
  coin: Coin;
  settings: CoinSettings;
  networks: NetworkSettings[];
}

type DepositRow = NonNullable<Awaited<ReturnType<typeof repo.findDeposit>>>;
type WithdrawalRow = NonNullable<Awaited<ReturnType<typeof repo.findWithdrawal>>>;

const flag = (value: boolean) => (value ? 1n : 0n);
const ms = (value: bigint | null) => (value === null ? null : fromMillis(value));

function toCoinSettings(coin: string, row: Awaited<ReturnType<typeof repo.findWalletCoin>>): CoinSettings {
  return {
    coin,
    icon: row?.icon ?? '',
    displayDecimals: row ? Number(row.display_decimals) : 8,
    convertible: row?.convertible === 1n,
    depositEnabled: row?.deposit_enabled === 1n,
    withdrawEnabled: row?.withdraw_enabled === 1n,
  };
}

function toNetworkSettings(row: Awaited<ReturnType<typeof repo.listNetworks>>[number]): NetworkSettings {
  return {
    coin: row.coin,
    network: row.network,
    addressFormat: isAddressFormat(row.address_format) ? row.address_format : 'bank',
    depositAddress: row.deposit_address,
    minDeposit: row.min_deposit,
    minWithdraw: row.min_withdraw,
    maxWithdraw: row.max_withdraw,
    withdrawFee: row.withdraw_fee,
    enabled: row.enabled === 1n,
    sort: Number(row.sort),
  };
}

const isDepositNetwork = (n: NetworkSettings) =>
  n.enabled && n.depositAddress !== '' && n.addressFormat !== 'bank';
const isWithdrawNetwork = (n: NetworkSettings) => n.enabled;

function maskCard(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `**** ${digits.slice(-4)}`;
}

function toDepositRecord(row: DepositRow): DepositRecord {
  return {
    id: String(row.id),
    coin: row.coin,
    network: row.network,
    address: row.address,
    amount: fromAtoms(row.amount),
    credited_amount: fromAtoms(row.credited_amount),
    hash: row.tx_hash,
    voucher: toUploadUrl(row.voucher),
    status: row.status,
    reason: row.reason,
    created_at: fromMillis(row.created_at),
    reviewed_at: ms(row.reviewed_at),
  };
}

function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    id: String(row.id),
    coin: row.coin,
    network: row.network,
    type: row.type,
    destination: row.destination,
    amount: fromAtoms(row.amount),
    fee: fromAtoms(row.fee),
    received: fromAtoms(row.status === 'passed' ? row.amount : 0n),
    status: row.status,
    reason: row.reason,
    created_at: fromMillis(row.created_at),
    reviewed_at: ms(row.reviewed_at),
  };
}

function toBillLine(line: StatementLine): BillLine {
  return {
    id: String(line.id),
    type: line.type,
    ref: line.ref,
    memo: line.memo,
    coin: line.asset,
    kind: line.kind,
    amount: fromAtoms(line.amount),
    balance_after: fromAtoms(line.balanceAfter),
    created_at: line.createdAt,
  };
}

/**
 * The cashier: coins and networks, balances valued in USDT, deposits with a voucher, withdrawals
 * with the withdrawal password, conversions at the index price, saved addresses and bank cards,
 * the user's bills, and the staff review of deposits and withdrawals. Owner of `wallet_coins`,
 * `wallet_networks`, `deposits`, `withdrawals`, `conversions`, `bank_cards`, `withdraw_addresses`.
 * Balances move only through the ledger, in the same transaction as the row that explains them.
 */
export class WalletService {
  readonly #deps: WalletDeps;
  readonly #feeBps: bigint;

  constructor(deps: WalletDeps) {
    this.#deps = deps;
    this.#feeBps = BigInt(deps.conversionFeeBps ?? DEFAULT_CONVERSION_FEE_BPS);
    deps.ledger.addReservationSource(WITHDRAWAL_RESERVATIONS, async (db) => {
      const rows = await repo.sumPendingWithdrawals(db);
      return rows.map((row) => ({ userId: row.user_id, asset: row.coin, amount: BigInt(row.total) }));
    });
  }

  // --- configuration ----------------------------------------------------------------------------

  /** Adds the coin settings and networks that are missing (the demo seed); existing rows stay. */
  async addMissingConfig(trx: Db, config: WalletConfig): Promise<void> {
    await repo.insertMissingWalletCoins(trx, config.coins.map(toCoinValues));
    await repo.insertMissingNetworks(trx, config.networks.map(toNetworkValues));
  }

  /** Every listed coin's wallet settings and networks (the back office's configuration page). */
  async getConfig(): Promise<WalletConfig> {
    const coins = await this.#walletCoins(this.#deps.db, { activeOnly: false });
    return { coins: coins.map((c) => c.settings), networks: coins.flatMap((c) => c.networks) };
  }

  /** Saves a coin's wallet settings, audited. */
  async saveCoinSettings(input: { settings: CoinSettings; staff: StaffActor }): Promise<void> {
    const { db, audit, markets } = this.#deps;
    const { settings, staff } = input;
    if (!(await markets.listCoins()).some((c) => c.symbol === settings.coin))
      throw new AppError('COIN_UNAVAILABLE');
    await db.transaction().execute(async (trx) => {
      const before = await repo.findWalletCoin(trx, settings.coin);
      await repo.upsertWalletCoin(trx, toCoinValues(settings));
      await audit.record(trx, {
        actor: staff.actor,
        action: 'wallet.coin.save',
        target: `coin:${settings.coin}`,
        before: before ?? null,
        after: toCoinValues(settings),
        ip: staff.ip,
      });
    });
  }

  /** Saves a network (deposit address, limits, fee), audited; the deposit address must be valid. */
  async saveNetwork(input: { network: NetworkSettings; staff: StaffActor }): Promise<void> {
    const { db, audit, markets } = this.#deps;
    const { network, staff } = input;
    if (!(await markets.listCoins()).some((c) => c.symbol === network.coin))
      throw new AppError('COIN_UNAVAILABLE');
    if (!isAddressFormat(network.addressFormat)) throw new AppError('PARAM_ERROR');
    if (network.depositAddress !== '' && !isValidAddress(network.addressFormat, network.depositAddress))
      throw new AppError('ADDRESS_INVALID');
    const amounts = [network.minDeposit, network.minWithdraw, network.maxWithdraw, network.withdrawFee];
    if (amounts.some((a) => a < 0n)) throw new AppError('AMOUNT_INVALID');
    if (network.maxWithdraw !== 0n && network.maxWithdraw < network.minWithdraw)
      throw new AppError('AMOUNT_INVALID');
    await db.transaction().execute(async (trx) => {
      const before = await repo.findNetwork(trx, network.coin, network.network);
      await repo.upsertNetwork(trx, toNetworkValues(network));
      await audit.record(trx, {
        actor: staff.actor,
        action: 'wallet.network.save',
        target: `network:${network.coin}:${network.network}`,
        before: before ? networkAuditView(before) : null,
        after: networkAuditView(toNetworkValues(network)),
        ip: staff.ip,
      });
    });
  }

  // --- demo -------------------------------------------------------------------------------------

  /** Credits a demo account's starting balances from the `demo` system account (one entry). */
  async creditDemo(trx: Db, userId: bigint): Promise<void> {
    await this.#deps.ledger.post(trx, {
      type: 'demo.credit',
      ref: `demo:user:${userId}`,
      memo: 'Demo credit',
      by: 'system',
      postings: DEMO_BALANCES.flatMap(({ asset, amount }) => [
        { owner: { system: 'demo' as const }, asset, kind: 'available' as const, amount: -amount },
        { owner: { userId }, asset, kind: 'available' as const, amount },
      ]),
    });
  }

  // --- balances ---------------------------------------------------------------------------------

  /** Every wallet coin with the user's available and frozen amounts, valued in USDT. */
  /** The assets tab's home: the user's profile and the assets overview, read together. */
  async getUserHome(userId: bigint): Promise<UserHome> {
    const [userInfo, assets] = await Promise.all([
      this.#deps.users.getUserInfo(userId),
      this.getAssets(userId),
    ]);
    return { ...assets, userInfo };
  }

  async getAssets(userId: bigint): Promise<AssetsOverview> {
    const { db, ledger } = this.#deps;
    const coins = await this.#walletCoins(db);
    const balances = await ledger.userBalances(db, userId);
    const prices = await this.#usdtPrices();
    let totalUsdt = 0n;
    const rows: AssetRow[] = coins.map((c) => {
      const available = findBalance(balances, c.coin.symbol, 'available');
      const frozen = findBalance(balances, c.coin.symbol, 'frozen');
      const price = prices.get(c.coin.symbol) ?? 0n;
      const value = ((available + frozen) * price) / ATOMS_PER_UNIT;
      totalUsdt += value;
      return {
        coin: c.coin.symbol,
        name: c.coin.name,
        icon: c.settings.icon,
        available: fromAtoms(available),
        frozen: fromAtoms(frozen),
        total: fromAtoms(available + frozen),
        price: fromAtoms(price),
        usdt_value: fromAtoms(value),
        ...this.#flags(c),
      };
    });
    return { total_usdt: fromAtoms(totalUsdt), coins: rows };
  }

  async getTotalValue(userId: bigint): Promise<{ total_usdt: string }> {
    return { total_usdt: (await this.getAssets(userId)).total_usdt };
  }

  /** One coin of the overview. */
  async getCoinInfo(userId: bigint, coin: string): Promise<AssetRow> {
    const row = (await this.getAssets(userId)).coins.find((c) => c.coin === coin);
    if (!row) throw new AppError('COIN_UNAVAILABLE');
    return row;
  }

  async getBalance(userId: bigint, coin: string): Promise<CoinBalance> {
    const { db, ledger } = this.#deps;
    await this.#requireCoin(db, coin);
    const [available, frozen] = await Promise.all([
      ledger.balance(db, { userId }, coin, 'available'),
      ledger.balance(db, { userId }, coin, 'frozen'),
    ]);
    return { coin, available: fromAtoms(available), frozen: fromAtoms(frozen) };
  }

  /** Coins open for deposit (`deposit`) or withdrawal (`withdraw`), with the user's available amount. */
  async listCoinChoices(userId: bigint, purpose: 'deposit' | 'withdraw'): Promise<CoinChoice[]> {
    const { db, ledger } = this.#deps;
    const coins = await this.#walletCoins(db);
    const balances = await ledger.userBalances(db, userId);
    return coins
      .filter((c) => (purpose === 'deposit' ? this.#flags(c).can_deposit : this.#flags(c).can_withdraw))
      .map((c) => ({
        coin: c.coin.symbol,
        name: c.coin.name,
        icon: c.settings.icon,
        decimals: c.settings.displayDecimals,
        available: fromAtoms(findBalance(balances, c.coin.symbol, 'available')),
      }));
  }

  /** A coin's networks for deposit and withdrawal, and its index price in USDT. */
  async getCoinSymbol(coin: string): Promise<CoinSymbol> {
    const c = await this.#requireCoin(this.#deps.db, coin);
    const price = (await this.#usdtPrices()).get(coin) ?? 0n;
    return {
      coin,
      price: fromAtoms(price),
      deposit_networks: c.settings.depositEnabled
        ? c.networks.filter(isDepositNetwork).map(toDepositNetwork)
        : [],
      withdraw_networks: c.settings.withdrawEnabled
        ? c.networks.filter(isWithdrawNetwork).map(toWithdrawNetwork)
        : [],
    };
  }

  // --- deposits ---------------------------------------------------------------------------------

  async getDepositPage(coin: string, network?: string): Promise<DepositPage> {
    const c = await this.#requireCoin(this.#deps.db, coin);
    if (!c.settings.depositEnabled) throw new AppError('DEPOSIT_DISABLED');
    const networks = c.networks.filter(isDepositNetwork).filter((n) => !network || n.network === network);
    if (networks.length === 0) throw new AppError('NETWORK_UNAVAILABLE');
    return {
      coin,
      name: c.coin.name,
      decimals: c.settings.displayDecimals,
      networks: networks.map(toDepositNetwork),
    };
  }

  /**
   * Records a deposit for review: the network must take deposits, the amount be at least its
   * minimum, and the transfer voucher an image (checked, re-encoded and stored under a random name).
   */
  async submitDeposit(
    auth: AuthContext,
    input: { coin: string; network: string; amount: bigint; hash: string; voucher: UploadedFile | undefined },
  ): Promise<DepositRecord> {
    const { db, clock, uploads } = this.#deps;
    const c = await this.#requireCoin(db, input.coin);
    if (!c.settings.depositEnabled) throw new AppError('DEPOSIT_DISABLED');
    const network = c.networks.find((n) => n.network === input.network);
    if (!network || !isDepositNetwork(network)) throw new AppError('NETWORK_UNAVAILABLE');
    // why: every check the row can fail comes before the voucher is stored, so a refused deposit
    // leaves no image behind; the route's schema already bounds amounts.
    if (input.amount <= 0n || input.amount > MAX_AMOUNT_ATOMS) throw new AppError('AMOUNT_INVALID');
    if (input.amount < network.minDeposit) throw new AppError('AMOUNT_BELOW_MIN');
    if (!input.voucher || input.voucher.data.length === 0) throw new AppError('VOUCHER_REQUIRED');
    const pending = await repo.listDeposits(db, {
      userId: auth.userId,
      status: 'confirming',
      limit: MAX_PENDING_DEPOSITS,
      offset: 0,
    });
    if (pending.length >= MAX_PENDING_DEPOSITS) throw new AppError('TOO_MANY_REQUESTS');
    const stored = await uploads.storeImage(input.voucher);
    let id: bigint;
    try {
      id = await repo.insertDeposit(db, {
        user_id: auth.userId,
        coin: input.coin,
        network: network.network,
        address: network.depositAddress,
        amount: input.amount,
        tx_hash: input.hash,
        voucher: stored.name,
        created_at: toMillis(clock.now()),
      });
    } catch (error) {
      // why: a voucher no deposit names would stay for ever; the insert's own fault is what counts.
      await uploads.removeImage(stored.name).catch(() => {});
      throw error;
    }
    return this.getDeposit(auth.userId, id);
  }

  /** The user's five newest deposits and withdrawals, newest first (support's context panel). */
  async recentActivity(userId: bigint) {
    const { db } = this.#deps;
    const [deposits, withdrawals] = await Promise.all([
      repo.listDeposits(db, { userId, limit: 5, offset: 0 }),
      repo.listWithdrawals(db, { userId, limit: 5, offset: 0 }),
    ]);
    return [
      ...deposits.map((d) => ({
        kind: 'deposit' as const,
        coin: d.coin,
        amount: fromAtoms(d.amount),
        status: d.status,
        createdAt: fromMillis(d.created_at),
      })),
      ...withdrawals.map((w) => ({
        kind: 'withdrawal' as const,
        coin: w.coin,
        amount: fromAtoms(w.amount),
        status: w.status,
        createdAt: fromMillis(w.created_at),
      })),
    ]
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, 8);
  }

  async listUserDeposits(
    userId: bigint,
    query: { page: number; coin?: string },
  ): Promise<{ list: DepositRecord[]; page: number; has_more: boolean }> {
    const rows = await repo.listDeposits(this.#deps.db, {
      userId,
      coin: query.coin,
      limit: WALLET_PAGE_SIZE + 1,
      offset: (query.page - 1) * WALLET_PAGE_SIZE,
    });
    return {
      list: rows.slice(0, WALLET_PAGE_SIZE).map(toDepositRecord),
      page: query.page,
      has_more: rows.length > WALLET_PAGE_SIZE,
    };
  }

  /** One of the user's deposits; someone else's answers RECORD_NOT_FOUND like a missing one. */
  async getDeposit(userId: bigint, id: bigint): Promise<DepositRecord> {
    const row = await repo.findDeposit(this.#deps.db, id);
    if (!row || row.user_id !== userId) throw new AppError('RECORD_NOT_FOUND');
    return toDepositRecord(row);
  }

  // --- withdrawals ------------------------------------------------------------------------------

  async getWithdrawPage(auth: AuthContext, coin: string): Promise<WithdrawPage> {
    const { db, ledger, users, secondFactor } = this.#deps;
    const c = await this.#requireCoin(db, coin);
    if (!c.settings.withdrawEnabled) throw new AppError('WITHDRAW_DISABLED');
    const [available, addresses, cards, info, blocked, hasTotp] = await Promise.all([
      ledger.balance(db, { userId: auth.userId }, coin, 'available'),
      this.listAddresses(auth.userId, coin),
      this.listBankCards(auth.userId),
      users.getUserInfo(auth.userId),
      users.isWithdrawBlocked(auth.userId),
      secondFactor.isTotpEnabled(auth.userId),
    ]);
    const networks = c.networks.filter(isWithdrawNetwork);
    return {
      coin,
      name: c.coin.name,
      decimals: c.settings.displayDecimals,
      available: fromAtoms(available),
      networks: networks.map(toWithdrawNetwork),
      addresses: addresses.filter((a) => networks.some((n) => n.network === a.network)),
      bank_cards: networks.some((n) => n.addressFormat === 'bank') ? cards : [],
      paypassword: info.paypassword,
      withdraw_blocked: blocked ? 1 : 0,
      totp: hasTotp ? 1 : 0,
    };
  }

  /**
   * Requests a withdrawal: to a saved address (on its network) or a saved bank card (the coin's
   * bank network). The amount must be within the network's minimum and maximum; withdrawals must
   * not be blocked (24 h after a login-password change); the withdrawal password must be set and
   * right. Amount plus fee move from available to frozen in the same transaction as the record.
   * The same idempotency key again answers the first request's record and moves nothing.
   */
  async requestWithdrawal(
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
    const { db, clock, ledger, users } = this.#deps;
    const previous = await repo.findWithdrawalByKey(db, auth.userId, input.idempotencyKey);
    if (previous) return this.#sameWithdrawal(previous, input);

    const c = await this.#requireCoin(db, input.coin);
    if (!c.settings.withdrawEnabled) throw new AppError('WITHDRAW_DISABLED');
    let network: NetworkSettings | undefined;
    let destination: string;
    if (input.type === 'address') {
      if (input.addressId === undefined) throw new AppError('PARAM_MISSING');
      const address = await repo.findAddress(db, auth.userId, input.addressId);
      if (!address || address.coin !== input.coin) throw new AppError('WITHDRAW_ADDRESS_NOT_FOUND');
      network = c.networks.find((n) => n.network === address.network);
      if (!network?.enabled || network.addressFormat === 'bank') throw new AppError('NETWORK_UNAVAILABLE');
      if (!isValidAddress(network.addressFormat, address.address)) throw new AppError('ADDRESS_INVALID');
      destination = address.address;
    } else {
      if (input.bankCardId === undefined) throw new AppError('PARAM_MISSING');
      const card = await repo.findBankCard(db, auth.userId, input.bankCardId);
      if (!card) throw new AppError('BANK_CARD_NOT_FOUND');
      network = c.networks.find((n) => n.addressFormat === 'bank' && n.enabled);
      if (!network) throw new AppError('NETWORK_UNAVAILABLE');
      destination = `${card.bank} (${card.bank_code}) ${maskCard(card.number)} ${card.name}`;
    }
    if (input.amount <= 0n) throw new AppError('AMOUNT_INVALID');
    if (input.amount < network.minWithdraw) throw new AppError('AMOUNT_BELOW_MIN');
    if (network.maxWithdraw > 0n && input.amount > network.maxWithdraw)
      throw new AppError('AMOUNT_ABOVE_MAX');
    if (await users.isWithdrawBlocked(auth.userId)) throw new AppError('WITHDRAW_BLOCKED');
    await this.#deps.termsGate.requireAccepted(auth.userId);
    const price = (await this.#usdtPrices()).get(input.coin) ?? 0n;
    await this.#deps.identityGate.requireForWithdrawal(auth.userId, (input.amount * price) / ATOMS_PER_UNIT);
    await users.verifyWithdrawPassword(auth, input.payPassword);
    await this.#deps.secondFactor.verifySecondFactor(auth.userId, input.totpCode);

    const fee = network.withdrawFee;
    const held = input.amount + fee;
    try {
      const id = await db.transaction().execute(async (trx) => {
        const withdrawalId = await repo.insertWithdrawal(trx, {
          user_id: auth.userId,
          coin: input.coin,
          network: network.network,
          type: input.type,
          destination,
          amount: input.amount,
          fee,
          idempotency_key: input.idempotencyKey,
          created_at: toMillis(clock.now()),
        });
        await ledger.post(trx, {
          type: 'withdrawal.freeze',
          ref: `withdrawal:${withdrawalId}`,
          memo: `${input.coin} ${network.network}`,
          by: `user:${auth.userId}`,
          postings: [
            { owner: { userId: auth.userId }, asset: input.coin, kind: 'available', amount: -held },
            { owner: { userId: auth.userId }, asset: input.coin, kind: 'frozen', amount: held },
          ],
        });
        return withdrawalId;
      });
      return this.getWithdrawal(auth.userId, id);
    } catch (error) {
      // why: the same key sent twice at once: the unique index lets one in; the other answers it.
      if (!isUniqueViolation(error)) throw error;
      const first = await repo.findWithdrawalByKey(db, auth.userId, input.idempotencyKey);
      if (!first) throw error;
      return this.#sameWithdrawal(first, input);
    }
  }

  async listUserWithdrawals(
    userId: bigint,
    query: { page: number; coin?: string },
  ): Promise<{ list: WithdrawalRecord[]; page: number; has_more: boolean }> {
    const rows = await repo.listWithdrawals(this.#deps.db, {
      userId,
      coin: query.coin,
      limit: WALLET_PAGE_SIZE + 1,
      offset: (query.page - 1) * WALLET_PAGE_SIZE,
    });
    return {
      list: rows.slice(0, WALLET_PAGE_SIZE).map(toWithdrawalRecord),
      page: query.page,
      has_more: rows.length > WALLET_PAGE_SIZE,
    };
  }

  /** One of the user's withdrawals; someone else's answers RECORD_NOT_FOUND like a missing one. */
  async getWithdrawal(userId: bigint, id: bigint): Promise<WithdrawalRecord> {
    const row = await repo.findWithdrawal(this.#deps.db, id);
    if (!row || row.user_id !== userId) throw new AppError('RECORD_NOT_FOUND');
    return toWithdrawalRecord(row);
  }

  // --- conversions ------------------------------------------------------------------------------

  /** The published fee, the convertible coins with prices and the user's amounts, and a quote when asked. */
  async getConvertPage(
    userId: bigint,
    query: { from?: string; to?: string; amount?: bigint },
  ): Promise<ConvertPage> {
    const { db, ledger } = this.#deps;
    const coins = (await this.#walletCoins(db)).filter((c) => c.settings.convertible);
    const balances = await ledger.userBalances(db, userId);
    const prices = await this.#usdtPrices();
    let quote: ConvertQuote | null = null;
    if (query.from && query.to && query.amount !== undefined) {
      const q = await this.#quote(query.from, query.to, query.amount);
      quote = toQuote(query.from, query.to, query.amount, q);
    }
    return {
      fee_percent: formatBps(this.#feeBps),
      coins: coins.map((c) => ({
        coin: c.coin.symbol,
        name: c.coin.name,
        price: fromAtoms(prices.get(c.coin.symbol) ?? 0n),
        available: fromAtoms(findBalance(balances, c.coin.symbol, 'available')),
        decimals: c.settings.displayDecimals,
      })),
      quote,
    };
  }

  /**
   * Converts `amount` of one coin into another at the index prices (both valued in USDT), less
   * the published fee taken in the coin received; one ledger entry through the `conversion`
   * account. The same idempotency key again answers the first conversion and moves nothing.
   */
  async convert(
    auth: AuthContext,
    input: { from: string; to: string; amount: bigint; idempotencyKey: string },
  ): Promise<ConvertResult> {
    const { db, clock, ledger } = this.#deps;
    const previous = await repo.findConversionByKey(db, auth.userId, input.idempotencyKey);
    if (previous) return sameConversion(previous, input);
    const q = await this.#quote(input.from, input.to, input.amount);
    const user = { userId: auth.userId };
    try {
      const row = await db.transaction().execute(async (trx) => {
        const values = {
          user_id: auth.userId,
          from_coin: input.from,
          to_coin: input.to,
          amount: input.amount,
          rate: q.rate,
          fee: q.fee,
          received: q.received,
          idempotency_key: input.idempotencyKey,
          created_at: toMillis(clock.now()),
        };
        const id = await repo.insertConversion(trx, values);
        await ledger.post(trx, {
          type: 'conversion',
          ref: `conversion:${id}`,
          memo: `${input.from} → ${input.to}`,
          by: `user:${auth.userId}`,
          postings: [
            { owner: user, asset: input.from, kind: 'available', amount: -input.amount },
            { owner: { system: 'conversion' }, asset: input.from, kind: 'available', amount: input.amount },
            { owner: { system: 'conversion' }, asset: input.to, kind: 'available', amount: -q.gross },
            { owner: user, asset: input.to, kind: 'available', amount: q.received },
            ...(q.fee > 0n
              ? [
                  {
                    owner: { system: 'fees' as const },
                    asset: input.to,
                    kind: 'available' as const,
                    amount: q.fee,
                  },
                ]
              : []),
          ],
        });
        return { id, ...values };
      });
      return toConvertResult(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const first = await repo.findConversionByKey(db, auth.userId, input.idempotencyKey);
      if (!first) throw error;
      return sameConversion(first, input);
    }
  }

  // --- addresses and bank cards -----------------------------------------------------------------

  /** Whether the user has saved a withdrawal address (the profile's `is_address`). */
  hasWithdrawAddress(userId: bigint): Promise<boolean> {
    return repo.hasAddress(this.#deps.db, userId);
  }

  async listAddresses(userId: bigint, coin?: string): Promise<WithdrawAddress[]> {
    const rows = await repo.listAddresses(this.#deps.db, userId, coin);
    return rows.map((row) => ({
      id: String(row.id),
      coin: row.coin,
      network: row.network,
      address: row.address,
      remark: row.remark,
      created_at: fromMillis(row.created_at),
    }));
  }

  /** Saves a withdrawal address after checking it against the network's format (checksums included). */
  async addAddress(
    auth: AuthContext,
    input: { coin: string; network: string; address: string; remark: string },
  ): Promise<WithdrawAddress> {
    const { db, clock } = this.#deps;
    const c = await this.#requireCoin(db, input.coin);
    const network = c.networks.find((n) => n.network === input.network);
    if (!network?.enabled || network.addressFormat === 'bank') throw new AppError('NETWORK_UNAVAILABLE');
    if (!isValidAddress(network.addressFormat, input.address)) throw new AppError('ADDRESS_INVALID');
    const id = await db
      .transaction()
      .execute(async (trx) => {
        const existing = await repo.listAddresses(trx, auth.userId, input.coin);
        if (existing.some((a) => a.network === input.network && a.address === input.address))
          throw new AppError('WITHDRAW_ADDRESS_EXISTS');
        if ((await repo.countAddresses(trx, auth.userId)) >= BigInt(MAX_SAVED_PER_USER))
          throw new AppError('SAVED_LIMIT_REACHED');
        return repo.insertAddress(trx, {
          user_id: auth.userId,
          coin: input.coin,
          network: input.network,
          address: input.address,
          remark: input.remark,
          created_at: toMillis(clock.now()),
        });
      })
      .catch((error: unknown) => {
        // why: two requests at once both pass the check above; the store's unique index stops the second.
        if (isUniqueViolation(error)) throw new AppError('WITHDRAW_ADDRESS_EXISTS');
        throw error;
      });
    const saved = (await this.listAddresses(auth.userId)).find((a) => a.id === String(id));
    if (!saved) throw new AppError('INTERNAL_ERROR');
    return saved;
  }

  /** Deletes one of the user's addresses; someone else's answers WITHDRAW_ADDRESS_NOT_FOUND. */
  async deleteAddress(auth: AuthContext, id: bigint): Promise<void> {
    if (!(await repo.deleteAddress(this.#deps.db, auth.userId, id)))
      throw new AppError('WITHDRAW_ADDRESS_NOT_FOUND');
  }

  async listBankCards(userId: bigint): Promise<BankCard[]> {
    const rows = await repo.listBankCards(this.#deps.db, userId);
    return rows.map((row) => ({
      id: String(row.id),
      number: maskCard(row.number),
      name: row.name,
      bank: row.bank,
      bank_code: row.bank_code,
      created_at: fromMillis(row.created_at),
    }));
  }

  async addBankCard(
    auth: AuthContext,
    input: { number: string; name: string; bank: string; bankCode: string },
  ): Promise<BankCard> {
    const { db, clock } = this.#deps;
    const number = input.number.replace(/[\s-]/g, '');
    if (!/^\d{8,30}$/.test(number)) throw new AppError('BANK_CARD_INVALID');
    const id = await db.transaction().execute(async (trx) => {
      if ((await repo.countBankCards(trx, auth.userId)) >= BigInt(MAX_SAVED_PER_USER))
        throw new AppError('SAVED_LIMIT_REACHED');
      return repo.insertBankCard(trx, {
        user_id: auth.userId,
        number,
        name: input.name,
        bank: input.bank,
        bank_code: input.bankCode,
        created_at: toMillis(clock.now()),
      });
    });
    const saved = (await this.listBankCards(auth.userId)).find((card) => card.id === String(id));
    if (!saved) throw new AppError('INTERNAL_ERROR');
    return saved;
  }

  async deleteBankCard(auth: AuthContext, id: bigint): Promise<void> {
    if (!(await repo.deleteBankCard(this.#deps.db, auth.userId, id)))
      throw new AppError('BANK_CARD_NOT_FOUND');
  }

  // --- bills ------------------------------------------------------------------------------------

  /** The user's statement, newest first, a page at a time (`before` = last id of the previous page). */
  async listBills(
    userId: bigint,
    query: { coin?: string; before?: bigint },
  ): Promise<{ list: BillLine[]; has_more: boolean }> {
    const lines = await this.#deps.ledger.statement(this.#deps.db, userId, {
      asset: query.coin,
      limit: BILLS_PAGE_SIZE + 1,
      beforeId: query.before,
    });
    return {
      list: lines.slice(0, BILLS_PAGE_SIZE).map(toBillLine),
      has_more: lines.length > BILLS_PAGE_SIZE,
    };
  }

  /** One line of the user's statement; someone else's answers RECORD_NOT_FOUND. */
  async getBill(userId: bigint, id: bigint): Promise<BillLine> {
    const line = await this.#deps.ledger.statementLine(this.#deps.db, userId, id);
    if (!line) throw new AppError('RECORD_NOT_FOUND');
    return toBillLine(line);
  }

  // --- staff review -----------------------------------------------------------------------------

  /** The deposit queue (or any status), newest first, 20 a page. */
  async listDeposits(query: { status?: string; page: number }): Promise<{
    list: StaffQueueRow<StaffDeposit>[];
    page: number;
    has_more: boolean;
  }> {
    const status = parseStatus<DepositStatus>(query.status, ['confirming', 'credited', 'rejected']);
    const rows = await repo.listDeposits(this.#deps.db, {
      status,
      limit: WALLET_PAGE_SIZE + 1,
      offset: (Math.max(1, query.page) - 1) * WALLET_PAGE_SIZE,
    });
    return {
      list: await this.#withUsernames(rows.slice(0, WALLET_PAGE_SIZE).map(toStaffDeposit)),
      page: query.page,
      has_more: rows.length > WALLET_PAGE_SIZE,
    };
  }

  /** The withdrawal queue (or any status), newest first, 20 a page. */
  async listWithdrawals(query: { status?: string; page: number }): Promise<{
    list: StaffQueueRow<StaffWithdrawal>[];
    page: number;
    has_more: boolean;
  }> {
    const status = parseStatus<WithdrawalStatus>(query.status, ['review', 'passed', 'rejected']);
    const rows = await repo.listWithdrawals(this.#deps.db, {
      status,
      limit: WALLET_PAGE_SIZE + 1,
      offset: (Math.max(1, query.page) - 1) * WALLET_PAGE_SIZE,
    });
    return {
      list: await this.#withUsernames(rows.slice(0, WALLET_PAGE_SIZE).map(toStaffWithdrawal)),
      page: query.page,
      has_more: rows.length > WALLET_PAGE_SIZE,
    };
  }

  /**
   * Credits a confirming deposit with the amount that really arrived: one ledger entry from
   * `external_deposits`, the row, and the audit record in one transaction. A deposit no longer
   * confirming (acted on already) answers ILLEGAL_OPERATION and changes nothing.
   */
  async confirmDeposit(input: {
    depositId: bigint;
    creditedAmount: bigint;
    staff: StaffActor;
  }): Promise<StaffDeposit> {
    const { db, clock, ledger, audit, notices } = this.#deps;
    const { depositId, creditedAmount, staff } = input;
    if (creditedAmount <= 0n) throw new AppError('AMOUNT_INVALID');
    const result = await db.transaction().execute(async (trx) => {
      const before = await this.#requireDeposit(trx, depositId);
      const now = toMillis(clock.now());
      const moved = await repo.settleDeposit(trx, depositId, {
        status: 'credited',
        credited_amount: creditedAmount,
        reason: '',
        reviewed_by: staff.actor,
        reviewed_at: now,
      });
      if (!moved) throw new AppError('ILLEGAL_OPERATION');
      await ledger.post(trx, {
        type: 'deposit.credit',
        ref: `deposit:${depositId}`,
        memo: `${before.coin} ${before.network}`,
        by: staff.actor,
        postings: [
          {
            owner: { system: 'external_deposits' },
            asset: before.coin,
            kind: 'available',
            amount: -creditedAmount,
          },
          {
            owner: { userId: before.user_id },
            asset: before.coin,
            kind: 'available',
            amount: creditedAmount,
          },
        ],
      });
      const after = await this.#requireDeposit(trx, depositId);
      await audit.record(trx, {
        actor: staff.actor,
        action: 'deposit.confirm',
        target: `deposit:${depositId}`,
        before: { status: before.status, amount: fromAtoms(before.amount) },
        after: { status: after.status, credited_amount: fromAtoms(after.credited_amount) },
        ip: staff.ip,
      });
      await notices?.notify(trx, before.user_id, 'DEPOSIT_CREDITED', {
        coin: before.coin,
        amount: fromAtoms(creditedAmount),
      });
      return { deposit: toStaffDeposit(after), userId: before.user_id };
    });
    notices?.changed(result.userId);
    return result.deposit;
  }

  /** Rejects a confirming deposit with a reason (nothing is credited), audited. */
  async rejectDeposit(input: {
    depositId: bigint;
    reason: string;
    staff: StaffActor;
  }): Promise<StaffDeposit> {
    const { db, clock, audit, notices } = this.#deps;
    const reason = input.reason.trim().slice(0, 500);
    if (!reason) throw new AppError('PARAM_MISSING');
    const result = await db.transaction().execute(async (trx) => {
      const before = await this.#requireDeposit(trx, input.depositId);
      const moved = await repo.settleDeposit(trx, input.depositId, {
        status: 'rejected',
        credited_amount: 0n,
        reason,
        reviewed_by: input.staff.actor,
        reviewed_at: toMillis(clock.now()),
      });
      if (!moved) throw new AppError('ILLEGAL_OPERATION');
      await audit.record(trx, {
        actor: input.staff.actor,
        action: 'deposit.reject',
        target: `deposit:${input.depositId}`,
        before: { status: before.status, amount: fromAtoms(before.amount) },
        after: { status: 'rejected' },
        reason,
        ip: input.staff.ip,
      });
      await notices?.notify(trx, before.user_id, 'DEPOSIT_REJECTED', {
        coin: before.coin,
        amount: fromAtoms(before.amount),
        reason,
      });
      return {
        deposit: toStaffDeposit(await this.#requireDeposit(trx, input.depositId)),
        userId: before.user_id,
      };
    });
    notices?.changed(result.userId);
    return result.deposit;
  }

  /**
   * Passes a withdrawal under review: the frozen amount leaves to `external_withdrawals` and the
   * fee to `fees`, with the row and the audit record in one transaction. Acting twice answers
   * ILLEGAL_OPERATION.
   */
  async approveWithdrawal(input: { withdrawalId: bigint; staff: StaffActor }): Promise<StaffWithdrawal> {
    const { db, clock, ledger, audit, notices } = this.#deps;
    const { withdrawalId, staff } = input;
    const result = await db.transaction().execute(async (trx) => {
      const before = await this.#requireWithdrawal(trx, withdrawalId);
      const moved = await repo.settleWithdrawal(trx, withdrawalId, {
        status: 'passed',
        reason: '',
        reviewed_by: staff.actor,
        reviewed_at: toMillis(clock.now()),
      });
      if (!moved) throw new AppError('ILLEGAL_OPERATION');
      const user = { userId: before.user_id };
      await ledger.post(trx, {
        type: 'withdrawal.complete',
        ref: `withdrawal:${withdrawalId}`,
        memo: `${before.coin} ${before.network}`,
        by: staff.actor,
        postings: [
          { owner: user, asset: before.coin, kind: 'frozen', amount: -(before.amount + before.fee) },
          {
            owner: { system: 'external_withdrawals' },
            asset: before.coin,
            kind: 'available',
            amount: before.amount,
          },
          ...(before.fee > 0n
            ? [
                {
                  owner: { system: 'fees' as const },
                  asset: before.coin,
                  kind: 'available' as const,
                  amount: before.fee,
                },
              ]
            : []),
        ],
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'withdrawal.approve',
        target: `withdrawal:${withdrawalId}`,
        before: { status: before.status, amount: fromAtoms(before.amount), fee: fromAtoms(before.fee) },
        after: { status: 'passed' },
        ip: staff.ip,
      });
      await notices?.notify(trx, before.user_id, 'WITHDRAWAL_PASSED', {
        coin: before.coin,
        amount: fromAtoms(before.amount),
      });
      return {
        withdrawal: toStaffWithdrawal(await this.#requireWithdrawal(trx, withdrawalId)),
        userId: before.user_id,
      };
    });
    notices?.changed(result.userId);
    return result.withdrawal;
  }

  /** Rejects a withdrawal under review with a reason: amount and fee return to available, audited. */
  async rejectWithdrawal(input: {
    withdrawalId: bigint;
    reason: string;
    staff: StaffActor;
  }): Promise<StaffWithdrawal> {
    const { db, clock, ledger, audit, notices } = this.#deps;
    const { withdrawalId, staff } = input;
    const reason = input.reason.trim().slice(0, 500);
    if (!reason) throw new AppError('PARAM_MISSING');
    const result = await db.transaction().execute(async (trx) => {
      const before = await this.#requireWithdrawal(trx, withdrawalId);
      const moved = await repo.settleWithdrawal(trx, withdrawalId, {
        status: 'rejected',
        reason,
        reviewed_by: staff.actor,
        reviewed_at: toMillis(clock.now()),
      });
      if (!moved) throw new AppError('ILLEGAL_OPERATION');
      const held = before.amount + before.fee;
      const user = { userId: before.user_id };
      await ledger.post(trx, {
        type: 'withdrawal.reject',
        ref: `withdrawal:${withdrawalId}`,
        memo: reason,
        by: staff.actor,
        postings: [
          { owner: user, asset: before.coin, kind: 'frozen', amount: -held },
          { owner: user, asset: before.coin, kind: 'available', amount: held },
        ],
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'withdrawal.reject',
        target: `withdrawal:${withdrawalId}`,
        before: { status: before.status, amount: fromAtoms(before.amount), fee: fromAtoms(before.fee) },
        after: { status: 'rejected' },
        reason,
        ip: staff.ip,
      });
      await notices?.notify(trx, before.user_id, 'WITHDRAWAL_REJECTED', {
        coin: before.coin,
        amount: fromAtoms(before.amount),
        reason,
      });
      return {
        withdrawal: toStaffWithdrawal(await this.#requireWithdrawal(trx, withdrawalId)),
        userId: before.user_id,
      };
    });
    notices?.changed(result.userId);
    return result.withdrawal;
  }

  /** Dashboard figures: open reviews, and deposits and withdrawals requested since `since` (ms). */
  async reviewFigures(since: number): Promise<{
    pendingDeposits: number;
    pendingWithdrawals: number;
    depositsToday: number;
    withdrawalsToday: number;
  }> {
    const { db } = this.#deps;
    const deposits = await repo.countByStatusSince(db, 'deposits', toMillis(since));
    const withdrawals = await repo.countByStatusSince(db, 'withdrawals', toMillis(since));
    return {
      pendingDeposits: Number(deposits.pending),
      pendingWithdrawals: Number(withdrawals.pending),
      depositsToday: Number(deposits.since),
      withdrawalsToday: Number(withdrawals.since),
    };
  }

  // --- internals --------------------------------------------------------------------------------

  /** Adds each record's customer username (one look-up per distinct user on the page). */
  async #withUsernames<T extends { user_id: string }>(records: T[]): Promise<StaffQueueRow<T>[]> {
    const names = new Map<string, string>();
    for (const userId of new Set(records.map((r) => r.user_id))) {
      names.set(userId, (await this.#deps.users.getAccount(BigInt(userId)))?.username ?? '');
    }
    return records.map((r) => ({ ...r, username: names.get(r.user_id) ?? '' }));
  }

  async #requireDeposit(db: Db, id: bigint): Promise<DepositRow> {
    const row = await repo.findDeposit(db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return row;
  }

  async #requireWithdrawal(db: Db, id: bigint): Promise<WithdrawalRow> {
    const row = await repo.findWithdrawal(db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return row;
  }

  #sameWithdrawal(
    row: WithdrawalRow,
    input: { coin: string; type: string; amount: bigint },
  ): WithdrawalRecord {
    if (row.coin !== input.coin || row.type !== input.type || row.amount !== input.amount)
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return toWithdrawalRecord(row);
  }

  #flags(c: WalletCoin) {
    return {
      decimals: c.settings.displayDecimals,
      can_deposit: c.settings.depositEnabled && c.networks.some(isDepositNetwork),
      can_withdraw: c.settings.withdrawEnabled && c.networks.some(isWithdrawNetwork),
      can_convert: c.settings.convertible,
    };
  }

  /** Listed coins with their wallet settings and networks; `activeOnly` (default) drops disabled coins. */
  async #walletCoins(db: Db, options: { activeOnly?: boolean } = {}): Promise<WalletCoin[]> {
    const [coins, settings, networks] = await Promise.all([
      this.#deps.markets.listCoins(db),
      repo.listWalletCoins(db),
      repo.listNetworks(db),
    ]);
    return coins
      .filter((coin) => options.activeOnly === false || coin.status === 'active')
      .map((coin) => ({
        coin,
        settings: toCoinSettings(
          coin.symbol,
          settings.find((s) => s.coin === coin.symbol),
        ),
        networks: networks.filter((n) => n.coin === coin.symbol).map(toNetworkSettings),
      }));
  }

  async #requireCoin(db: Db, coin: string): Promise<WalletCoin> {
    const found = (await this.#walletCoins(db)).find((c) => c.coin.symbol === coin);
    if (!found) throw new AppError('COIN_UNAVAILABLE');
    return found;
  }

  /** Index price of each coin in USDT atoms per unit: the newer of the recorded and the live price. */
  /** What `amount` atoms of `coin` are worth in USDT atoms at the index; undefined without a price. */
  async usdtValue(coin: string, amount: bigint): Promise<bigint | undefined> {
    const price = (await this.#usdtPrices()).get(coin);
    return price === undefined ? undefined : (amount * price) / ATOMS_PER_UNIT;
  }

  async #usdtPrices(): Promise<Map<string, bigint>> {
    const latest = new Map<string, RecordedPrice>();
    const recorded = await this.#deps.markets.listRecordedPrices();
    for (const price of [...recorded, ...(this.#deps.livePrices?.() ?? [])]) {
      const seen = latest.get(price.symbol);
      if (!seen || price.at >= seen.at) latest.set(price.symbol, price);
    }
    const prices = new Map<string, bigint>([[USDT, ATOMS_PER_UNIT]]);
    for (const [symbol, price] of latest) {
      if (symbol.endsWith(USDT) && symbol.length > USDT.length && price.price > 0n)
        prices.set(symbol.slice(0, -USDT.length), price.price);
    }
    return prices;
  }

  /** The figures of a conversion; truncation always favours the platform by less than one atom. */
  async #quote(
    from: string,
    to: string,
    amount: bigint,
  ): Promise<{ rate: bigint; gross: bigint; fee: bigint; received: bigint }> {
    if (from === to) throw new AppError('CONVERT_SAME_COIN');
    const coins = await this.#walletCoins(this.#deps.db);
    for (const symbol of [from, to]) {
      const c = coins.find((x) => x.coin.symbol === symbol);
      if (!c) throw new AppError('COIN_UNAVAILABLE');
      if (!c.settings.convertible) throw new AppError('CONVERT_DISABLED');
    }
    if (amount <= 0n) throw new AppError('AMOUNT_INVALID');
    const prices = await this.#usdtPrices();
    const fromPrice = prices.get(from);
    const toPrice = prices.get(to);
    if (!fromPrice || !toPrice) throw new AppError('PRICE_UNAVAILABLE');
    const gross = (amount * fromPrice) / toPrice;
    const fee = (gross * this.#feeBps + 9_999n) / 10_000n;
    const received = gross - fee;
    if (received <= 0n) throw new AppError('AMOUNT_BELOW_MIN');
    return { rate: (ATOMS_PER_UNIT * fromPrice) / toPrice, gross, fee, received };
  }
}

function findBalance(
  balances: readonly { asset: string; kind: string; balance: bigint }[],
  asset: string,
  kind: string,
): bigint {
  return balances.find((b) => b.asset === asset && b.kind === kind)?.balance ?? 0n;
}

function toDepositNetwork(n: NetworkSettings) {
  return { network: n.network, address: n.depositAddress, min_deposit: fromAtoms(n.minDeposit) };
}

function toWithdrawNetwork(n: NetworkSettings) {
  return {
    network: n.network,
    type: n.addressFormat === 'bank' ? ('bank' as const) : ('address' as const),
    min_withdraw: fromAtoms(n.minWithdraw),
    max_withdraw: fromAtoms(n.maxWithdraw),
    fee: fromAtoms(n.withdrawFee),
  };
}

function toCoinValues(s: CoinSettings) {
  return {
    coin: s.coin,
    icon: s.icon,
    display_decimals: BigInt(s.displayDecimals),
    convertible: flag(s.convertible),
    deposit_enabled: flag(s.depositEnabled),
    withdraw_enabled: flag(s.withdrawEnabled),
  };
}

function toNetworkValues(n: NetworkSettings): repo.NetworkValues {
  return {
    coin: n.coin,
    network: n.network,
    address_format: n.addressFormat,
    deposit_address: n.depositAddress,
    min_deposit: n.minDeposit,
    min_withdraw: n.minWithdraw,
    max_withdraw: n.maxWithdraw,
    withdraw_fee: n.withdrawFee,
    enabled: flag(n.enabled),
    sort: BigInt(n.sort),
  };
}

/** A network row as the audit log keeps it: its amounts as decimal strings, as staff typed them. */
function networkAuditView<T extends repo.NetworkValues>(row: T) {
  return {
    ...row,
    min_deposit: fromAtoms(row.min_deposit),
    min_withdraw: fromAtoms(row.min_withdraw),
    max_withdraw: fromAtoms(row.max_withdraw),
    withdraw_fee: fromAtoms(row.withdraw_fee),
  };
}

function toStaffDeposit(row: DepositRow): StaffDeposit {
  return { ...toDepositRecord(row), user_id: String(row.user_id), reviewed_by: row.reviewed_by };
}

function toStaffWithdrawal(row: WithdrawalRow): StaffWithdrawal {
  return { ...toWithdrawalRecord(row), user_id: String(row.user_id), reviewed_by: row.reviewed_by };
}

function parseStatus<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === '' || value === 'all') return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new AppError('PARAM_ERROR');
  return value as T;
}

function formatBps(bps: bigint): string {
  return `${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`;
}

function toQuote(
  from: string,
  to: string,
  amount: bigint,
  q: { rate: bigint; fee: bigint; received: bigint },
): ConvertQuote {
  return {
    from,
    to,
    amount: fromAtoms(amount),
    rate: fromAtoms(q.rate),
    fee: fromAtoms(q.fee),
    received: fromAtoms(q.received),
  };
}

type ConversionRow = NonNullable<Awaited<ReturnType<typeof repo.findConversionByKey>>>;

function toConvertResult(row: Omit<ConversionRow, 'id'> & { id: bigint }): ConvertResult {
  return {
    ...toQuote(row.from_coin, row.to_coin, row.amount, row),
    id: String(row.id),
    created_at: fromMillis(row.created_at),
  };
}

function sameConversion(
  row: ConversionRow,
  input: { from: string; to: string; amount: bigint },
): ConvertResult {
  if (row.from_coin !== input.from || row.to_coin !== input.to || row.amount !== input.amount)
    throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return toConvertResult(row);
}
