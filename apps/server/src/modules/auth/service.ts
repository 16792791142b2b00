import { AppError } from '@bourse/shared';
import type { RateLimits } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, newToken, randomCode, sha256, verifyPassword } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import type { RateLimiter } from '../../platform/rate-limiter.ts';
import type { CaptchaService } from './captcha.ts';
import * as repo from './repository.ts';

export interface ClientInfo {
  ip: string;
  device: string;
}

export interface RegisterInput {
  account: string;
  lpwd: string;
  invit: string;
  vcode: string;
  key: string;
}

export interface LoginInput {
  email: string;
  lpwd: string;
  vcode: string;
  key: string;
}

export interface AuthContext {
  userId: number;
  sessionId: number;
}

// why: a session's last use is written at most once a minute, not on every request.
const TOUCH_INTERVAL_MS = 60_000;
const EMAIL_RE = /@/;

/** Registration, login, sessions and the login log. */
export class AuthService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    limiter: RateLimiter;
    limits: RateLimits;
    captcha: CaptchaService;
    captchaEnabled: boolean;
    registerMode: 1 | 2;
  };

  constructor(deps: AuthService['deps']) {
    this.deps = deps;
  }

  /**
   * Creates an account (mode 1: username or e-mail; mode 2: phone number). Checks the per-IP
   * registration limit, the captcha, the name's uniqueness and the invitation code, in that order.
   */
  async register(input: RegisterInput, mode: 1 | 2, client: ClientInfo): Promise<number> {
    const { db, clock, limiter, limits } = this.deps;
    if (mode !== this.deps.registerMode) throw new AppError('REGISTER_MODE_DISABLED');
    const ipKey = `register:ip:${client.ip}`;
    if (limiter.count(ipKey, limits.registrationsPerIp.windowMs) >= limits.registrationsPerIp.max) {
      throw new AppError('REGISTERED_TOO_MANY');
    }
    await this.checkCaptcha(input.key, input.vcode);

    const existing =
      mode === 2
        ? await repo.findUserByPhone(db, input.account)
        : await repo.findUserByUsername(db, input.account);
    if (existing) throw new AppError(mode === 2 ? 'PHONE_EXISTS' : 'USERNAME_EXISTS');

    let referrerId: number | null = null;
    if (input.invit) {
      const referrer = await repo.findUserByInviteCode(db, input.invit);
      if (!referrer) throw new AppError('INVITE_CODE_INVALID');
      referrerId = Number(referrer.id);
    }

    const passwordHash = await hashPassword(input.lpwd);
    const inviteCode = await this.newInviteCode();
    try {
      const id = await repo.insertUser(db, {
        username: input.account,
        phone: mode === 2 ? input.account : null,
        email: mode === 1 && EMAIL_RE.test(input.account) ? input.account : null,
        passwordHash,
        inviteCode,
        referrerId,
        regIp: client.ip,
        now: clock.now(),
      });
      limiter.hit(ipKey, limits.registrationsPerIp.windowMs);
      return id;
    } catch (error) {
      // why: two concurrent registrations of one name both pass the lookup; the unique index decides.
      if (/unique|duplicate/i.test(String((error as Error).message))) {
        throw new AppError(mode === 2 ? 'PHONE_EXISTS' : 'USERNAME_EXISTS');
      }
      throw error;
    }
  }

  /**
   * Checks the credentials and opens a session. Every attempt, good or bad, is written to the
   * login log. Failures count against the IP and the account; past the limit, logins wait.
   */
  async login(input: LoginInput, client: ClientInfo): Promise<{ token: string; uid: number }> {
    const { db, clock, limiter, limits } = this.deps;
    const account = input.email;
    const ipKey = `login:ip:${client.ip}`;
    const accountKey = `login:account:${account.toLowerCase()}`;
    const log = (userId: number | null, success: boolean, reason: string) =>
      repo.insertLoginLog(db, {
        userId,
        account,
        success,
        reason,
        ip: client.ip,
        device: client.device,
        now: clock.now(),
      });

    if (
      limiter.count(ipKey, limits.loginFailuresPerIp.windowMs) >= limits.loginFailuresPerIp.max ||
      limiter.count(accountKey, limits.loginFailuresPerAccount.windowMs) >= limits.loginFailuresPerAccount.max
    ) {
      await log(null, false, 'TOO_MANY_REQUESTS');
      throw new AppError('TOO_MANY_REQUESTS');
    }
    const fail = async (
      userId: number | null,
      reason: 'CAPTCHA_WRONG' | 'USER_NOT_FOUND' | 'LOGIN_PASSWORD_WRONG' | 'ACCOUNT_FROZEN',
    ) => {
      limiter.hit(ipKey, limits.loginFailuresPerIp.windowMs);
      if (reason !== 'CAPTCHA_WRONG') limiter.hit(accountKey, limits.loginFailuresPerAccount.windowMs);
      await log(userId, false, reason);
      return new AppError(reason);
    };

    if (!(await this.isCaptchaValid(input.key, input.vcode))) throw await fail(null, 'CAPTCHA_WRONG');
    const user = (await repo.findUserByUsername(db, account)) ?? (await repo.findUserByPhone(db, account));
    if (!user) throw await fail(null, 'USER_NOT_FOUND');
    const userId = Number(user.id);
    if (!(await verifyPassword(user.password_hash, input.lpwd)))
      throw await fail(userId, 'LOGIN_PASSWORD_WRONG');
    if (user.status === 'frozen') throw await fail(userId, 'ACCOUNT_FROZEN');

    const token = newToken();
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.insertSession(trx, {
        userId,
        tokenHash: sha256(token),
        device: client.device,
        ip: client.ip,
        now,
      });
      await repo.recordLogin(trx, userId, client.ip, now);
      await repo.insertLoginLog(trx, {
        userId,
        account,
        success: true,
        reason: 'OK',
        ip: client.ip,
        device: client.device,
        now,
      });
    });
    limiter.reset(accountKey);
    return { token, uid: userId };
  }

  /** Resolves a token to its live session; throws SESSION_INVALID when unknown, revoked or frozen. */
  async authenticate(token: string | undefined, client: ClientInfo): Promise<AuthContext> {
    if (!token) throw new AppError('SESSION_INVALID');
    const { db, clock } = this.deps;
    const session = await repo.findLiveSession(db, sha256(token));
    if (!session || session.status === 'frozen') throw new AppError('SESSION_INVALID');
    const sessionId = Number(session.sessionId);
    const now = clock.now();
    if (now - Number(session.lastUsedAt) >= TOUCH_INTERVAL_MS)
      await repo.touchSession(db, sessionId, client.ip, now);
    return { userId: Number(session.userId), sessionId };
  }

  /** A new graphic code, limited per IP so the table cannot be flooded. */
  async issueCaptcha(client: ClientInfo): Promise<{ key: string; img: string }> {
    const { limiter, limits } = this.deps;
    if (limiter.hit(`captcha:ip:${client.ip}`, limits.captchasPerIp.windowMs) > limits.captchasPerIp.max) {
      throw new AppError('TOO_MANY_REQUESTS');
    }
    return this.deps.captcha.issue();
  }

  async logout(auth: AuthContext): Promise<void> {
    await repo.revokeSession(this.deps.db, auth.sessionId, this.deps.clock.now());
  }

  private async isCaptchaValid(key: string, code: string): Promise<boolean> {
    if (!this.deps.captchaEnabled) return true;
    return this.deps.captcha.check(key, code);
  }

  private async checkCaptcha(key: string, code: string): Promise<void> {
    if (!(await this.isCaptchaValid(key, code))) throw new AppError('CAPTCHA_WRONG');
  }

  private async newInviteCode(): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const code = randomCode(8);
      if (!(await repo.isInviteCodeTaken(this.deps.db, code))) return code;
    }
    throw new Error('could not find a free invitation code');
  }
}
