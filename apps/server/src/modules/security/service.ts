import { randomInt } from 'node:crypto';
import { AppError, type ResultKey } from '@bourse/shared';
import { generateSecret, generateURI } from 'otplib';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, randomCode, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import {
  deleteOldestCreatedBefore,
  type PruneResult,
  pruneInSlices,
  type SliceOptions,
} from '../../platform/prune.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import type { EmailCodePurpose } from '../../platform/schema.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { toMillis } from '../../platform/time.ts';
import type { AuthService } from '../auth/service.ts';
import type { MailService } from '../mail/service.ts';
import type { Notifier } from '../notices/service.ts';
import type { SessionsService } from '../sessions/service.ts';
import type { UsersService } from '../users/service.ts';
import * as repo from './repository.ts';
import { BACKUP_CODE_LENGTH, type SecondFactor } from './second-factor.ts';

/** Seconds before another e-mail code may be asked for the same address (the resend countdown). */
export const EMAIL_CODE_RESEND_SECONDS = 60;
/** How long an e-mail code is good for. */
export const EMAIL_CODE_TTL_MS = 10 * 60_000;
/** Wrong tries before an e-mail code is spent. */
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
const BACKUP_CODES = 10;

export interface SecurityLimits {
  /** Two-factor code checks per account (reserved before the check). */
  totpChecks: Limit;
  /** E-mail codes per address and purpose: one per resend countdown. */
  emailCodesPerAddress: Limit;
  /** E-mail codes per client address, whatever the recipient. */
  emailCodesPerIp: Limit;
  /** E-mail code checks per address and purpose. */
  emailCodeChecks: Limit;
}

export interface SecurityDeps {
  db: Db;
  clock: Clock;
  users: UsersService;
  sessions: SessionsService;
  auth: AuthService;
  mail: MailService;
  notices: Notifier;
  captcha: { check(key: string, code: string): Promise<boolean> };
  secrets: SecretBox;
  /** The customer's second factor, shared with login and withdrawals. */
  secondFactor: SecondFactor;
  totpIssuer: string;
  limits: SecurityLimits;
}

/** What `totpSetup` can answer besides the codes every route can. */
export const TOTP_SETUP_ERRORS = ['TOTP_ALREADY_ENABLED'] as const satisfies readonly ResultKey[];

/** What `totpEnable` can answer besides the codes every route can. */
export const TOTP_ENABLE_ERRORS = [
  'TOTP_WRONG',
  'TOTP_ALREADY_ENABLED',
  'ILLEGAL_OPERATION',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `totpDisable` can answer besides the codes every route can. */
export const TOTP_DISABLE_ERRORS = [
  'TOTP_WRONG',
  'TOTP_NOT_ENABLED',
  'TOO_MANY_REQUESTS',
  'TOTP_REQUIRED',
] as const satisfies readonly ResultKey[];

/** What `setAntiPhishing` can answer besides the codes every route can. */
export const SET_ANTI_PHISHING_ERRORS = ['ANTI_PHISHING_INVALID'] as const satisfies readonly ResultKey[];

/** What `endSession` can answer besides the codes every route can. */
export const END_SESSION_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];

