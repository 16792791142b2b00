import { AppError } from '@bourse/shared';
import type { AuthContext, Authenticator, ClientInfo } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import * as repo from './repository.ts';

/** How long a session lives: ended after `idleTimeoutMs` unused, and `maxAgeMs` after login at most. */
export interface SessionPolicy {
  idleTimeoutMs: number;
  maxAgeMs: number;
}

// why: a session's last use is written at most once a minute, not on every request.
const TOUCH_INTERVAL_MS = 60_000;

/** Sessions (the `sessions` table's owner): opened at login, checked on every request, ended. */
export class SessionsService implements Authenticator {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #policy: SessionPolicy;

  constructor(deps: { db: Db; clock: Clock; policy: SessionPolicy }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#policy = deps.policy;
  }

  /** Opens a session inside the caller's transaction; returns the token (only its hash is stored). */
  async open(trx: Db, userId: bigint, client: ClientInfo): Promise<{ token: string; sessionId: bigint }> {
    const token = newToken();
    const sessionId = await repo.insertSession(trx, {
      userId,
      tokenHash: sha256(token),
      device: client.device,
      ip: client.ip,
      now: toMillis(this.#clock.now()),
    });
    return { token, sessionId };
  }

  /**
   * Resolves a token to its live session. Unknown, ended, idle-expired and over-age sessions, and
   * sessions of frozen users, answer SESSION_INVALID; an expired one is ended on the spot.
   */
  async authenticate(token: string | undefined, client: ClientInfo): Promise<AuthContext> {
    if (!token) throw new AppError('SESSION_INVALID');
    const session = await repo.findLiveSession(this.#db, sha256(token));
    if (!session || session.status === 'frozen') throw new AppError('SESSION_INVALID');
    const now = this.#clock.now();
    const lastUsedAt = fromMillis(session.lastUsedAt);
    const isIdle = now - lastUsedAt >= this.#policy.idleTimeoutMs;
    const isTooOld = now - fromMillis(session.createdAt) >= this.#policy.maxAgeMs;
    if (isIdle || isTooOld) {
      await repo.revokeSession(this.#db, session.sessionId, toMillis(now));
      throw new AppError('SESSION_INVALID');
    }
    if (now - lastUsedAt >= TOUCH_INTERVAL_MS) {
      await repo.touchSession(this.#db, session.sessionId, client.ip, toMillis(now));
    }
    return { userId: session.userId, sessionId: session.sessionId };
  }

  /** Ends one session (logout). */
  async end(auth: AuthContext): Promise<void> {
    await repo.revokeSession(this.#db, auth.sessionId, toMillis(this.#clock.now()));
  }

  /** Ends every session of a user (a frozen account), inside the caller's transaction. */
  async endAllOfUser(trx: Db, userId: bigint): Promise<void> {
    await repo.revokeUserSessions(trx, userId, toMillis(this.#clock.now()));
  }

  /** Ends every other session of the user, inside the caller's transaction. */
  async endOthers(trx: Db, auth: AuthContext): Promise<void> {
    await repo.revokeOtherSessions(trx, auth.userId, auth.sessionId, toMillis(this.#clock.now()));
  }
}
