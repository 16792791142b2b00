import { AppError, type ResultKey } from '@bourse/shared';
import type { AuthContext, ClientInfo } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, verifyPassword } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import {
  deleteOldestCreatedBefore,
  type PruneResult,
  pruneInSlices,
  type SliceOptions,
} from '../../platform/prune.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { Notifier } from '../notices/service.ts';
import type { SessionsService } from '../sessions/service.ts';
import type { UsersService } from '../users/service.ts';
import type { CaptchaService } from './captcha.ts';
import * as repo from './repository.ts';

export interface RegisterInput {
  account: string;
  password: string;
  invitationCode: string;
  captchaCode: string;
  captchaKey: string;
  /** The terms-of-service version accepted on the form; absent: the account accepts later. */
  termsVersion?: bigint;
}

export interface LoginInput {
  account: string;
  password: string;
  captchaCode: string;
  captchaKey: string;
  /** The two-factor code (or a backup code), when the account has codes on. */
  totpCode?: string;
  /** The language the app is in: the account's mail and notices follow it. */
  locale?: string;
}

/** The limits that guard sign-up and login (see the README's configuration table). */
export interface AuthLimits {
  /** Login attempts per account name and client address. */
  loginPerAccountAndIp: Limit;
  /** Login attempts per client address, whatever the account. */
  loginPerIp: Limit;
  /** Wrong passwords per account from any address: past `captchaAfter`, the graphic code is required. */
  loginFailuresPerAccount: Limit;
  captchaAfter: number;
  /** Accounts created per client address. */
  registrationsPerIp: Limit;
  /** Graphic codes drawn per client address. */
  captchasPerIp: Limit;
}

export interface AuthDeps {
  db: Db;
  clock: Clock;
  users: UsersService;
  sessions: SessionsService;
  captcha: CaptchaService;
  captchaEnabled: boolean;
  registerMode: 1 | 2;
  limits: AuthLimits;
  /** Checks the second factor of accounts that have one (the security module). Required. */
  secondFactor: { verifySecondFactor(userId: bigint, code: string | undefined): Promise<void> };
  /**
   * Records, in the sign-up's transaction, the terms version accepted on the form (the content
   * module); TERMS_VERSION_STALE when it is not the one in force. Required.
   */
  terms: { acceptAtRegistration(trx: Db, userId: bigint, version: bigint, ip: string): Promise<void> };
  /** Tells a user of a login from a device not seen before. */
  notices?: Notifier;
}

/** One row of a user's login log. */
export interface LoginLogEntry {
  id: bigint;
  account: string;
  success: boolean;
  reason: string;
  ip: string;
  device: string;
  createdAt: number;
}

type LoginFailure =
  | 'CAPTCHA_WRONG'
  | 'USER_NOT_FOUND'
  | 'LOGIN_PASSWORD_WRONG'
  | 'ACCOUNT_FROZEN'
  | 'TOTP_REQUIRED'
  | 'TOTP_WRONG';

/** What `issueCaptcha` can answer besides the codes every route can. */
export const ISSUE_CAPTCHA_ERRORS = ['TOO_MANY_REQUESTS'] as const satisfies readonly ResultKey[];

/** What `register` can answer for an account by user name. */
export const REGISTER_BY_USERNAME_ERRORS = [
  'USERNAME_INVALID',
  'PASSWORD_INVALID',
  'INVITE_CODE_INVALID',
  'CAPTCHA_WRONG',
  'USERNAME_EXISTS',
  'REGISTERED_TOO_MANY',
  'REGISTER_MODE_DISABLED',
  'TERMS_VERSION_STALE',
] as const satisfies readonly ResultKey[];

/** What `register` can answer for an account by phone number. */
export const REGISTER_BY_PHONE_ERRORS = [
  'PHONE_INVALID',
  'PASSWORD_INVALID',
  'INVITE_CODE_INVALID',
  'CAPTCHA_WRONG',
  'PHONE_EXISTS',
  'REGISTERED_TOO_MANY',
  'REGISTER_MODE_DISABLED',
  'TERMS_VERSION_STALE',
] as const satisfies readonly ResultKey[];