/** What mailing a code can answer, whichever the purpose. */
const codeErrors = [
  'EMAIL_OR_CAPTCHA_WRONG',
  'EMAIL_INVALID',
  'CODE_RESEND_WAIT',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `sendEmailCode` can answer when mailing the code that binds an e-mail address. */
export const SEND_BIND_EMAIL_CODE_ERRORS = [
  ...codeErrors,
  'EMAIL_EXISTS',
  'PLEASE_LOGIN',
] as const satisfies readonly ResultKey[];

/** What `bindEmail` can answer besides the codes every route can. */
export const BIND_EMAIL_ERRORS = [
  'EMAIL_CODE_WRONG',
  'EMAIL_EXISTS',
  'EMAIL_INVALID',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `bindMobile` can answer besides the codes every route can. */
export const BIND_MOBILE_ERRORS = [
  'MOBILE_ALREADY_BOUND',
  'PHONE_EXISTS',
  'PHONE_INVALID',
  'LOGIN_PASSWORD_WRONG',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `sendEmailCode` can answer when mailing a password-reset code to a registered mailbox. */
export const SEND_RESET_CODE_ERRORS = [
  ...codeErrors,
  'MAILBOX_NOT_REGISTERED',
  'ACCOUNT_FROZEN',
] as const satisfies readonly ResultKey[];

/** What `resetPassword` can answer besides the codes every route can. */
export const RESET_PASSWORD_ERRORS = [
  'EMAIL_CODE_WRONG',
  'EMAIL_INVALID',
  'PASSWORD_INVALID',
  'PASSWORDS_INCONSISTENT',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/**
 * The security centre: two-factor codes (TOTP with one-time backup codes), the anti-phishing code,
 * sessions, the login log, binding an e-mail or a mobile, and resetting a forgotten password by
 * e-mail code. Every check that can be guessed takes a limit slot before it is evaluated.
 */
export class SecurityService {
  readonly #deps: SecurityDeps;

  constructor(deps: SecurityDeps) {
    this.#deps = deps;
  }

  /**
   * Retention: deletes, in bounded slices, e-mail codes older than `retentionMs` (the mail outbox's
   * retention, `MAIL_OUTBOX_RETENTION_DAYS`), used or not.
   */
  prune(retentionMs: number, slices: SliceOptions): Promise<PruneResult> {
    const { db, clock } = this.#deps;
    // why: a code is good for minutes (`EMAIL_CODE_TTL_MS`) and the mail's retention is at least a
    // day, so no code still usable is deleted; each goes with the mail that carried it.
    const before = toMillis(clock.now() - retentionMs);
    return pruneInSlices((limit) => deleteOldestCreatedBefore(db, 'email_codes', before, limit), slices);
  }

  async overview(userId: bigint) {
    const { db, users } = this.#deps;
    const [info, security, backupLeft] = await Promise.all([
      users.getUserInfo(userId),
      repo.findSecurity(db, userId),
      repo.countBackupCodesLeft(db, userId),
    ]);
    return {
      email: info.email,
      phone: info.phone,
      totpEnabled: security?.totp_enabled === 1n,
      backupCodesLeft: backupLeft,
      antiPhishing: security?.anti_phishing ?? '',
      payPassword: info.paypassword === 1,
      realnameStatus: info.realname_status,
    };
  }

  async antiPhishing(userId: bigint): Promise<string> {
    return (await repo.findSecurity(this.#deps.db, userId))?.anti_phishing ?? '';
  }

  /** A new secret to scan; it takes effect only once a code from it is confirmed. */
  async totpSetup(auth: AuthContext): Promise<{ secret: string; otpauthUrl: string }> {
    const { db, clock, secrets, users, totpIssuer } = this.#deps;
    const security = await repo.findSecurity(db, auth.userId);
    if (security?.totp_enabled === 1n) throw new AppError('TOTP_ALREADY_ENABLED');
    const secret = generateSecret();
    await repo.setPendingTotp(db, auth.userId, secrets.seal(secret), toMillis(clock.now()));
    const { username } = await users.contact(auth.userId);
    return { secret, otpauthUrl: generateURI({ issuer: totpIssuer, label: username, secret }) };
  }

  /** Confirms the pending secret with a code; answers the one-time backup codes (shown once). */
  async totpEnable(auth: AuthContext, code: string): Promise<string[]> {
    const { db, clock, secrets, notices, limits } = this.#deps;
    const security = await repo.findSecurity(db, auth.userId);
    if (security?.totp_enabled === 1n) throw new AppError('TOTP_ALREADY_ENABLED');
    if (!security?.totp_pending) throw new AppError('ILLEGAL_OPERATION');
    const key = `user:${auth.userId}`;
    if (!(await limits.totpChecks.take(key))) throw new AppError('TOO_MANY_REQUESTS');
    const step = await this.#deps.secondFactor.verifyTotp(secrets.open(security.totp_pending), code);
    if (step === undefined) throw new AppError('TOTP_WRONG');
    await limits.totpChecks.clear(key);
    const codes = Array.from({ length: BACKUP_CODES }, () => randomCode(BACKUP_CODE_LENGTH));
    await db.transaction().execute(async (trx) => {
      const now = toMillis(clock.now());
      if (!(await repo.enableTotp(trx, auth.userId, security.totp_pending as string, BigInt(step), now))) {
        throw new AppError('TOTP_ALREADY_ENABLED');
      }
      await repo.insertBackupCodes(
        trx,
        auth.userId,
        codes.map((c) => sha256(`backup:${c}`)),
      );
      await notices.notify(trx, auth.userId, 'TOTP_ENABLED');
    });
    notices.changed(auth.userId);
    return codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
  }

  /** Turns two-factor codes off; a current code (or a backup code) is required. */
  async totpDisable(auth: AuthContext, code: string): Promise<void> {
    const { db, clock, notices } = this.#deps;
    const security = await repo.findSecurity(db, auth.userId);
    if (security?.totp_enabled !== 1n) throw new AppError('TOTP_NOT_ENABLED');
    await this.verifySecondFactor(auth.userId, code);
    await db.transaction().execute(async (trx) => {
      await repo.disableTotp(trx, auth.userId, toMillis(clock.now()));
      await notices.notify(trx, auth.userId, 'TOTP_DISABLED');
    });
    notices.changed(auth.userId);
  }

  /** Whether the user has two-factor codes on (login and withdrawals then ask for one). */
  isTotpEnabled(userId: bigint): Promise<boolean> {
    return this.#deps.secondFactor.isTotpEnabled(userId);
  }

  /** See `SecondFactor.verifySecondFactor`. */
  verifySecondFactor(userId: bigint, code: string | undefined): Promise<void> {
    return this.#deps.secondFactor.verifySecondFactor(userId, code);
  }

  bindMobile(auth: AuthContext, mobile: string, password: string): Promise<void> {
    return this.#deps.users.bindMobile(auth, mobile, password);
  }

  async setAntiPhishing(auth: AuthContext, code: string): Promise<void> {
    await repo.setAntiPhishing(this.#deps.db, auth.userId, code, toMillis(this.#deps.clock.now()));
  }

  sessions(auth: AuthContext) {
    return this.#deps.sessions.listLive(auth);
  }

  /** Ends one of the caller's other sessions (their own is ended by logging out). */
  async endSession(auth: AuthContext, sessionId: bigint): Promise<void> {
    if (sessionId === auth.sessionId) throw new AppError('ILLEGAL_OPERATION');
    await this.#deps.sessions.endOne(auth, sessionId);
  }

  async endOtherSessions(auth: AuthContext): Promise<void> {
    await this.#deps.db.transaction().execute((trx) => this.#deps.sessions.endOthers(trx, auth));
  }

  async loginLog(userId: bigint, page: HistoryPage) {
    const rows = await this.#deps.auth.listLoginLog(userId, historyWindow(page));
    return historyAnswer(rows, page, (row) => row);
  }

  /**
   * Mails a code for `purpose`. `reset_password`: the graphic code first (EMAIL_OR_CAPTCHA_WRONG),
   * then the address must belong to an account (MAILBOX_NOT_REGISTERED). `bind_email`: for the
   * signed-in user, to the new address (EMAIL_EXISTS when another account has it). One code per
   * address and purpose per resend countdown (CODE_RESEND_WAIT), its slot taken first.
   */
  async sendEmailCode(input: {
    purpose: EmailCodePurpose;
    email: string;
    captchaKey: string;
    captchaCode: string;
    ip: string;
    userId?: bigint;
  }): Promise<{ resendAfter: number }> {
    const { db, clock, users, mail, captcha, limits } = this.#deps;
    const email = input.email.toLowerCase();
    if (!(await limits.emailCodesPerIp.take(`ip:${input.ip}`))) throw new AppError('TOO_MANY_REQUESTS');
    if (!input.captchaKey || !(await captcha.check(input.captchaKey, input.captchaCode))) {
      throw new AppError('EMAIL_OR_CAPTCHA_WRONG');
    }
    let userId: bigint;
    let locale: string;
    if (input.purpose === 'reset_password') {
      const owner = await users.findByEmail(email);
      if (!owner) throw new AppError('MAILBOX_NOT_REGISTERED');
      if (owner.isFrozen) throw new AppError('ACCOUNT_FROZEN');
      userId = owner.id;
      locale = owner.locale;
    } else {
      if (input.userId === undefined) throw new AppError('PLEASE_LOGIN');
      const owner = await users.findByEmail(email);
      if (owner && owner.id !== input.userId) throw new AppError('EMAIL_EXISTS');
      userId = input.userId;
      locale = (await users.contact(userId)).locale;
    }
    const addressKey = `${input.purpose}:${email}`;
    if (!(await limits.emailCodesPerAddress.take(addressKey))) {
      throw new AppError('CODE_RESEND_WAIT', { seconds: EMAIL_CODE_RESEND_SECONDS });
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = clock.now();
    await repo.insertEmailCode(db, {
      purpose: input.purpose,
      email,
      userId,
      codeHash: sha256(`${input.purpose}:${email}:${code}`),
      expiresAt: toMillis(now + EMAIL_CODE_TTL_MS),
      now: toMillis(now),
    });
    await mail.send({
      userId,
      to: email,
      locale,
      key: input.purpose === 'reset_password' ? 'RESET_CODE' : 'BIND_CODE',
      params: { code, minutes: EMAIL_CODE_TTL_MS / 60_000 },
      antiPhishing: await this.antiPhishing(userId),
    });
    return { resendAfter: EMAIL_CODE_RESEND_SECONDS };
  }

  /** Binds the e-mail a `bind_email` code was sent to. */
  async bindEmail(auth: AuthContext, email: string, code: string): Promise<void> {
    const { db, users } = this.#deps;
    const checked = await this.#checkEmailCode('bind_email', email, code);
    if (checked.userId !== auth.userId) throw new AppError('EMAIL_CODE_WRONG');
    await db.transaction().execute(async (trx) => {
      await this.#spend(trx, checked.id);
      await users.setEmail(trx, auth.userId, email.toLowerCase());
    });
  }

  /**
   * Sets a new login password with a `reset_password` code: every session ends, withdrawals are
   * blocked for 24 hours, and the user is told.
   */
  async resetPassword(input: {
    email: string;
    code: string;
    password: string;
    repeat: string;
  }): Promise<void> {
    const { db, users, notices } = this.#deps;
    if (input.password !== input.repeat) throw new AppError('PASSWORDS_INCONSISTENT');
    const passwordHash = await hashPassword(input.password);
    const checked = await this.#checkEmailCode('reset_password', input.email, input.code);
    await db.transaction().execute(async (trx) => {
      await this.#spend(trx, checked.id);
      await users.resetPassword(trx, checked.userId, passwordHash);
      await notices.notify(trx, checked.userId, 'PASSWORD_RESET');
    });
    notices.changed(checked.userId);
  }

  /**
   * The live code for the address and purpose, when `code` is it (checks limited per address, the
   * slot taken first; a wrong try counts against the code). EMAIL_CODE_WRONG otherwise.
   */
  async #checkEmailCode(purpose: EmailCodePurpose, rawEmail: string, code: string) {
    const { db, clock, limits } = this.#deps;
    const email = rawEmail.toLowerCase();
    const checkKey = `${purpose}:${email}`;
    if (!(await limits.emailCodeChecks.take(checkKey))) throw new AppError('TOO_MANY_REQUESTS');
    const now = toMillis(clock.now());
    const row = await repo.findLiveEmailCode(db, purpose, email, now);
    if (!row) throw new AppError('EMAIL_CODE_WRONG');
    if (row.code_hash !== sha256(`${purpose}:${email}:${code.trim()}`)) {
      await repo.countEmailCodeAttempt(db, row.id, EMAIL_CODE_MAX_ATTEMPTS, now);
      throw new AppError('EMAIL_CODE_WRONG');
    }
    await limits.emailCodeChecks.clear(checkKey);
    return { id: row.id, userId: row.user_id };
  }

  /** Spends a checked code inside the transaction using it; a concurrent use of it loses. */
  async #spend(trx: Db, id: bigint): Promise<void> {
    if (!(await repo.spendEmailCode(trx, id, toMillis(this.#deps.clock.now())))) {
      throw new AppError('EMAIL_CODE_WRONG');
    }
  }
}
