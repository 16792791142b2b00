import { randomUUID } from 'node:crypto';
import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { HealthReport } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditRow, AuditService } from '../audit/service.ts';
import type { AuthService, LoginLogEntry } from '../auth/service.ts';
import type { AccountKind, LedgerService, StatementLine } from '../ledger/service.ts';
import type { UserAccount, UserSummary, UsersService } from '../users/service.ts';
import * as repo from './repository.ts';

export interface BackOfficeDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  users: UsersService;
  auth: AuthService;
  ledger: LedgerService;
  /** The finance review queues' figures for the dashboard, counted from `since` (the day's start). */
  reviewFigures: (since: number) => Promise<ReviewFigures>;
  /** Symbols of the coins the platform knows (adjustments are refused in any other asset). */
  listAssets: () => Promise<string[]>;
  /** What `amount` atoms of `asset` are worth in USDT atoms at the index; undefined without a price. */
  usdtValue: (asset: string, amount: bigint) => Promise<bigint | undefined>;
  /**
   * Adjustments worth more than this (USDT atoms at the index), or with no price, need a second
   * staff member's approval (`ADJUSTMENT_APPROVAL_THRESHOLD`).
   */
  adjustmentApprovalThreshold: bigint;
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
  /** The platform halt that holds (a failed ledger check stopped new business), if any. */
  halt: () => Promise<PlatformHaltView | undefined>;
}

/** A platform halt as the dashboard shows it; the halt module answers it. */
export interface PlatformHaltView {
  id: bigint;
  reason: 'ledger';
  detail: string;
  haltedAt: number;
}

/** The finance queues' counts the dashboard shows; the wallet answers them. */
export interface ReviewFigures {
  pendingDeposits: number;
  pendingWithdrawals: number;
  depositsToday: number;
  withdrawalsToday: number;
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
  halt: PlatformHaltView | null;
  health: HealthReport;
}

const DAY_MS = 24 * 60 * 60_000;
const REQUESTS_PAGE = 100;

/** What a manual adjustment did: posted at once, or waiting for a second staff member. */
export type AdjustOutcome =
  | { status: 'done'; entryId: bigint; balance: bigint }
  | { status: 'pending'; requestId: bigint };

/** An adjustment request as the back office lists it. */
export interface AdjustmentRequestView {
  id: bigint;
  userId: bigint;
  username: string;
  asset: string;
  amount: bigint;
  usdtValue: bigint | null;
  reason: string;
  status: repo.AdjustmentRequestRow['status'];
  requestedBy: string;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  decisionReason: string | null;
  entryId: bigint | null;
}

/** What `getUser` can answer besides the codes every route can. */
export const GET_USER_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `loginLog` can answer besides the codes every route can. */
export const LOGIN_LOG_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `balances` can answer besides the codes every route can. */
export const BALANCES_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `statement` can answer besides the codes every route can. */
export const STATEMENT_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `setFrozen` can answer besides the codes every route can. */
export const SET_FROZEN_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `setTradeBanned` can answer besides the codes every route can. */
export const SET_TRADE_BANNED_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `adjust` can answer besides the codes every route can. */
export const ADJUST_ERRORS = [
  'AMOUNT_INVALID',
  'USER_NOT_FOUND',
  'BALANCE_INSUFFICIENT',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];

/** What `approveAdjustment` can answer besides the codes every route can. */
export const APPROVE_ADJUSTMENT_ERRORS = [
  'RECORD_NOT_FOUND',
  'ADJUSTMENT_SAME_STAFF',
  'ADJUSTMENT_ALREADY_DECIDED',
  'BALANCE_INSUFFICIENT',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];

/** What `rejectAdjustment` can answer besides the codes every route can. */
export const REJECT_ADJUSTMENT_ERRORS = [
  'RECORD_NOT_FOUND',
  'ADJUSTMENT_ALREADY_DECIDED',
] as const satisfies readonly ResultKey[];

