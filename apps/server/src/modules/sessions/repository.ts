import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of the `sessions` table: plain functions of a db or transaction. */

export async function insertSession(
  db: Db,
  session: { userId: bigint; tokenHash: string; device: string; ip: string; now: Millis },
): Promise<bigint> {
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      device: session.device,
      ip: session.ip,
      created_at: session.now,
      last_used_at: session.now,
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The unrevoked session for a token hash, with its user's status; undefined when unknown or ended. */
export function findLiveSession(db: Db, tokenHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as sessionId',
      'sessions.user_id as userId',
      'sessions.created_at as createdAt',
      'sessions.last_used_at as lastUsedAt',
      'users.status',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchSession(db: Db, sessionId: bigint, ip: string, now: Millis): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now, ip }).where('id', '=', sessionId).execute();
}

export async function revokeSession(db: Db, sessionId: bigint, now: Millis): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every live session of a user except `keepSessionId`. */
export async function revokeOtherSessions(
  db: Db,
  userId: bigint,
  keepSessionId: bigint,
  now: Millis,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every live session of a user. */
export async function revokeUserSessions(db: Db, userId: bigint, now: Millis): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A user's live (unrevoked) sessions, most recently used first. */
export function listLiveSessions(db: Db, userId: bigint) {
  return db
    .selectFrom('sessions')
    .select(['id', 'device', 'ip', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('last_used_at', 'desc')
    .limit(100)
    .execute();
}

/** Ends one of the user's sessions; false when it is not theirs or already ended. */
export async function revokeUserSession(
  db: Db,
  userId: bigint,
  sessionId: bigint,
  now: Millis,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