/** What `login` can answer besides the codes every route can. */
export const LOGIN_ERRORS = [
  'CAPTCHA_REQUIRED',
  'CAPTCHA_WRONG',
  'USER_NOT_FOUND',
  'LOGIN_PASSWORD_WRONG',
  'ACCOUNT_FROZEN',
  'TOTP_REQUIRED',
  'TOTP_WRONG',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/**
 * Registration, login and the login log. Every limit is reserved before the check it guards, so
 * concurrent requests can never evaluate more attempts than the limit allows.
 */
export class AuthService {
  readonly #deps: AuthDeps;

  constructor(deps: AuthDeps) {
    this.#deps = deps;
  }

  /** Retention: deletes, in bounded slices, login records older than `retentionMs`. */
  pruneLoginLogs(retentionMs: number, slices: SliceOptions): Promise<PruneResult> {
    const before = toMillis(this.#deps.clock.now() - retentionMs);
    return pruneInSlices(
      (limit) => deleteOldestCreatedBefore(this.#deps.db, 'login_logs', before, limit),
      slices,
    );
  }

  /**
   * Creates an account (mode 1: username or e-mail; mode 2: phone number). Takes a slot of the
   * per-address sign-up limit first, then checks the captcha, the name and the invitation code,
   * and records the terms version accepted on the form (it must be the one in force).
   */
  async register(input: RegisterInput, mode: 1 | 2, client: ClientInfo): Promise<bigint> {
    const { db, users, limits } = this.#deps;
    if (mode !== this.#deps.registerMode) throw new AppError('REGISTER_MODE_DISABLED');
    const ipKey = `ip:${client.ip}`;
    if (!(await limits.registrationsPerIp.take(ipKey))) throw new AppError('REGISTERED_TOO_MANY');
    try {
      await this.#checkCaptcha(input.captchaKey, input.captchaCode);
      // why: hash before the transaction: the write lock is not held through a slow hash.
      const passwordHash = await hashPassword(input.password);
      return await db.transaction().execute(async (trx) => {
        const userId = await users.createUser(trx, {
          account: input.account,
          isPhone: mode === 2,
          passwordHash,
          invitedBy: input.invitationCode || undefined,
          ip: client.ip,
        });
        if (input.termsVersion !== undefined) {
          await this.#deps.terms.acceptAtRegistration(trx, userId, input.termsVersion, client.ip);
        }
        return userId;
      });
    } catch (error) {
      // why: the limit counts accounts created; a refused sign-up gives its slot back.
      await limits.registrationsPerIp.giveBack(ipKey);
      throw error;
    }
  }

  /**
   * Checks the credentials and opens a session. A slot of the per-address and the
   * per-account-and-address limits is taken before anything is checked; attempts refused by a
   * limit write no login-log row, every evaluated attempt does.
   */
  async login(input: LoginInput, client: ClientInfo): Promise<{ token: string; uid: bigint }> {
    const { db, clock, users, sessions, limits } = this.#deps;
    const account = input.account;
    const accountKey = `account:${account.toLowerCase()}`;
    const ipKey = `ip:${client.ip}`;
    const accountIpKey = `${accountKey}|${ipKey}`;

    if (!(await limits.loginPerIp.take(ipKey))) throw new AppError('TOO_MANY_REQUESTS');
    if (!(await limits.loginPerAccountAndIp.take(accountIpKey))) {
      await limits.loginPerIp.giveBack(ipKey);
      throw new AppError('TOO_MANY_REQUESTS');
    }
    const log = (trx: Db, userId: bigint | null, success: boolean, reason: string) =>
      repo.insertLoginLog(trx, {
        userId,
        account,
        success,
        reason,
        ip: client.ip,
        device: client.device,
        now: toMillis(clock.now()),
      });
    const fail = async (userId: bigint | null, reason: LoginFailure) => {
      await log(db, userId, false, reason);
      return new AppError(reason);
    };

    // why: an account under attack from many addresses asks for the graphic code even when it is
    // otherwise off, which slows a distributed guesser without locking the owner out.
    const isCaptchaRequired =
      this.#deps.captchaEnabled ||
      (await limits.loginFailuresPerAccount.used(accountKey)) >= limits.captchaAfter;
    if (isCaptchaRequired) {
      if (!this.#deps.captchaEnabled && !input.captchaCode) {
        await limits.loginPerAccountAndIp.giveBack(accountIpKey);
        throw new AppError('CAPTCHA_REQUIRED');
      }
      if (!(await this.#deps.captcha.check(input.captchaKey, input.captchaCode))) {
        await limits.loginPerAccountAndIp.giveBack(accountIpKey);
        throw await fail(null, 'CAPTCHA_WRONG');
      }
    }
    const user = await users.findLoginCandidate(account);
    if (!user) throw await fail(null, 'USER_NOT_FOUND');
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      await limits.loginFailuresPerAccount.take(accountKey);
      throw await fail(user.id, 'LOGIN_PASSWORD_WRONG');
    }
    if (user.isFrozen) throw await fail(user.id, 'ACCOUNT_FROZEN');
    try {
      await this.#deps.secondFactor.verifySecondFactor(user.id, input.totpCode);
    } catch (error) {
      if (error instanceof AppError && (error.key === 'TOTP_REQUIRED' || error.key === 'TOTP_WRONG')) {
        // why: asking for the code is not a failed attempt; the login limits keep their slot otherwise.
        if (error.key === 'TOTP_REQUIRED') await limits.loginPerAccountAndIp.giveBack(accountIpKey);
        throw await fail(user.id, error.key);
      }
      throw error;
    }

    const seen = await repo.hasSucceededFrom(db, user.id, client.device);
    const notices = this.#deps.notices;
    const { token } = await db.transaction().execute(async (trx) => {
      const opened = await sessions.open(trx, user.id, client);
      await users.recordLogin(trx, user.id, client.ip);
      if (input.locale) await users.setLocale(trx, user.id, input.locale);
      await log(trx, user.id, true, 'OK');
      if (notices && seen.any && !seen.device) {
        await notices.notify(trx, user.id, 'LOGIN_NEW_DEVICE', { ip: client.ip, device: client.device });
      }
      return opened;
    });
    if (notices && seen.any && !seen.device) notices.changed(user.id);
    await limits.loginPerAccountAndIp.clear(accountIpKey);
    await limits.loginPerIp.giveBack(ipKey);
    return { token, uid: user.id };
  }

  /** A new graphic code, limited per address so the table cannot be flooded. */
  async issueCaptcha(client: ClientInfo): Promise<{ key: string; img: string }> {
    if (!(await this.#deps.limits.captchasPerIp.take(`ip:${client.ip}`))) {
      throw new AppError('TOO_MANY_REQUESTS');
    }
    return this.#deps.captcha.issue();
  }

  /** A user's login log, newest first (the customer's log and the back office show it). */
  async listLoginLog(
    userId: bigint,
    window: { limit: number; offset?: number; beforeId?: bigint },
  ): Promise<LoginLogEntry[]> {
    const rows = await repo.listLoginLogs(this.#deps.db, userId, window);
    return rows.map((row) => ({
      id: row.id,
      account: row.account,
      success: row.success === 1n,
      reason: row.reason,
      ip: row.ip,
      device: row.device,
      createdAt: fromMillis(row.created_at),
    }));
  }

  /** Checks (and spends) a graphic code, whatever the login setting: the e-mail code flows always ask for one. */
  checkCaptcha(key: string, code: string): Promise<boolean> {
    return this.#deps.captcha.check(key, code);
  }

  async logout(auth: AuthContext): Promise<void> {
    await this.#deps.sessions.end(auth);
  }

  async #checkCaptcha(key: string, code: string): Promise<void> {
    if (!this.#deps.captchaEnabled) return;
    if (!(await this.#deps.captcha.check(key, code))) throw new AppError('CAPTCHA_WRONG');
  }
}
