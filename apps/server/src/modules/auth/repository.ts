import type { Db } from '../../platform/db.ts';

/** Queries of accounts, sessions, login logs and captchas: plain functions of a db or transaction. */

export function findUserByUsername(db: Db, username: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', username.toLowerCase())
    .executeTakeFirst();
}

export function findUserByPhone(db: Db, phone: string) {
  return db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
}

export function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByInviteCode(db: Db, code: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('invite_code', '=', code.toUpperCase())
    .executeTakeFirst();
}

export async function isInviteCodeTaken(db: Db, code: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(
  db: Db,
  user: {
    username: string;
    phone: string | null;
    email: string | null;
    passwordHash: string;
    inviteCode: string;
    referrerId: number | null;
    regIp: string;
    now: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      username_key: user.username.toLowerCase(),
      phone: user.phone,
      email: user.email,
      password_hash: user.passwordHash,
      pay_password_hash: null,
      invite_code: user.inviteCode,
      referrer_id: user.referrerId,
      reg_ip: user.regIp,
      last_login_at: null,
      created_at: user.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function recordLogin(db: Db, userId: number, ip: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_login_at: now, last_login_ip: ip })
    .where('id', '=', userId)
    .execute();
}

export async function insertSession(
  db: Db,
  session: { userId: number; tokenHash: string; device: string; ip: string; now: number },
): Promise<number> {
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
  return Number(row.id);
}

/** The live session for a token hash, with its user's status; undefined when unknown or revoked. */
export function findLiveSession(db: Db, tokenHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as sessionId',
      'sessions.user_id as userId',
      'sessions.last_used_at as lastUsedAt',
      'users.status',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchSession(db: Db, sessionId: number, ip: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now, ip }).where('id', '=', sessionId).execute();
}

export async function revokeSession(db: Db, sessionId: number, now: number): Promise<void> {
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
  userId: number,
  keepSessionId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function insertLoginLog(
  db: Db,
  entry: {
    userId: number | null;
    account: string;
    success: boolean;
    reason: string;
    ip: string;
    device: string;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('login_logs')
    .values({
      user_id: entry.userId,
      account: entry.account.slice(0, 255),
      success: entry.success ? 1 : 0,
      reason: entry.reason,
      ip: entry.ip,
      device: entry.device,
      created_at: entry.now,
    })
    .execute();
}

export function listLoginLogs(db: Db, userId: number, limit = 20) {
  return db
    .selectFrom('login_logs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function insertCaptcha(
  db: Db,
  key: string,
  answerHash: string,
  expiresAt: number,
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

export async function deleteExpiredCaptchas(db: Db, now: number): Promise<void> {
  await db.deleteFrom('captchas').where('expires_at', '<', now).execute();
}
