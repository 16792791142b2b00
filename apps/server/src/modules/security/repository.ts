import type { Db } from '../../platform/db.ts';
import type { EmailCodePurpose, Millis } from '../../platform/schema.ts';

/** Queries of `user_security`, `user_backup_codes` and `email_codes`. */

export function findSecurity(db: Db, userId: bigint) {
  return db.selectFrom('user_security').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

async function ensureRow(db: Db, userId: bigint, now: Millis): Promise<void> {
  await db
    .insertInto('user_security')
    .values({ user_id: userId, totp_secret: null, totp_pending: null, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function setPendingTotp(db: Db, userId: bigint, sealed: string, now: Millis): Promise<void> {
  await ensureRow(db, userId, now);
  await db
    .updateTable('user_security')
    .set({ totp_pending: sealed, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Turns codes on with the pending secret; false when they are on already (a concurrent enable won). */
export async function enableTotp(
  db: Db,
  userId: bigint,
  sealed: string,
  step: bigint,
  now: Millis,
): Promise<boolean> {
  const result = await db
    .updateTable('user_security')
    .set({ totp_secret: sealed, totp_pending: null, totp_enabled: 1n, totp_last_step: step, updated_at: now })
    .where('user_id', '=', userId)
    .where('totp_enabled', '=', 0n)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function disableTotp(db: Db, userId: bigint, now: Millis): Promise<void> {
  await db
    .updateTable('user_security')
    .set({ totp_secret: null, totp_pending: null, totp_enabled: 0n, totp_last_step: 0n, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
  await db.deleteFrom('user_backup_codes').where('user_id', '=', userId).execute();
}

/** Accepts a code's time step once: false when it (or a later one) was used already. */
export async function advanceTotpStep(db: Db, userId: bigint, step: bigint): Promise<boolean> {
  const result = await db
    .updateTable('user_security')
    .set({ totp_last_step: step })
    .where('user_id', '=', userId)
    .where('totp_last_step', '<', step)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertBackupCodes(db: Db, userId: bigint, hashes: readonly string[]): Promise<void> {
  await db.deleteFrom('user_backup_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('user_backup_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** Uses a backup code once: false when unknown or used (by a concurrent request too). */
export async function useBackupCode(db: Db, userId: bigint, hash: string, now: Millis): Promise<boolean> {
  const result = await db
    .updateTable('user_backup_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countBackupCodesLeft(db: Db, userId: bigint): Promise<number> {
  const row = await db
    .selectFrom('user_backup_codes')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setAntiPhishing(db: Db, userId: bigint, code: string, now: Millis): Promise<void> {
  await ensureRow(db, userId, now);
  await db
    .updateTable('user_security')
    .set({ anti_phishing: code, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

export async function insertEmailCode(
  db: Db,
  row: {
    purpose: EmailCodePurpose;
    email: string;
    userId: bigint;
    codeHash: string;
    expiresAt: Millis;
    now: Millis;
  },
): Promise<void> {
  // why: a new code replaces the earlier ones for the same address and purpose.
  await db
    .updateTable('email_codes')
    .set({ used_at: row.now })
    .where('purpose', '=', row.purpose)
    .where('email', '=', row.email)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('email_codes')
    .values({
      purpose: row.purpose,
      email: row.email,
      user_id: row.userId,
      code_hash: row.codeHash,
      expires_at: row.expiresAt,
      used_at: null,
      created_at: row.now,
    })
    .execute();
}

export function findLiveEmailCode(db: Db, purpose: EmailCodePurpose, email: string, now: Millis) {
  return db
    .selectFrom('email_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Counts a wrong try; a code out of tries is spent. */
export async function countEmailCodeAttempt(
  db: Db,
  id: bigint,
  maxAttempts: number,
  now: Millis,
): Promise<void> {
  await db
    .updateTable('email_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1n) }))
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('email_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('attempts', '>=', BigInt(maxAttempts))
    .execute();
}

/** Spends a code once: false when a concurrent request spent it first. */
export async function spendEmailCode(db: Db, id: bigint, now: Millis): Promise<boolean> {
  const result = await db
    .updateTable('email_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
