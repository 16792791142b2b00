import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { AdjustmentRequestsTable, Millis, StaffRole } from '../../platform/schema.ts';
import { SessionStore } from '../../platform/session-store.ts';

/**
 * Queries of the `staff` and `staff_sessions` tables (this module owns both). Opening, touching and
 * ending staff sessions are the session store's, shared with customers' sessions.
 */
export const staffSessionStore = new SessionStore('staff');

export function findStaffById(db: Db, id: bigint) {
  return db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findStaffByUsername(db: Db, username: string) {
  return db
    .selectFrom('staff')
    .selectAll()
    .where('username_key', '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function countStaff(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('staff')
    .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
    .executeTakeFirstOrThrow();
  return BigInt(row.n);
}

export function listStaff(db: Db) {
  return db
    .selectFrom('staff')
    .select(['id', 'username', 'role', 'status', 'totp_enabled', 'must_change_password', 'created_at'])
    .orderBy('id', 'asc')
    .execute();
}

export async function insertStaff(
  db: Db,
  staff: {
    username: string;
    passwordHash: string;
    role: StaffRole;
    mustChangePassword: boolean;
    now: Millis;
  },
): Promise<bigint> {
  const row = await db
    .insertInto('staff')
    .values({
      username: staff.username,
      username_key: staff.username.toLowerCase(),
      password_hash: staff.passwordHash,
      role: staff.role,
      totp_secret: null,
      must_change_password: staff.mustChangePassword ? 1n : 0n,
      created_at: staff.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTotpSecret(db: Db, staffId: bigint, secret: string): Promise<void> {
  await db.updateTable('staff').set({ totp_secret: secret }).where('id', '=', staffId).execute();
}

/** Every stored TOTP secret (sealed, or plain when written before secrets were sealed). */
export async function listTotpSecrets(db: Db): Promise<{ id: bigint; secret: string }[]> {
  const rows = await db
    .selectFrom('staff')
    .select(['id', 'totp_secret'])
    .where('totp_secret', 'is not', null)
    .execute();
  return rows.map((row) => ({ id: row.id, secret: row.totp_secret as string }));
}

/** Replaces a secret only while it is still `current`, so two starting nodes seal it once. */
export async function replaceTotpSecret(
  db: Db,
  staffId: bigint,
  current: string,
  next: string,
): Promise<boolean> {
  const result = await db
    .updateTable('staff')
    .set({ totp_secret: next })
    .where('id', '=', staffId)
    .where('totp_secret', '=', current)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Accepts a TOTP time step: moves `totp_last_step` forward only when `step` is newer, so the same
 * code can never be used twice, even by two concurrent requests. True when it moved.
 */
export async function acceptTotpStep(db: Db, staffId: bigint, step: bigint): Promise<boolean> {
  const result = await db
    .updateTable('staff')
    .set({ totp_last_step: step, totp_enabled: 1n })
    .where('id', '=', staffId)
    .where('totp_last_step', '<', step)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateStaffPassword(db: Db, staffId: bigint, passwordHash: string): Promise<void> {
  await db
    .updateTable('staff')
    .set({ password_hash: passwordHash, must_change_password: 0n })
    .where('id', '=', staffId)
    .execute();
}

export async function updateStaffStatus(
  db: Db,
  staffId: bigint,
  status: 'active' | 'disabled',
): Promise<void> {
  await db.updateTable('staff').set({ status }).where('id', '=', staffId).execute();
}

/** The unrevoked staff session (or login step) of a token hash, with its account. */
export function findLiveStaffSession(db: Db, tokenHash: string) {
  return db
    .selectFrom('staff_sessions')
    .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
    .select([
      'staff_sessions.id as sessionId',
      'staff_sessions.stage',
      'staff_sessions.created_at as createdAt',
      'staff_sessions.last_used_at as lastUsedAt',
      'staff.id as staffId',
      'staff.username',
      'staff.role',
      'staff.status',
    ])
    .where('staff_sessions.token_hash', '=', tokenHash)
    .where('staff_sessions.revoked_at', 'is', null)
    .executeTakeFirst();
}

// --- adjustment requests (four eyes) ------------------------------------------------------------

export type AdjustmentRequestRow = Selectable<AdjustmentRequestsTable>;

/** Records a request; the key is unique, so the same submission twice is a unique violation. */
export async function insertAdjustmentRequest(
  db: Db,
  values: Omit<Insertable<AdjustmentRequestsTable>, 'id' | 'status'>,
): Promise<bigint> {
  const row = await db
    .insertInto('adjustment_requests')
    .values({ ...values, status: 'pending' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findAdjustmentRequest(db: Db, id: bigint): Promise<AdjustmentRequestRow | undefined> {
  return db.selectFrom('adjustment_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Requests of one status (all when absent), newest first. */
export function listAdjustmentRequests(
  db: Db,
  filter: { status?: AdjustmentRequestRow['status']; limit: number },
): Promise<AdjustmentRequestRow[]> {
  let query = db.selectFrom('adjustment_requests').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Decides a pending request, once: false when it was no longer pending (someone decided first). */
export async function decideAdjustmentRequest(
  db: Db,
  id: bigint,
  decision: {
    status: 'approved' | 'rejected';
    decided_by: string;
    decided_at: Millis;
    decision_reason: string | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('adjustment_requests')
    .set(decision)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setAdjustmentEntry(db: Db, id: bigint, entryId: bigint): Promise<void> {
  await db.updateTable('adjustment_requests').set({ entry_id: entryId }).where('id', '=', id).execute();
}
