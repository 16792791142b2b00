import { AppError } from '@bourse/shared';
import { verify } from 'otplib';
import type { Clock } from '../../platform/clock.ts';
import { sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { toMillis } from '../../platform/time.ts';
import * as repo from './repository.ts';

export const BACKUP_CODE_LENGTH = 10;
// why: one step either side absorbs a phone clock a little off, as for staff codes.
const TOTP_TOLERANCE_SECONDS = 30;

export interface SecondFactorDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  /** Two-factor code checks per account (reserved before the check). */
  totpChecks: Limit;
}

function normalizeBackupCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * A customer's second factor, checked where an action asks for one (login, withdrawals). Apart
 * from the security centre that enrols it, because login needs it and the security centre needs
 * login's records: created first, it depends on neither.
 */
export class SecondFactor {
  readonly #deps: SecondFactorDeps;

  constructor(deps: SecondFactorDeps) {
    this.#deps = deps;
  }

  /** Whether the user has two-factor codes on (login and withdrawals then ask for one). */
  async isTotpEnabled(userId: bigint): Promise<boolean> {
    return (await repo.findSecurity(this.#deps.db, userId))?.totp_enabled === 1n;
  }

  /**
   * Checks the second factor when the user has one: TOTP_REQUIRED without a code, TOTP_WRONG for
   * a wrong, reused or used-up code. A code is a 6-digit TOTP (each time step good once) or a
   * backup code (good once). Limited per account, the slot taken before the check.
   */
  async verifySecondFactor(userId: bigint, code: string | undefined): Promise<void> {
    const { db, clock, secrets, totpChecks } = this.#deps;
    const security = await repo.findSecurity(db, userId);
    if (security?.totp_enabled !== 1n || !security.totp_secret) return;
    const candidate = (code ?? '').trim();
    if (!candidate) throw new AppError('TOTP_REQUIRED');
    const key = `user:${userId}`;
    if (!(await totpChecks.take(key))) throw new AppError('TOO_MANY_REQUESTS');
    let isRight = false;
    if (/^\d{6}$/.test(candidate)) {
      const step = await this.verifyTotp(secrets.open(security.totp_secret), candidate);
      isRight = step !== undefined && (await repo.advanceTotpStep(db, userId, BigInt(step)));
    } else {
      const backup = normalizeBackupCode(candidate);
      isRight =
        backup.length === BACKUP_CODE_LENGTH &&
        (await repo.useBackupCode(db, userId, sha256(`backup:${backup}`), toMillis(clock.now())));
    }
    if (!isRight) throw new AppError('TOTP_WRONG');
    await totpChecks.clear(key);
  }

  /** The time step a 6-digit code is good for under `secret`, or undefined. */
  async verifyTotp(secret: string, code: string): Promise<number | undefined> {
    if (!/^\d{6}$/.test(code)) return undefined;
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(this.#deps.clock.now() / 1000),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
    });
    if (!result.valid || !('timeStep' in result)) return undefined;
    return result.timeStep;
  }
}
