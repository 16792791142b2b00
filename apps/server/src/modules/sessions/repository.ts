import type { Db } from '../../platform/db.ts';
import { SessionStore } from '../../platform/session-store.ts';

/**
 * Queries of the `sessions` table: plain functions of a db or transaction. Opening, touching and
 * ending sessions are the store's, shared with staff sessions; reading one with its user is ours.
 */
export const sessionStore = new SessionStore('customer');

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
