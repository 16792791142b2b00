import { AppError, type ResultKey } from '@bourse/shared';
import type { UserInfo } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, randomCode, verifyPassword } from '../../platform/crypto.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import { fromMillis, toMillis, toSafeNumber } from '../../platform/time.ts';
import type { SessionsService } from '../sessions/service.ts';
import type { SettingsService } from '../settings/service.ts';

/** Generations of the referrer chain recorded at sign-up. */
export const REFERRAL_GENERATIONS = 3;
const TEAM_PAGE = 20;

/**
 * A team member's name as others see it: the first two characters, `***`, then the last one (an
 * e-mail keeps its domain: `ab***@x.com`); names of three characters or fewer keep only the first.
 */
export function maskName(name: string): string {
  const at = name.indexOf('@');
  const [local, domain] = at > 0 ? [name.slice(0, at), name.slice(at)] : [name, ''];
  const chars = [...local];
  const shown =
    chars.length <= 3
      ? `${chars[0] ?? ''}***`
      : `${chars.slice(0, 2).join('')}***${domain ? '' : chars.at(-1)}`;
  return `${shown}${domain}`;
}

import * as repo from './repository.ts';

/** Withdrawals stay blocked this long after a login-password change (spec section 9). */
export const WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS = 24 * 60 * 60_000;

const EMAIL_RE = /@/;
const USERNAME_IS_EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Whether a user has saved a withdrawal address. */
export interface WithdrawAddresses {
  hasWithdrawAddress(userId: bigint): Promise<boolean>;
}

export interface UsersDeps {
  db: Db;
  clock: Clock;
  sessions: SessionsService;
  settings: SettingsService;
  /** Default online-support URL when no `support_url` setting exists. */
  supportUrl: string;
  /** Checks of the current login password (password change), per account. */
  loginPasswordChecks: Limit;
  /** Checks of the current withdrawal password, per account. */
  withdrawPasswordChecks: Limit;
  /**
   * Runs inside the transaction that creates an account, after the row is in, so a new account is
   * whole or not there at all. (Trial money is no longer given here: it waits for a verified
   * identity, see docs/trial-money.md.)
   */
  onCreated?: (trx: Db, userId: bigint) => Promise<void>;
}

/** What login needs to know of an account. */
export interface LoginCandidate {
  id: bigint;
  passwordHash: string;
  isFrozen: boolean;
}

/** An account in a back-office list. */
export interface UserSummary {
  id: bigint;
  username: string;
  phone: string | null;
  email: string | null;
  status: 'active' | 'frozen';
  tradeBanned: boolean;
  createdAt: number;
  lastLoginAt: number | null;
}

/** An account's profile in the back office. */
export interface UserAccount extends UserSummary {
  level: bigint;
  inviteCode: string;
  referrerId: bigint | null;
  regIp: string;
  lastLoginIp: string;
  hasWithdrawPassword: boolean;
  realnameStatus: bigint;
}

function toUserSummary(user: {
  id: bigint;
  username: string;
  phone: string | null;
  email: string | null;
  status: 'active' | 'frozen';
  trade_banned: bigint;
  created_at: bigint;
  last_login_at: bigint | null;
}): UserSummary {
  return {
    id: user.id,
    username: user.username,
    phone: user.phone,
    email: user.email,
    status: user.status,
    tradeBanned: user.trade_banned === 1n,
    createdAt: fromMillis(user.created_at),
    lastLoginAt: user.last_login_at === null ? null : fromMillis(user.last_login_at),
  };
}

