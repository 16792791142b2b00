import net from 'node:net';
import { type SqlBool, sql } from 'kysely';
import { type Db, executeSql, repeated } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of the `users` table (this module owns it): plain functions of a db or transaction. */

export function findUserById(db: Db, id: bigint) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Status and trading ban of several users, in one read. */
export async function findTradingStatuses(db: Db, ids: readonly bigint[]) {
  if (ids.length === 0) return [];
  // why: hand-written SQL (`executeSql`): every spot batch with a place reads them.
  const result = await executeSql<{ id: bigint; status: 'active' | 'frozen'; trade_banned: bigint }>(
    db,
    `select id, status, trade_banned from users where id in (${repeated('?', ids.length)})`,
    ids,
  );
  return result.rows;
}

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

export async function findUsernameById(db: Db, id: bigint | null): Promise<string> {
  if (id === null) return '';
  const row = await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst();
  return row?.username ?? '';
}

export async function insertUser(
  db: Db,
  user: {
    username: string;
    phone: string | null;
    email: string | null;
    passwordHash: string;
    inviteCode: string;
    referrerId: bigint | null;
    regIp: string;
    now: Millis;
  },
): Promise<bigint> {
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
  return row.id;
}

export async function updateLastLogin(db: Db, userId: bigint, ip: string, now: Millis): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_login_at: now, last_login_ip: ip })
    .where('id', '=', userId)
    .execute();
}

export async function updatePassword(
  db: Db,
  userId: bigint,
  passwordHash: string,
  withdrawBlockedUntil: Millis,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, withdraw_blocked_until: withdrawBlockedUntil })
    .where('id', '=', userId)
    .execute();
}

export async function updatePayPassword(db: Db, userId: bigint, payPasswordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ pay_password_hash: payPasswordHash })
    .where('id', '=', userId)
    .execute();
}

/** Accounts whose id, username (prefix, any case) or phone (prefix) matches; newest first. */
export function searchUsers(db: Db, query: { text: string; id?: bigint; limit: number }) {
  // why: the search text is matched literally; LIKE's own wildcards in it are escaped.
  const prefix = `${query.text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  return db
    .selectFrom('users')
    .select(['id', 'username', 'phone', 'email', 'status', 'trade_banned', 'created_at', 'last_login_at'])
    .where((eb) => {
      const byText = [
        sql<SqlBool>`username_key like ${prefix} escape '\\'`,
        sql<SqlBool>`phone like ${prefix} escape '\\'`,
      ];
      return query.id === undefined ? eb.or(byText) : eb.or([eb('id', '=', query.id), ...byText]);
    })
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

export async function countUsers(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
    .executeTakeFirstOrThrow();
  return BigInt(row.n);
}

export async function updateStatus(db: Db, userId: bigint, status: 'active' | 'frozen'): Promise<void> {
  await db.updateTable('users').set({ status }).where('id', '=', userId).execute();
}

export async function updateTradeBanned(db: Db, userId: bigint, banned: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ trade_banned: banned ? 1n : 0n })
    .where('id', '=', userId)
    .execute();
}

/** The user's ancestors (depth 1–3), nearest first. */
export function listAncestors(db: Db, userId: bigint) {
  return db
    .selectFrom('referral_edges')
    .select(['ancestor_id', 'depth'])
    .where('descendant_id', '=', userId)
    .orderBy('depth')
    .execute();
}

/** Users joined to `userId` by a referral edge of any depth, either way. */
export async function listReferralRelatives(db: Db, userId: bigint): Promise<bigint[]> {
  const up = await db
    .selectFrom('referral_edges')
    .select('ancestor_id as id')
    .where('descendant_id', '=', userId)
    .execute();
  const down = await db
    .selectFrom('referral_edges')
    .select('descendant_id as id')
    .where('ancestor_id', '=', userId)
    .execute();
  return [...up, ...down].map((row) => row.id);
}

/**
 * Users other than `userId` registered from the same address within `windowMs` of it. Loopback,
 * private and unknown addresses say nothing about where a customer is (a server reached without a
 * proxy in front, or behind one that is not trusted, sees only its own network's addresses), so
 * they never match: otherwise every customer of such a deployment would be linked to every other.
 */
export async function listSameRegistrationAddress(
  db: Db,
  userId: bigint,
  windowMs: bigint,
): Promise<bigint[]> {
  const user = await db
    .selectFrom('users')
    .select(['reg_ip', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || isUninformativeAddress(user.reg_ip)) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('reg_ip', '=', user.reg_ip)
    .where('created_at', '>=', user.created_at - windowMs)
    .where('created_at', '<=', user.created_at + windowMs)
    .where('id', '!=', userId)
    .execute();
  return rows.map((row) => row.id);
}

/** Loopback, private (RFC 1918), link-local and unique-local addresses, for IPv4 and IPv6. */
const LOCAL_NETWORKS = new net.BlockList();
for (const [address, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
] as const)
  LOCAL_NETWORKS.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL_NETWORKS.addSubnet(address, prefix, 'ipv6');

function isUninformativeAddress(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = net.isIP(address);
  if (family === 0) return true;
  return LOCAL_NETWORKS.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export async function insertReferralEdges(
  db: Db,
  rows: readonly { ancestor_id: bigint; descendant_id: bigint; depth: bigint; created_at: Millis }[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('referral_edges').values(rows).execute();
}

/** How many members the user's team has per generation (depth 1–3). */
export function countTeam(db: Db, userId: bigint) {
  return db
    .selectFrom('referral_edges')
    .select(['depth', sql<bigint>`count(*)`.as('members')])
    .where('ancestor_id', '=', userId)
    .groupBy('depth')
    .execute();
}

/** One generation of the user's team, newest first: usernames and join dates only. */
export function listTeam(db: Db, userId: bigint, depth: bigint, limit: number, offset: number) {
  return db
    .selectFrom('referral_edges')
    .innerJoin('users', 'users.id', 'referral_edges.descendant_id')
    .select(['users.username', 'users.realname_status', 'referral_edges.created_at'])
    .where('referral_edges.ancestor_id', '=', userId)
    .where('referral_edges.depth', '=', depth)
    .orderBy('referral_edges.created_at', 'desc')
    .orderBy('referral_edges.descendant_id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The account whose bound e-mail, or e-mail-shaped username, is `email` (any case). */
export function findUserByEmail(db: Db, email: string) {
  const key = email.toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb(eb.fn('lower', ['email']), '=', key), eb('username_key', '=', key)]))
    .orderBy('id')
    .executeTakeFirst();
}

export async function updateEmail(db: Db, userId: bigint, email: string): Promise<void> {
  await db.updateTable('users').set({ email }).where('id', '=', userId).execute();
}

/** Binds a mobile to an account that has none; false when one is bound already (a concurrent bind lost). */
export async function bindPhone(db: Db, userId: bigint, phone: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ phone })
    .where('id', '=', userId)
    .where('phone', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateLocale(db: Db, userId: bigint, locale: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ locale })
    .where('id', '=', userId)
    .where('locale', '!=', locale)
    .execute();
}

export async function updateRealnameStatus(db: Db, userId: bigint, status: bigint): Promise<void> {
  await db.updateTable('users').set({ realname_status: status }).where('id', '=', userId).execute();
}
