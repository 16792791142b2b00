import { randomUUID } from 'node:crypto';
import { AppError, fromAtoms } from '@bourse/shared';
import type { HealthReport } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { AuditRow, AuditService } from '../audit/service.ts';
import type { AuthService, LoginLogEntry } from '../auth/service.ts';
import type { AccountKind, LedgerService, StatementLine } from '../ledger/service.ts';
import type { UserAccount, UserSummary, UsersService } from '../users/service.ts';
import type { CoinSettings, NetworkSettings } from '../wallet/config.ts';
import type { StaffContext } from './service.ts';
import type { StaffActorRef, WalletReview } from './wallet-port.ts';

export interface BackOfficeDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  users: UsersService;
  auth: AuthService;
  ledger: LedgerService;
  /** The wallet's review methods; the finance routes answer NOT_FOUND until it is registered. */
  wallet?: () => WalletReview | undefined;
  /** Symbols of the coins the platform knows (adjustments are refused in any other asset). */
  listAssets: () => Promise<string[]>;
  /** The platform's health (database, bus, feed, last ledger check), as `/readyz` reports it. */
  health: () => Promise<HealthReport>;
  /**
   * The ledger's invariant check: `last` is the periodic check's result (it reads the whole
   * ledger, so a page view never runs it), `now` runs it at once.
   */
  ledgerCheck: {
    last(): Promise<LedgerCheckResult>;
    now(): Promise<LedgerCheckResult>;
  };
}

export interface LedgerCheckResult {
  ok: boolean;
  problems: string[];
  checkedAt: number;
}

export interface DashboardFigures {
  usersTotal: bigint;
  pendingDeposits: number | null;
  pendingWithdrawals: number | null;
  depositsToday: number | null;
  withdrawalsToday: number | null;
  ledger: LedgerCheckResult;
  health: HealthReport;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * The back office's work on other modules' data: user search and profile, freezing and trade bans,
 * balances and statements, manual adjustments, the dashboard, the audit log and the finance
 * review queues. Every change runs in one transaction with its audit record.
 */
export class BackOfficeService {
  readonly #deps: BackOfficeDeps;

  constructor(deps: BackOfficeDeps) {
    this.#deps = deps;
  }

  searchUsers(text: string): Promise<UserSummary[]> {
    return this.#deps.users.searchUsers(text, 50);
  }

  async getUser(userId: bigint): Promise<UserAccount> {
    const user = await this.#deps.users.getAccount(userId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    return user;
  }

  async loginLog(userId: bigint): Promise<LoginLogEntry[]> {
    await this.getUser(userId);
    return this.#deps.auth.listLoginLog(userId, 50);
  }

  async balances(userId: bigint): Promise<{ asset: string; kind: AccountKind; balance: bigint }[]> {
    await this.getUser(userId);
    return this.#deps.ledger.userBalances(this.#deps.db, userId);
  }

  async statement(
    userId: bigint,
    options: { asset?: string; beforeId?: bigint; limit: number },
  ): Promise<StatementLine[]> {
    await this.getUser(userId);
    return this.#deps.ledger.statement(this.#deps.db, userId, options);
  }