/** What `changePassword` can answer besides the codes every route can. */
export const CHANGE_PASSWORD_ERRORS = [
  'OLD_PASSWORD_WRONG',
  'PASSWORD_INVALID',
  'PASSWORDS_INCONSISTENT',
  'PASSWORD_SAME_AS_OLD',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `setWithdrawPassword` can answer besides the codes every route can. */
export const SET_WITHDRAW_PASSWORD_ERRORS = [
  'WITHDRAW_PASSWORD_INVALID',
  'PASSWORDS_INCONSISTENT',
  'WITHDRAW_PASSWORD_WRONG',
  'ILLEGAL_OPERATION',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `team` can answer besides the codes every route can. */
export const TEAM_ERRORS = ['USER_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** Accounts (the `users` table's owner): creation, profile, passwords. */
export class UsersService {
  readonly #deps: UsersDeps;
  #withdrawAddresses: WithdrawAddresses | undefined;

  constructor(deps: UsersDeps) {
    this.#deps = deps;
  }
  /**
   * The wallet, which owns the withdrawal addresses and is built on users, answers the profile's
   * `is_address` through this when it is registered; until then (and in tools without a wallet)
   * it is 0.
   */
  useWithdrawAddresses(source: WithdrawAddresses): void {
    this.#withdrawAddresses = source;
  }

  /**
   * Creates an account inside the caller's transaction and returns its id. A name or phone already
   * taken (also by a concurrent request: the unique index decides) answers USERNAME_EXISTS or
   * PHONE_EXISTS; an unknown invitation code answers INVITE_CODE_INVALID.
   */
  async createUser(
    trx: Db,
    input: {
      account: string;
      isPhone: boolean;
      passwordHash: string;
      inviteCode?: string;
      invitedBy?: string;
      ip: string;
      /** A platform-owned account (the market maker, demo traders): no sign-up hook, so no trial money. */
      platformOwned?: boolean;
    },
  ): Promise<bigint> {
    const exists = input.isPhone
      ? await repo.findUserByPhone(trx, input.account)
      : await repo.findUserByUsername(trx, input.account);
    const takenError = input.isPhone ? 'PHONE_EXISTS' : 'USERNAME_EXISTS';
    if (exists) throw new AppError(takenError);
    let referrerId: bigint | null = null;
    if (input.invitedBy) {
      const referrer = await repo.findUserByInviteCode(trx, input.invitedBy);
      if (!referrer) throw new AppError('INVITE_CODE_INVALID');
      referrerId = referrer.id;
    }
    let userId: bigint;
    try {
      userId = await repo.insertUser(trx, {
        username: input.account,
        phone: input.isPhone ? input.account : null,
        email: !input.isPhone && EMAIL_RE.test(input.account) ? input.account : null,
        passwordHash: input.passwordHash,
        inviteCode: input.inviteCode ?? (await this.#newInviteCode(trx)),
        referrerId,
        regIp: input.ip,
        now: toMillis(this.#deps.clock.now()),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(takenError);
      throw error;
    }
    if (referrerId !== null) {
      // why: the chain is fixed at sign-up: the inviter, then the inviter's first two generations.
      const now = toMillis(this.#deps.clock.now());
      const above = await repo.listAncestors(trx, referrerId);
      await repo.insertReferralEdges(trx, [
        { ancestor_id: referrerId, descendant_id: userId, depth: 1n, created_at: now },
        ...above
          .filter((a) => a.depth < BigInt(REFERRAL_GENERATIONS))
          .map((a) => ({
            ancestor_id: a.ancestor_id,
            descendant_id: userId,
            depth: a.depth + 1n,
            created_at: now,
          })),
      ]);
    }
    if (!input.platformOwned) await this.#deps.onCreated?.(trx, userId);
    return userId;
  }

  /**
   * Accounts linked to the user for the trial hedge rule: joined by a referral edge (either way,
   * any depth), or registered from the same address within `windowMs` of it. Read in `db` (the
   * caller's transaction).
   */
  async linkedAccounts(db: Db, userId: bigint, windowMs: number): Promise<bigint[]> {
    // why: one after the other: `db` is a transaction, one connection that runs one query at a time.
    const relatives = await repo.listReferralRelatives(db, userId);
    const neighbours = await repo.listSameRegistrationAddress(db, userId, BigInt(windowMs));
    return [...new Set([...relatives, ...neighbours])];
  }

  /** The user's referrers over three generations, nearest first (the launchpad's rewards read it). */
  async listAncestors(db: Db, userId: bigint): Promise<{ userId: bigint; generation: number }[]> {
    return (await repo.listAncestors(db, userId)).map((a) => ({
      userId: a.ancestor_id,
      generation: Number(a.depth),
    }));
  }

  /**
   * The invitation page: the user's code, how many people joined through it per generation, and one
   * generation's members (masked names, join date, verified or not; never balances or contacts).
   */
  async team(
    userId: bigint,
    query: { generation: number; page: number },
  ): Promise<{
    inviteCode: string;
    counts: [number, number, number];
    members: { name: string; joinedAt: number; verified: boolean }[];
    hasMore: boolean;
  }> {
    const { db } = this.#deps;
    const user = await repo.findUserById(db, userId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    const counts: [number, number, number] = [0, 0, 0];
    for (const row of await repo.countTeam(db, userId)) counts[Number(row.depth) - 1] = Number(row.members);
    const rows = await repo.listTeam(
      db,
      userId,
      BigInt(query.generation),
      TEAM_PAGE + 1,
      (query.page - 1) * TEAM_PAGE,
    );
    return {
      inviteCode: user.invite_code,
      counts,
      members: rows.slice(0, TEAM_PAGE).map((row) => ({
        name: maskName(row.username),
        joinedAt: fromMillis(row.created_at),
        verified: row.realname_status === 2n,
      })),
      hasMore: rows.length > TEAM_PAGE,
    };
  }

  /** The account a login names, by username (any case) or phone number. */
  async findLoginCandidate(account: string): Promise<LoginCandidate | undefined> {
    const { db } = this.#deps;
    const user = (await repo.findUserByUsername(db, account)) ?? (await repo.findUserByPhone(db, account));
    if (!user) return undefined;
    return { id: user.id, passwordHash: user.password_hash, isFrozen: user.status === 'frozen' };
  }

  /** Records a successful login on the account, inside the caller's transaction. */
  async recordLogin(trx: Db, userId: bigint, ip: string): Promise<void> {
    await repo.updateLastLogin(trx, userId, ip, toMillis(this.#deps.clock.now()));
  }

  async getUserInfo(userId: bigint): Promise<UserInfo> {
    const { db } = this.#deps;
    const user = await repo.findUserById(db, userId);
    if (!user) throw new AppError('SESSION_INVALID');
    const referrerName = await repo.findUsernameById(db, user.referrer_id);
    return {
      id: toSafeNumber(user.id),
      username: user.username,
      paypassword: user.pay_password_hash ? 1 : 0,
      is_address: (await this.#withdrawAddresses?.hasWithdrawAddress(userId)) ? 1 : 0,
      email: user.email ?? '',
      phone: user.phone ?? '',
      level: toSafeNumber(user.level),
      credit: toSafeNumber(user.credit),
      last_login_time: user.last_login_at === null ? null : Math.floor(fromMillis(user.last_login_at) / 1000),
      last_login_ip: user.last_login_ip,
      invite_code: user.invite_code,
      reg_ip: user.reg_ip,
      // why: the user sees who invited them the way team lists show members, never in full.
      referrer: referrerName ? maskName(referrerName) : '',
      realname_status: toSafeNumber(user.realname_status),
    };
  }

  /**
   * Changes the login password. The old one must match (checks are limited per account, the slot
   * taken before the hash is compared); the user's other sessions end and withdrawals are blocked
   * for 24 hours, in one transaction.
   */
  async changePassword(
    auth: AuthContext,
    input: { oldPassword: string; newPassword: string; repeatPassword: string },
  ): Promise<void> {
    const { db, clock, sessions } = this.#deps;
    if (input.newPassword !== input.repeatPassword) throw new AppError('PASSWORDS_INCONSISTENT');
    const user = await repo.findUserById(db, auth.userId);
    if (!user) throw new AppError('SESSION_INVALID');
    await this.#checkPassword(
      this.#deps.loginPasswordChecks,
      auth.userId,
      user.password_hash,
      input.oldPassword,
      'OLD_PASSWORD_WRONG',
    );
    if (input.oldPassword === input.newPassword) throw new AppError('PASSWORD_SAME_AS_OLD');
    const passwordHash = await hashPassword(input.newPassword);
    const blockedUntil = toMillis(clock.now() + WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS);
    await db.transaction().execute(async (trx) => {
      await repo.updatePassword(trx, auth.userId, passwordHash, blockedUntil);
      await sessions.endOthers(trx, auth);
    });
  }

  /** Sets the withdrawal password, or changes it when one is set (then the old one is required). */
  async setWithdrawPassword(
    auth: AuthContext,
    input: { newPassword: string; repeatPassword: string; oldPassword?: string },
  ): Promise<void> {
    const { db } = this.#deps;
    if (input.newPassword !== input.repeatPassword) throw new AppError('PASSWORDS_INCONSISTENT');
    const user = await repo.findUserById(db, auth.userId);
    if (!user) throw new AppError('SESSION_INVALID');
    if (user.pay_password_hash) {
      if (!input.oldPassword) throw new AppError('PARAM_MISSING');
      await this.#checkPassword(
        this.#deps.withdrawPasswordChecks,
        auth.userId,
        user.pay_password_hash,
        input.oldPassword,
        'WITHDRAW_PASSWORD_WRONG',
      );
    }
    const hash = await hashPassword(input.newPassword);
    await db.transaction().execute(async (trx) => {
      // why: two concurrent first-time sets must not both pass the "none set yet" read above.
      const current = await repo.findUserById(trx, auth.userId);
      if ((current?.pay_password_hash ?? null) !== (user.pay_password_hash ?? null))
        throw new AppError('ILLEGAL_OPERATION');
      await repo.updatePayPassword(trx, auth.userId, hash);
    });
  }

  /** Accounts matching a back-office search: an id, or the start of a username or phone number. */
  async searchUsers(text: string, limit: number): Promise<UserSummary[]> {
    const trimmed = text.trim();
    const id = /^\d{1,18}$/.test(trimmed) ? BigInt(trimmed) : undefined;
    const rows = await repo.searchUsers(this.#deps.db, { text: trimmed, id, limit });
    return rows.map(toUserSummary);
  }

  /**
   * One account as the back office sees it (no password hashes); undefined when unknown. Read on
   * `db`: the caller's transaction when it is inside one (SQLite has a single writer connection).
   */
  async getAccount(userId: bigint, db: Db = this.#deps.db): Promise<UserAccount | undefined> {
    const user = await repo.findUserById(db, userId);
    if (!user) return undefined;
    return {
      ...toUserSummary(user),
      level: user.level,
      inviteCode: user.invite_code,
      referrerId: user.referrer_id,
      regIp: user.reg_ip,
      lastLoginIp: user.last_login_ip,
      hasWithdrawPassword: user.pay_password_hash !== null,
      realnameStatus: user.realname_status,
    };
  }

  /**
   * Whether each of `userIds` may trade now (active and not trading-banned), in one read inside
   * the caller's transaction; unknown users are absent. The spot sequencer asks once per batch.
   */
  async tradingStatuses(
    db: Db,
    userIds: readonly bigint[],
  ): Promise<Map<bigint, 'ok' | 'frozen' | 'banned'>> {
    const statuses = new Map<bigint, 'ok' | 'frozen' | 'banned'>();
    const unique = [...new Set(userIds)];
    for (let i = 0; i < unique.length; i += 500) {
      for (const row of await repo.findTradingStatuses(db, unique.slice(i, i + 500))) {
        statuses.set(row.id, row.status !== 'active' ? 'frozen' : row.trade_banned === 1n ? 'banned' : 'ok');
      }
    }
    return statuses;
  }

  async countUsers(): Promise<bigint> {
    return repo.countUsers(this.#deps.db);
  }

  /**
   * Freezes or unfreezes an account inside the caller's transaction (the back office records the
   * audit row in the same one). A frozen account cannot log in and all its sessions end.
   * Throws USER_NOT_FOUND for an unknown account.
   */
  async setStatus(
    trx: Db,
    userId: bigint,
    status: 'active' | 'frozen',
  ): Promise<{ before: { status: string }; after: { status: string } }> {
    const user = await repo.findUserById(trx, userId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    await repo.updateStatus(trx, userId, status);
    if (status === 'frozen') await this.#deps.sessions.endAllOfUser(trx, userId);
    return { before: { status: user.status }, after: { status } };
  }

  /** Bans or allows trading inside the caller's transaction; USER_NOT_FOUND for an unknown account. */
  async setTradeBanned(
    trx: Db,
    userId: bigint,
    banned: boolean,
  ): Promise<{ before: { tradeBanned: boolean }; after: { tradeBanned: boolean } }> {
    const user = await repo.findUserById(trx, userId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    await repo.updateTradeBanned(trx, userId, banned);
    return { before: { tradeBanned: user.trade_banned === 1n }, after: { tradeBanned: banned } };
  }

  /** The online-support URL: the `support_url` setting, else the configured default. */
  async getSupportUrl(): Promise<string> {
    return (await this.#deps.settings.get('support_url')) ?? this.#deps.supportUrl;
  }

  /**
   * Checks a withdrawal password for the wallet: WITHDRAW_PASSWORD_NOT_SET when none is set,
   * WITHDRAW_PASSWORD_WRONG when it does not match; limited per account like every password check
   * (TOO_MANY_REQUESTS past the limit), the slot given back on success.
   */
  async verifyWithdrawPassword(auth: AuthContext, candidate: string): Promise<void> {
    const user = await repo.findUserById(this.#deps.db, auth.userId);
    if (!user) throw new AppError('SESSION_INVALID');
    if (!user.pay_password_hash) throw new AppError('WITHDRAW_PASSWORD_NOT_SET');
    await this.#checkPassword(
      this.#deps.withdrawPasswordChecks,
      auth.userId,
      user.pay_password_hash,
      candidate,
      'WITHDRAW_PASSWORD_WRONG',
    );
  }

  /** The account an e-mail belongs to (bound, or the e-mail it signed up with). */
  async findByEmail(
    email: string,
  ): Promise<{ id: bigint; email: string; locale: string; isFrozen: boolean } | undefined> {
    const user = await repo.findUserByEmail(this.#deps.db, email);
    if (!user) return undefined;
    return {
      id: user.id,
      email: user.email ?? user.username,
      locale: user.locale,
      isFrozen: user.status === 'frozen',
    };
  }

  /** Where the user's mail goes ('' when no e-mail is known) and the language it is written in. */
  async contact(userId: bigint): Promise<{ email: string; locale: string; username: string; phone: string }> {
    const user = await repo.findUserById(this.#deps.db, userId);
    if (!user) throw new AppError('SESSION_INVALID');
    const email = user.email ?? (USERNAME_IS_EMAIL.test(user.username) ? user.username : '');
    return { email, locale: user.locale, username: user.username, phone: user.phone ?? '' };
  }

  /** Binds (or replaces) the account's e-mail inside the caller's transaction; taken by another → EMAIL_EXISTS. */
  async setEmail(trx: Db, userId: bigint, email: string): Promise<void> {
    const owner = await repo.findUserByEmail(trx, email);
    if (owner && owner.id !== userId) throw new AppError('EMAIL_EXISTS');
    await repo.updateEmail(trx, userId, email);
  }

  /**
   * Binds a mobile once: the login password must match; an account with a mobile answers
   * MOBILE_ALREADY_BOUND, a mobile bound elsewhere PHONE_EXISTS (the unique index decides races).
   */
  async bindMobile(auth: AuthContext, mobile: string, password: string): Promise<void> {
    const { db } = this.#deps;
    const user = await repo.findUserById(db, auth.userId);
    if (!user) throw new AppError('SESSION_INVALID');
    if (user.phone) throw new AppError('MOBILE_ALREADY_BOUND');
    await this.#checkPassword(
      this.#deps.loginPasswordChecks,
      auth.userId,
      user.password_hash,
      password,
      'LOGIN_PASSWORD_WRONG',
    );
    const taken = await repo.findUserByPhone(db, mobile);
    if (taken) throw new AppError('PHONE_EXISTS');
    try {
      if (!(await repo.bindPhone(db, auth.userId, mobile))) throw new AppError('MOBILE_ALREADY_BOUND');
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('PHONE_EXISTS');
      throw error;
    }
  }

  /**
   * Sets a new login password without the old one (a reset by e-mail code), inside the caller's
   * transaction: every session ends and withdrawals are blocked for 24 hours.
   */
  async resetPassword(trx: Db, userId: bigint, passwordHash: string): Promise<void> {
    const blockedUntil = toMillis(this.#deps.clock.now() + WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS);
    await repo.updatePassword(trx, userId, passwordHash, blockedUntil);
    await this.#deps.sessions.endAllOfUser(trx, userId);
  }

  /** Remembers the language the user signed in with (their mail and notices are written in it). */
  async setLocale(trx: Db, userId: bigint, locale: string): Promise<void> {
    await repo.updateLocale(trx, userId, locale);
  }

  /** The profile's real-name state (0 none, 1 under review, 2 verified, 3 rejected), inside the caller's transaction. */
  async setRealnameStatus(trx: Db, userId: bigint, status: 0n | 1n | 2n | 3n): Promise<void> {
    await repo.updateRealnameStatus(trx, userId, status);
  }

  async realnameStatus(userId: bigint): Promise<bigint> {
    const user = await repo.findUserById(this.#deps.db, userId);
    if (!user) throw new AppError('SESSION_INVALID');
    return user.realname_status;
  }

  /** Whether withdrawals are blocked right now (e.g. within 24 h of a password change). */
  async isWithdrawBlocked(userId: bigint): Promise<boolean> {
    const user = await repo.findUserById(this.#deps.db, userId);
    return user !== undefined && fromMillis(user.withdraw_blocked_until) > this.#deps.clock.now();
  }

  // why: reserve before verify: the slot is taken before the (slow) hash comparison, so a burst
  // of guesses cannot have more than the limit compared; a right password gives its slot back.
  async #checkPassword(
    limit: Limit,
    userId: bigint,
    hash: string,
    candidate: string,
    wrong: 'OLD_PASSWORD_WRONG' | 'WITHDRAW_PASSWORD_WRONG' | 'LOGIN_PASSWORD_WRONG',
  ): Promise<void> {
    const key = `user:${userId}`;
    if (!(await limit.take(key))) throw new AppError('TOO_MANY_REQUESTS');
    if (!(await verifyPassword(hash, candidate))) throw new AppError(wrong);
    await limit.clear(key);
  }

  async #newInviteCode(db: Db): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const code = randomCode(8);
      if (!(await repo.isInviteCodeTaken(db, code))) return code;
    }
    throw new Error('could not find a free invitation code');
  }
}
