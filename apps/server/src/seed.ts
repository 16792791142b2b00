import type { Clock } from './platform/clock.ts';
import { hashPassword } from './platform/crypto.ts';
import type { Db } from './platform/db.ts';

/** Demo accounts created on the first start when DEMO is on (README lists them). */
export const DEMO_USERS = [
  { username: 'demo', password: 'demo1234', inviteCode: 'DEMO2026' },
  { username: 'demo2', password: 'demo1234', inviteCode: 'DEMO2027' },
] as const;

/** Seeds demo data once; the `demo_seeded` setting records that it ran. Returns true when it seeded. */
export async function seedDemoData(db: Db, clock: Clock): Promise<boolean> {
  const done = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'demo_seeded')
    .executeTakeFirst();
  if (done) return false;
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));
  await db.transaction().execute(async (trx) => {
    let referrerId: number | null = null;
    for (const [i, user] of DEMO_USERS.entries()) {
      const exists = await trx
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', user.username)
        .executeTakeFirst();
      if (exists) continue;
      const row = await trx
        .insertInto('users')
        .values({
          username: user.username,
          username_key: user.username,
          phone: null,
          email: null,
          password_hash: hashes[i]!,
          pay_password_hash: null,
          invite_code: user.inviteCode,
          referrer_id: referrerId,
          reg_ip: '127.0.0.1',
          last_login_at: null,
          created_at: clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      referrerId ??= Number(row.id);
    }
    await trx
      .insertInto('settings')
      .values({ key: 'demo_seeded', value: String(clock.now()) })
      .execute();
  });
  return true;
}
