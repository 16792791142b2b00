import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of the login log and graphic codes (this module owns both tables). */

/** Longest account name and device description kept in the login log (the back office shows them). */
export const LOGIN_LOG_TEXT_MAX = 255;

export async function insertLoginLog(
  db: Db,
  entry: {
    userId: bigint | null;
    account: string;
    success: boolean;
    reason: string;
    ip: string;
    device: string;
    now: Millis;
  },
): Promise<void> {
  await db
    .insertInto('login_logs')
    .values({
      user_id: entry.userId,
      account: entry.account.slice(0, LOGIN_LOG_TEXT_MAX),
      success: entry.success ? 1n : 0n,
      reason: entry.reason,
      ip: entry.ip.slice(0, 64),
      device: entry.device.slice(0, LOGIN_LOG_TEXT_MAX),
      created_at: entry.now,
    })
    .execute();
}

/** A user's login log, newest first: `limit` rows after `offset`, below the id `beforeId` when given. */
export function listLoginLogs(
  db: Db,
  userId: bigint,
  window: { limit: number; offset?: number; beforeId?: bigint },
) {
  let query = db.selectFrom('login_logs').selectAll().where('user_id', '=', userId);
  if (window.beforeId !== undefined) query = query.where('id', '<', window.beforeId);
  return query
    .orderBy('id', 'desc')
    .limit(window.limit)
    .offset(window.offset ?? 0)
    .execute();
}

/** Whether the user has signed in successfully from `device` before (any address). */
export async function hasSucceededFrom(
  db: Db,
  userId: bigint,
  device: string,
): Promise<{ any: boolean; device: boolean }> {
  const rows = await db
    .selectFrom('login_logs')
    .select(['device'])
    .where('user_id', '=', userId)
    .where('success', '=', 1n)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return { any: rows.length > 0, device: rows.some((r) => r.device === device) };
}

export async function insertCaptcha(
  db: Db,
  key: string,
  answerHash: string,
  expiresAt: Millis,
): Promise<void> {
  await db
    .insertInto('captchas')
    .values({ captcha_key: key, answer_hash: answerHash, expires_at: expiresAt })
    .execute();
}

/** Removes a captcha and returns it: each key can be checked once. */
export async function takeCaptcha(db: Db, key: string) {
  return db
    .deleteFrom('captchas')
    .where('captcha_key', '=', key)
    .returning(['answer_hash', 'expires_at'])
    .executeTakeFirst();
}

export async function deleteExpiredCaptchas(db: Db, now: Millis): Promise<void> {
  await db.deleteFrom('captchas').where('expires_at', '<', now).execute();
}
