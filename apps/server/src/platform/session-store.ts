import type { Db } from './db.ts';
import type { Millis } from './schema.ts';

/** How long a session lives: ended after `idleTimeoutMs` unused, and `maxAgeMs` after it opened at most. */
export interface SessionPolicy {
  idleTimeoutMs: number;
  maxAgeMs: number;
}

/** A session's last use is written at most this often, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** Whether a session has ended by time: unused for the idle timeout, or opened too long ago. */
export function isSessionExpired(
  policy: SessionPolicy,
  session: { createdAt: number; lastUsedAt: number },
  now: number,
): boolean {
  return now - session.lastUsedAt >= policy.idleTimeoutMs || now - session.createdAt >= policy.maxAgeMs;
}

/**
 * Where each kind of session is kept: its table and the column naming whose it is. Customers and
 * staff keep theirs apart (a staff token never opens a customer route, nor the reverse).
 */
const SESSION_TABLES = {
  customer: { table: 'sessions', owner: 'user_id' },
  staff: { table: 'staff_sessions', owner: 'staff_id' },
} as const;

export type SessionKind = keyof typeof SESSION_TABLES;

/**
 * The queries a session table answers alike for customers and staff: open, touch and end. Each
 * module keeps the query that reads a live session with its owner's account, since the owners'
 * tables differ.
 */
export class SessionStore {
  readonly #table: (typeof SESSION_TABLES)[SessionKind]['table'];
  readonly #owner: (typeof SESSION_TABLES)[SessionKind]['owner'];

  constructor(kind: SessionKind) {
    this.#table = SESSION_TABLES[kind].table;
    this.#owner = SESSION_TABLES[kind].owner;
  }

  /** Stores a new session (staff sessions also name their login `stage`); returns its id. */
  async insert(
    db: Db,
    session: {
      ownerId: bigint;
      tokenHash: string;
      device: string;
      ip: string;
      now: Millis;
      stage?: 'enrol' | 'totp' | 'active';
    },
  ): Promise<bigint> {
    const values = {
      [this.#owner]: session.ownerId,
      token_hash: session.tokenHash,
      device: session.device,
      ip: session.ip,
      created_at: session.now,
      last_used_at: session.now,
      revoked_at: null,
      ...(session.stage === undefined ? {} : { stage: session.stage }),
    };
    // why: the values are those of this kind's table (its owner column, and a stage for staff),
    // which the query builder cannot tell from a computed column name.
    const row = await db
      .insertInto(this.#table)
      .values(values as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async touch(db: Db, sessionId: bigint, ip: string, now: Millis): Promise<void> {
    await db.updateTable(this.#table).set({ last_used_at: now, ip }).where('id', '=', sessionId).execute();
  }

  /** Ends one session; true when it was still live (so it ends exactly once). */
  async revoke(db: Db, sessionId: bigint, now: Millis): Promise<boolean> {
    const result = await db
      .updateTable(this.#table)
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends one of an owner's sessions; false when it is not theirs or already ended. */
  async revokeOneOf(db: Db, ownerId: bigint, sessionId: bigint, now: Millis): Promise<boolean> {
    const result = await db
      .updateTable(this.#table)
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where(this.#owner, '=', ownerId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends every live session of an owner, but `keepSessionId` when given. */
  async revokeAllOf(db: Db, ownerId: bigint, now: Millis, keepSessionId?: bigint): Promise<void> {
    let query = db
      .updateTable(this.#table)
      .set({ revoked_at: now })
      .where(this.#owner, '=', ownerId)
      .where('revoked_at', 'is', null);
    if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
    await query.execute();
  }

  /** An owner's live (unrevoked) sessions, most recently used first. */
  listLiveOf(db: Db, ownerId: bigint) {
    return db
      .selectFrom(this.#table)
      .select(['id', 'device', 'ip', 'created_at', 'last_used_at'])
      .where(this.#owner, '=', ownerId)
      .where('revoked_at', 'is', null)
      .orderBy('last_used_at', 'desc')
      .limit(100)
      .execute();
  }
}