  /** Freezes (ending the user's sessions; logins refused) or unfreezes an account, audited. */
  async setFrozen(staff: StaffContext, userId: bigint, frozen: boolean, reason: string): Promise<void> {
    const { db, users, audit } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const change = await users.setStatus(trx, userId, frozen ? 'frozen' : 'active');
      await audit.record(trx, {
        actor: staff.actor,
        action: frozen ? 'user.freeze' : 'user.unfreeze',
        target: `user:${userId}`,
        ...change,
        reason,
        ip: staff.ip,
      });
    });
  }

  /** Bans or allows an account's trading, audited. */
  async setTradeBanned(staff: StaffContext, userId: bigint, banned: boolean, reason: string): Promise<void> {
    const { db, users, audit } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const change = await users.setTradeBanned(trx, userId, banned);
      await audit.record(trx, {
        actor: staff.actor,
        action: banned ? 'user.trade_ban' : 'user.trade_unban',
        target: `user:${userId}`,
        ...change,
        reason,
        ip: staff.ip,
      });
    });
  }

  /**
   * A manual adjustment: one double-entry `adjustment` between the user's available balance and
   * the system account `adjustments`, with the reason as the memo the user sees in their bills.
   * `key` makes a repeated submission take effect once (the second answers ILLEGAL_OPERATION).
   */
  async adjust(
    staff: StaffContext,
    input: { userId: bigint; asset: string; amount: bigint; reason: string; key?: string },
  ): Promise<{ entryId: bigint; balance: bigint }> {
    const { db, ledger, audit } = this.#deps;
    if (input.amount === 0n) throw new AppError('PARAM_ERROR');
    if (!(await this.#deps.listAssets()).includes(input.asset)) throw new AppError('PARAM_ERROR');
    await this.getUser(input.userId);
    const owner = { userId: input.userId };
    const ref = `adjustment:${input.key || randomUUID()}`;
    return db.transaction().execute(async (trx) => {
      const before = await ledger.balance(trx, owner, input.asset, 'available');
      const { entryId } = await ledger.post(trx, {
        type: 'adjustment',
        ref,
        memo: input.reason,
        by: staff.actor,
        postings: [
          { owner, asset: input.asset, kind: 'available', amount: input.amount },
          { owner: { system: 'adjustments' }, asset: input.asset, kind: 'available', amount: -input.amount },
        ],
      });
      const after = await ledger.balance(trx, owner, input.asset, 'available');
      await audit.record(trx, {
        actor: staff.actor,
        action: 'ledger.adjust',
        target: `user:${input.userId}`,
        before: { asset: input.asset, available: fromAtoms(before) },
        after: {
          asset: input.asset,
          available: fromAtoms(after),
          amount: fromAtoms(input.amount),
          entryId,
          ref,
        },
        reason: input.reason,
        ip: staff.ip,
      });
      return { entryId, balance: after };
    });
  }

  async dashboard(): Promise<DashboardFigures> {
    const { users, clock } = this.#deps;
    const now = clock.now();
    const wallet = this.#deps.wallet?.();
    const figures = wallet?.reviewFigures ? await wallet.reviewFigures(now - (now % DAY_MS)) : undefined;
    return {
      usersTotal: await users.countUsers(),
      pendingDeposits: figures?.pendingDeposits ?? null,
      pendingWithdrawals: figures?.pendingWithdrawals ?? null,
      depositsToday: figures?.depositsToday ?? null,
      withdrawalsToday: figures?.withdrawalsToday ?? null,
      ledger: await this.#deps.ledgerCheck.last(),
      health: await this.#deps.health(),
    };
  }

  /** Runs the ledger check now, on a staff member's request (recorded in the audit log). */
  async checkLedgerNow(staff: StaffActorRef): Promise<LedgerCheckResult> {
    const result = await this.#deps.ledgerCheck.now();
    await this.#deps.db.transaction().execute((trx) =>
      this.#deps.audit.record(trx, {
        actor: staff.actor,
        action: 'ledger.check',
        target: 'ledger',
        after: { ok: result.ok, problems: result.problems.length },
        ip: staff.ip,
      }),
    );
    return result;
  }

  listAudit(filter: {
    actor?: string;
    action?: string;
    target?: string;
    from?: number;
    to?: number;
    beforeId?: bigint;
    limit: number;
  }): Promise<AuditRow[]> {
    return this.#deps.audit.list(this.#deps.db, filter);
  }

  /** The wallet's review methods; NOT_FOUND while no wallet module is registered. */
  wallet(): WalletReview {
    const wallet = this.#deps.wallet?.();
    if (!wallet) throw new AppError('NOT_FOUND');
    return wallet;
  }

  /** The wallet configuration; its calls answer NOT_FOUND while no wallet module is registered. */
  readonly config = new WalletConfigOperations(() => this.wallet());
}

/** A coin's wallet switches with its networks, as the configuration page shows them. */
export type CoinConfig = CoinSettings & { networks: NetworkSettings[] };

/** What staff may change of a coin (its icon stays as it is). */
export type CoinSwitches = Omit<CoinSettings, 'icon'>;

/** A network as staff submit it; `sort` absent keeps the current order (0 for a new network). */
export type NetworkInput = Omit<NetworkSettings, 'sort'> & { sort?: number };

/**
 * The wallet configuration (coins, networks, deposit addresses, limits, fees) through the wallet's
 * audited methods: each save is one transaction with its before/after audit record.
 */
export class WalletConfigOperations {
  readonly #wallet: () => WalletReview;

  constructor(wallet: () => WalletReview) {
    this.#wallet = wallet;
  }

  /** Every coin the platform lists, with its wallet switches and networks in their order. */
  async listCoins(): Promise<CoinConfig[]> {
    const config = await this.#wallet().getConfig();
    return config.coins.map((coin) => ({
      ...coin,
      networks: config.networks
        .filter((n) => n.coin === coin.coin)
        .sort((a, b) => a.sort - b.sort || a.network.localeCompare(b.network)),
    }));
  }

  /** Saves a coin's switches; an unknown coin answers COIN_UNAVAILABLE. */
  async saveCoin(staff: StaffContext, input: CoinSwitches): Promise<void> {
    const wallet = this.#wallet();
    const current = (await wallet.getConfig()).coins.find((c) => c.coin === input.coin);
    if (!current) throw new AppError('COIN_UNAVAILABLE');
    await wallet.saveCoinSettings({ settings: { ...current, ...input }, staff: toActorRef(staff) });
  }

  /**
   * Creates or updates a network. The wallet refuses an unknown coin or address format and a
   * deposit address whose checksum fails (ADDRESS_INVALID).
   */
  async saveNetwork(staff: StaffContext, input: NetworkInput): Promise<void> {
    const wallet = this.#wallet();
    if (input.maxWithdraw !== 0n && input.minWithdraw > input.maxWithdraw)
      throw new AppError('CONFIG_LIMITS_INVALID');
    const current = (await wallet.getConfig()).networks.find(
      (n) => n.coin === input.coin && n.network === input.network,
    );
    await wallet.saveNetwork({
      network: { ...input, sort: input.sort ?? current?.sort ?? 0 },
      staff: toActorRef(staff),
    });
  }
}

/** Who a staff member is when another module writes the audit record. */
export function toActorRef(staff: StaffContext): StaffActorRef {
  return { staffId: staff.staffId, username: staff.username, actor: staff.actor, ip: staff.ip };
}
