import { AppError } from '@bourse/shared';
import type { AuthContext, Authenticator, ClientInfo } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import {
  deleteOldestCreatedBefore,
  type PruneResult,
  pruneInSlices,
  type SliceOptions,
} from '../../platform/prune.ts';
import {
  isSessionExpired,
  SESSION_TOUCH_INTERVAL_MS,
  type SessionPolicy,
} from '../../platform/session-store.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import * as repo from './repository.ts';

export type { SessionPolicy };

const store = repo.sessionStore;
/**
 * How long a looked-up session is reused without reading the store again. Every ending through
 * this service forgets them at once; an ending on another node takes effect here within this time.
 */
export const SESSION_CACHE_MS = 1_000;
const SESSION_CACHE_MAX = 50_000;

type LiveSession = NonNullable<Awaited<ReturnType<typeof repo.findLiveSession>>>;

/** Sessions (the `sessions` table's owner): opened at login, checked on every request, ended. */
export class SessionsService implements Authenticator {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #policy: SessionPolicy;
  /**
   * Recently looked-up sessions by token, with when they were read (clock ms). Keyed by the token
   * itself, so a request within the second skips hashing it (1 % of order entry's main thread);
   * the store still holds only hashes.
   */
  readonly #recent = new Map<string, { session: LiveSession; readAt: number }>();

  constructor(deps: { db: Db; clock: Clock; policy: SessionPolicy }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#policy = deps.policy;
  }

  /** Opens a session inside the caller's transaction; returns the token (only its hash is stored). */
  async open(trx: Db, userId: bigint, client: ClientInfo): Promise<{ token: string; sessionId: bigint }> {
    const token = newToken();
    const sessionId = await store.insert(trx, {
      ownerId: userId,
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
    const now = this.#clock.now();
    const session = await this.#lookUp(token, now);
    if (!session || session.status === 'frozen') throw new AppError('SESSION_INVALID');
    const lastUsedAt = fromMillis(session.lastUsedAt);
    if (isSessionExpired(this.#policy, { createdAt: fromMillis(session.createdAt), lastUsedAt }, now)) {
      this.forgetRecent();
      await store.revoke(this.#db, session.sessionId, toMillis(now));
      throw new AppError('SESSION_INVALID');
    }
    if (now - lastUsedAt >= SESSION_TOUCH_INTERVAL_MS) {
      session.lastUsedAt = toMillis(now);
      await store.touch(this.#db, session.sessionId, client.ip, toMillis(now));
    }
    return { userId: session.userId, sessionId: session.sessionId };
  }

  /**
   * Drops every session looked up recently, so the next request of each reads the store again.
   * Whatever ends or changes sessions calls it (this service's endings do).
   */
  forgetRecent(): void {
    this.#recent.clear();
  }

  async #lookUp(token: string, now: number): Promise<LiveSession | undefined> {
    const recent = this.#recent.get(token);
    if (recent && now - recent.readAt < SESSION_CACHE_MS && now >= recent.readAt) return recent.session;
    const session = await repo.findLiveSession(this.#db, sha256(token));
    if (!session) {
      this.#recent.delete(token);
      return undefined;
    }
    if (this.#recent.size >= SESSION_CACHE_MAX) this.#recent.clear();
    this.#recent.set(token, { session, readAt: now });
    return session;
  }

  /** Ends one session (logout). */
  async end(auth: AuthContext): Promise<void> {
    this.forgetRecent();
    await store.revoke(this.#db, auth.sessionId, toMillis(this.#clock.now()));
  }

  /**
   * The user's live sessions (expired ones left out), most recently used first; `current` marks
   * the caller's.
   */
  async listLive(auth: AuthContext) {
    const now = this.#clock.now();
    const rows = await store.listLiveOf(this.#db, auth.userId);
    return rows
      .filter(
        (row) =>
          !isSessionExpired(
            this.#policy,
            { createdAt: fromMillis(row.created_at), lastUsedAt: fromMillis(row.last_used_at) },
            now,
          ),
      )
      .map((row) => ({
        id: row.id,
        device: row.device,
        ip: row.ip,
        createdAt: fromMillis(row.created_at),
        lastUsedAt: fromMillis(row.last_used_at),
        current: row.id === auth.sessionId,
      }));
  }

  /** Ends one of the user's own sessions; another's or an ended one answers RECORD_NOT_FOUND. */
  async endOne(auth: AuthContext, sessionId: bigint): Promise<void> {
    this.forgetRecent();
    if (!(await store.revokeOneOf(this.#db, auth.userId, sessionId, toMillis(this.#clock.now())))) {
      throw new AppError('RECORD_NOT_FOUND');
    }
  }

  /** Ends every session of a user (a frozen account), inside the caller's transaction. */
  async endAllOfUser(trx: Db, userId: bigint): Promise<void> {
    this.forgetRecent();
    await store.revokeAllOf(trx, userId, toMillis(this.#clock.now()));
  }

  /**
   * Retention: deletes, in bounded slices, sessions that have been over for `retentionMs`. Every
   * session has ended by its maximum age (revoked, idle or aged out), so one opened more than the
   * maximum age and the retention ago is dead whatever else happened to it.
   */
  prune(retentionMs: number, slices: SliceOptions): Promise<PruneResult> {
    const before = toMillis(this.#clock.now() - this.#policy.maxAgeMs - retentionMs);
    return pruneInSlices((limit) => deleteOldestCreatedBefore(this.#db, 'sessions', before, limit), slices);
  }

  /** Ends every other session of the user, inside the caller's transaction. */
  async endOthers(trx: Db, auth: AuthContext): Promise<void> {
    this.forgetRecent();
    await store.revokeAllOf(trx, auth.userId, toMillis(this.#clock.now()), auth.sessionId);
  }
}
