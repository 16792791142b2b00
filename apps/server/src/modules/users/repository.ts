import type { Db } from '../../platform/db.ts';

export async function hasWithdrawAddress(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('withdraw_addresses')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findUsernameById(db: Db, id: number | null): Promise<string> {
  if (id === null) return '';
  const row = await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst();
  return row?.username ?? '';
}

export async function updatePassword(
  db: Db,
  userId: number,
  passwordHash: string,
  withdrawBlockedUntil: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, withdraw_blocked_until: withdrawBlockedUntil })
    .where('id', '=', userId)
    .execute();
}

export async function updatePayPassword(db: Db, userId: number, payPasswordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ pay_password_hash: payPasswordHash })
    .where('id', '=', userId)
    .execute();
}

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}
