import { AppError } from '@bourse/shared';
import type { UserInfo } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, verifyPassword } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { findUserById, revokeOtherSessions } from '../auth/repository.ts';
import type { AuthContext } from '../auth/service.ts';
import * as repo from './repository.ts';

/** Withdrawals stay blocked this long after a login-password change (spec section 9). */
export const WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS = 24 * 60 * 60_000;

/** The user's own profile and passwords. */
export class UsersService {
  private readonly deps: { db: Db; clock: Clock; supportUrl: string };

  constructor(deps: UsersService['deps']) {
    this.deps = deps;
  }

  async getUserInfo(userId: number): Promise<UserInfo> {
    const { db } = this.deps;
    const user = await findUserById(db, userId);
    if (!user) throw new AppError('SESSION_INVALID');
    return {
      id: Number(user.id),
      username: user.username,
      paypassword: user.pay_password_hash ? 1 : 0,
      is_address: (await repo.hasWithdrawAddress(db, userId)) ? 1 : 0,
      email: user.email ?? '',
      phone: user.phone ?? '',
      level: Number(user.level),
      credit: Number(user.credit),
      last_login_time: user.last_login_at === null ? null : Math.floor(Number(user.last_login_at) / 1000),
      last_login_ip: user.last_login_ip,
      invite_code: user.invite_code,
      reg_ip: user.reg_ip,
      referrer: await repo.findUsernameById(db, user.referrer_id === null ? null : Number(user.referrer_id)),
      realname_status: Number(user.realname_status),
    };
  }

  /**
   * Changes the login password. The old one must match; the user's other sessions end and
   * withdrawals are blocked for 24 hours, in one transaction.
   */
  async changePassword(
    auth: AuthContext,
    input: { oldpwd: string; newpwd: string; renewpwd: string },
  ): Promise<void> {
    const { db, clock } = this.deps;
    if (input.newpwd !== input.renewpwd) throw new AppError('PASSWORDS_INCONSISTENT');
    const user = await findUserById(db, auth.userId);
    if (!user) throw new AppError('SESSION_INVALID');
    if (!(await verifyPassword(user.password_hash, input.oldpwd))) throw new AppError('OLD_PASSWORD_WRONG');
    if (input.oldpwd === input.newpwd) throw new AppError('PASSWORD_SAME_AS_OLD');
    const passwordHash = await hashPassword(input.newpwd);
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.updatePassword(
        trx,
        auth.userId,
        passwordHash,
        now + WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS,
      );
      await revokeOtherSessions(trx, auth.userId, auth.sessionId, now);
    });
  }

  /** Sets the withdrawal password, or changes it when one is set (then the old one is required). */
  async setWithdrawPassword(
    auth: AuthContext,
    input: { paypassword: string; repaypassword: string; oldpaypassword?: string },
  ): Promise<void> {
    const { db } = this.deps;
    if (input.paypassword !== input.repaypassword) throw new AppError('PASSWORDS_INCONSISTENT');
    const user = await findUserById(db, auth.userId);
    if (!user) throw new AppError('SESSION_INVALID');
    if (user.pay_password_hash) {
      if (!input.oldpaypassword) throw new AppError('PARAM_MISSING');
      if (!(await verifyPassword(user.pay_password_hash, input.oldpaypassword)))
        throw new AppError('WITHDRAW_PASSWORD_WRONG');
    }
    await repo.updatePayPassword(db, auth.userId, await hashPassword(input.paypassword));
  }

  /** The online-support URL: the `support_url` setting, else the configured default. */
  async getSupportUrl(): Promise<string> {
    return (await repo.getSetting(this.deps.db, 'support_url')) ?? this.deps.supportUrl;
  }

  /** Whether withdrawals are blocked right now (e.g. within 24 h of a password change). */
  async isWithdrawBlocked(userId: number): Promise<boolean> {
    const user = await findUserById(this.deps.db, userId);
    return user !== undefined && Number(user.withdraw_blocked_until) > this.deps.clock.now();
  }
}