/**
 * The back office's work on other modules' data: user search and profile, freezing and trade bans,
 * balances and statements, manual adjustments, the dashboard and the audit log. Every change runs
 * in one transaction with its audit record.
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
    return this.#deps.auth.listLoginLog(userId, { limit: 50 });
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
  async setFrozen(staff: StaffActor, userId: bigint, frozen: boolean, reason: string): Promise<void> {
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
  async setTradeBanned(staff: StaffActor, userId: bigint, banned: boolean, reason: string): Promise<void> {
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
   * One worth more than the approval threshold at the index (or whose asset has no price) is not
   * posted: it becomes a request a second staff member approves or rejects (four eyes). `key`
   * makes a repeated submission take effect once (the second answers ILLEGAL_OPERATION).
   */
  async adjust(
    staff: StaffActor,
    input: { userId: bigint; asset: string; amount: bigint; reason: string; key?: string },
  ): Promise<AdjustOutcome> {
    const { db, audit, clock } = this.#deps;
    if (input.amount === 0n) throw new AppError('PARAM_ERROR');
    if (!(await this.#deps.listAssets()).includes(input.asset)) throw new AppError('PARAM_ERROR');
    await this.getUser(input.userId);
    const key = input.key || randomUUID();
    const magnitude = input.amount < 0n ? -input.amount : input.amount;
    const value = await this.#deps.usdtValue(input.asset, magnitude);
    if (value !== undefined && value <= this.#deps.adjustmentApprovalThreshold) {
      return db.transaction().execute(async (trx) => ({
        status: 'done' as const,
        ...(await this.#postAdjustment(trx, staff.actor, staff.ip, { ...input, key })),
      }));
    }
    try {
      const requestId = await db.transaction().execute(async (trx) => {
        const id = await repo.insertAdjustmentRequest(trx, {
          user_id: input.userId,
          asset: input.asset,
          amount: input.amount,
          usdt_value: value ?? null,
          reason: input.reason,
          key,
          requested_by: staff.actor,
          requested_at: toMillis(clock.now()),
          decided_by: null,
          decided_at: null,
          decision_reason: null,
          entry_id: null,
        });
        await audit.record(trx, {
          actor: staff.actor,
          action: 'ledger.adjust.request',
          target: `user:${input.userId}`,
          after: {
            request: String(id),
            asset: input.asset,
            amount: fromAtoms(input.amount),
            usdtValue: value === undefined ? null : fromAtoms(value),
            threshold: fromAtoms(this.#deps.adjustmentApprovalThreshold),
          },
          reason: input.reason,
          ip: staff.ip,
        });
        return id;
      });
      return { status: 'pending', requestId };
    } catch (error) {
      // why: the same submission twice: the unique key lets one request in.
      if (isUniqueViolation(error)) throw new AppError('ILLEGAL_OPERATION');
      throw error;
    }
  }

  /** Adjustment requests, pending ones by default, newest first. */
  async listAdjustmentRequests(
    status?: repo.AdjustmentRequestRow['status'],
  ): Promise<AdjustmentRequestView[]> {
    const rows = await repo.listAdjustmentRequests(this.#deps.db, { status, limit: REQUESTS_PAGE });
    const names = new Map<bigint, string>();
    for (const id of new Set(rows.map((row) => row.user_id)))
      names.set(id, (await this.#deps.users.getAccount(id))?.username ?? '');
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      username: names.get(row.user_id) ?? '',
      asset: row.asset,
      amount: row.amount,
      usdtValue: row.usdt_value,
      reason: row.reason,
      status: row.status,
      requestedBy: row.requested_by,
      requestedAt: fromMillis(row.requested_at),
      decidedBy: row.decided_by,
      decidedAt: row.decided_at === null ? null : fromMillis(row.decided_at),
      decisionReason: row.decision_reason,
      entryId: row.entry_id,
    }));
  }

  /**
   * Approves a pending request: a staff member other than the one who made it decides it, and its
   * entry is posted, in one transaction with both audit records. Decided once: a second decision,
   * at the same time or later, answers ADJUSTMENT_ALREADY_DECIDED and changes nothing.
   */
  async approveAdjustment(staff: StaffActor, id: bigint): Promise<{ entryId: bigint; balance: bigint }> {
    const { db, audit, clock } = this.#deps;
    return db.transaction().execute(async (trx) => {
      const request = await this.#pendingRequest(trx, id);
      if (request.requested_by === staff.actor) throw new AppError('ADJUSTMENT_SAME_STAFF');
      const now = toMillis(clock.now());
      const decided = await repo.decideAdjustmentRequest(trx, id, {
        status: 'approved',
        decided_by: staff.actor,
        decided_at: now,
        decision_reason: null,
      });
      if (!decided) throw new AppError('ADJUSTMENT_ALREADY_DECIDED');
      const posted = await this.#postAdjustment(trx, request.requested_by, staff.ip, {
        userId: request.user_id,
        asset: request.asset,
        amount: request.amount,
        reason: request.reason,
        key: request.key,
      });
      await repo.setAdjustmentEntry(trx, id, posted.entryId);
      await audit.record(trx, {
        actor: staff.actor,
        action: 'ledger.adjust.approve',
        target: `user:${request.user_id}`,
        before: { request: String(id), status: 'pending', requestedBy: request.requested_by },
        after: { request: String(id), status: 'approved', entryId: posted.entryId },
        ip: staff.ip,
      });
      return posted;
    });
  }

  /** Rejects a pending request (its maker may withdraw it): nothing is posted; audited. */
  async rejectAdjustment(staff: StaffActor, id: bigint, reason: string): Promise<void> {
    const { db, audit, clock } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const request = await this.#pendingRequest(trx, id);
      const decided = await repo.decideAdjustmentRequest(trx, id, {
        status: 'rejected',
        decided_by: staff.actor,
        decided_at: toMillis(clock.now()),
        decision_reason: reason,
      });
      if (!decided) throw new AppError('ADJUSTMENT_ALREADY_DECIDED');
      await audit.record(trx, {
        actor: staff.actor,
        action: 'ledger.adjust.reject',
        target: `user:${request.user_id}`,
        before: { request: String(id), status: 'pending', requestedBy: request.requested_by },
        after: { request: String(id), status: 'rejected' },
        reason,
        ip: staff.ip,
      });
    });
  }

  async #pendingRequest(trx: Db, id: bigint): Promise<repo.AdjustmentRequestRow> {
    const request = await repo.findAdjustmentRequest(trx, id);
    if (!request) throw new AppError('RECORD_NOT_FOUND');
    if (request.status !== 'pending') throw new AppError('ADJUSTMENT_ALREADY_DECIDED');
    return request;
  }

  /**
   * Posts an adjustment's entry inside `trx`, with its `ledger.adjust` audit record by `actor`
   * (the staff member who asked for it; an approval adds its own record).
   */
  async #postAdjustment(
    trx: Db,
    actor: string,
    ip: string,
    input: { userId: bigint; asset: string; amount: bigint; reason: string; key: string },
  ): Promise<{ entryId: bigint; balance: bigint }> {
    const { ledger, audit } = this.#deps;
    const owner = { userId: input.userId };
    const ref = `adjustment:${input.key}`;
    const before = await ledger.balance(trx, owner, input.asset, 'available');
    const { entryId } = await ledger.post(trx, {
      type: 'adjustment',
      ref,
      memo: input.reason,
      by: actor,
      postings: [
        { owner, asset: input.asset, kind: 'available', amount: input.amount },
        { owner: { system: 'adjustments' }, asset: input.asset, kind: 'available', amount: -input.amount },
      ],
    });
    const after = await ledger.balance(trx, owner, input.asset, 'available');
    await audit.record(trx, {
      actor,
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
      ip,
    });
    return { entryId, balance: after };
  }

  async dashboard(): Promise<DashboardFigures> {
    const { users, clock } = this.#deps;
    const now = clock.now();
    const figures = await this.#deps.reviewFigures(now - (now % DAY_MS));
    return {
      usersTotal: await users.countUsers(),
      ...figures,
      ledger: await this.#deps.ledgerCheck.last(),
      halt: (await this.#deps.halt()) ?? null,
      health: await this.#deps.health(),
    };
  }

  /** Runs the ledger check now, on a staff member's request (recorded in the audit log). */
  async checkLedgerNow(staff: StaffActor): Promise<LedgerCheckResult> {
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
}
