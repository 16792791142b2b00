import { type Insertable, sql } from 'kysely';
import type { Db, UserRange } from '../../platform/db.ts';
import type { HistoryWindow } from '../../platform/history-page.ts';
import type {
  AgentStatus,
  LpProjectStatus,
  LpProjectsTable,
  LpRecordStatus,
  LpRecordsTable,
  LpRewardStatus,
  LpRewardsTable,
  Millis,
} from '../../platform/schema.ts';

export type RecordRow = NonNullable<Awaited<ReturnType<typeof findRecord>>>;
export type RewardRow = NonNullable<Awaited<ReturnType<typeof findReward>>>;

type NewProject = Omit<Insertable<LpProjectsTable>, 'id' | 'disabled' | 'distributed_at'>;

export async function insertProject(db: Db, row: NewProject): Promise<bigint> {
  const inserted = await db.insertInto('lp_projects').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateProject(db: Db, id: bigint, patch: Partial<NewProject>): Promise<void> {
  await db.updateTable('lp_projects').set(patch).where('id', '=', id).execute();
}

export function findProject(db: Db, id: bigint) {
  return db.selectFrom('lp_projects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Takes the project's row lock for the rest of the transaction (a no-op write on both stores). */
export function lockProject(db: Db, id: bigint) {
  return db
    .updateTable('lp_projects')
    .set({ status: sql`status` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function listProjects(db: Db, statuses?: readonly LpProjectStatus[]) {
  let query = db.selectFrom('lp_projects').selectAll();
  if (statuses) query = query.where('status', 'in', statuses);
  return query.orderBy('start_at', 'desc').orderBy('id', 'desc').execute();
}

export async function setProjectStatus(
  db: Db,
  id: bigint,
  status: LpProjectStatus,
  fields: { distributed_at?: Millis; disabled?: bigint } = {},
): Promise<void> {
  await db
    .updateTable('lp_projects')
    .set({ status, ...fields })
    .where('id', '=', id)
    .execute();
}

/** Projects whose window has ended and that are not distributed or cancelled yet. */
export function listDueProjects(db: Db, now: Millis) {
  return db
    .selectFrom('lp_projects')
    .selectAll()
    .where('status', '=', 'scheduled')
    .where('end_at', '<=', now)
    .orderBy('end_at')
    .execute();
}

/** Σ per project of what its live records hold: token atoms requested, committed and allocated. */
export async function projectTotals(db: Db, projectIds: readonly bigint[]) {
  if (projectIds.length === 0) return new Map<bigint, Totals>();
  const rows = await db
    .selectFrom('lp_records')
    .select([
      'project_id',
      sql<string>`sum(requested)`.as('requested'),
      sql<string>`sum(committed)`.as('committed'),
      sql<string>`sum(quantity)`.as('quantity'),
      sql<string>`sum(paid)`.as('paid'),
      sql<bigint>`count(*)`.as('records'),
    ])
    .where('project_id', 'in', projectIds)
    .where('status', '!=', 'refunded')
    .groupBy('project_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.project_id,
      {
        requested: BigInt(r.requested ?? 0),
        committed: BigInt(r.committed ?? 0),
        quantity: BigInt(r.quantity ?? 0),
        paid: BigInt(r.paid ?? 0),
        records: BigInt(r.records),
      },
    ]),
  );
}

export interface Totals {
  requested: bigint;
  committed: bigint;
  quantity: bigint;
  paid: bigint;
  records: bigint;
}

/** What one user holds in a project (records not refunded): count, token atoms requested and allocated. */
export async function userTotals(db: Db, projectId: bigint, userId: bigint) {
  const row = await db
    .selectFrom('lp_records')
    .select([
      sql<bigint>`count(*)`.as('records'),
      sql<string>`coalesce(sum(requested), 0)`.as('requested'),
      sql<string>`coalesce(sum(quantity), 0)`.as('quantity'),
    ])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'refunded')
    .executeTakeFirstOrThrow();
  return { records: BigInt(row.records), requested: BigInt(row.requested), quantity: BigInt(row.quantity) };
}

export async function insertRecord(
  db: Db,
  row: Omit<Insertable<LpRecordsTable>, 'id' | 'released_at'>,
): Promise<bigint> {
  const inserted = await db.insertInto('lp_records').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export function findRecord(db: Db, id: bigint) {
  return db.selectFrom('lp_records').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRecordByKey(db: Db, userId: bigint, key: string) {
  return db
    .selectFrom('lp_records')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export function listProjectRecords(db: Db, projectId: bigint, statuses?: readonly LpRecordStatus[]) {
  let query = db.selectFrom('lp_records').selectAll().where('project_id', '=', projectId);
  if (statuses) query = query.where('status', 'in', statuses);
  return query.orderBy('id').execute();
}

/** A user's records, newest first: `limit` after `offset`, below the id `beforeId` when given. */
export function listUserRecords(db: Db, userId: bigint, window: HistoryWindow) {
  let query = db
    .selectFrom('lp_records')
    .innerJoin('lp_projects', 'lp_projects.id', 'lp_records.project_id')
    .selectAll('lp_records')
    .select([
      'lp_projects.name',
      'lp_projects.coin',
      'lp_projects.quote',
      'lp_projects.price',
      'lp_projects.lock_days',
    ])
    .where('lp_records.user_id', '=', userId);
  if (window.beforeId !== undefined) query = query.where('lp_records.id', '<', window.beforeId);
  return query.orderBy('lp_records.id', 'desc').limit(window.limit).offset(window.offset).execute();
}

export async function settleRecord(
  db: Db,
  id: bigint,
  fields: {
    quantity?: bigint;
    paid?: bigint;
    refunded?: bigint;
    status: LpRecordStatus;
    released_at?: Millis;
  },
): Promise<void> {
  await db.updateTable('lp_records').set(fields).where('id', '=', id).execute();
}

/** Locked records due for release, oldest first. */
export function listDueReleases(db: Db, now: Millis, limit: number) {
  return db
    .selectFrom('lp_records')
    .innerJoin('lp_projects', 'lp_projects.id', 'lp_records.project_id')
    .select(['lp_records.id', 'lp_records.user_id', 'lp_records.quantity', 'lp_projects.coin'])
    .where('lp_records.status', '=', 'locked')
    .where('lp_projects.status', '=', 'distributed')
    .where('lp_records.release_at', '<=', now)
    .orderBy('lp_records.release_at')
    .orderBy('lp_records.id')
    .limit(limit)
    .execute();
}

/** Open reservations: pro-rata commitments (quote, `frozen`) and allocations not yet released (`locked`). */
export async function sumByUser(db: Db, status: 'committed' | 'locked', users: UserRange) {
  const amount =
    status === 'committed' ? sql<string>`sum(lp_records.committed)` : sql<string>`sum(lp_records.quantity)`;
  const asset = status === 'committed' ? 'lp_projects.quote' : 'lp_projects.coin';
  const rows = await db
    .selectFrom('lp_records')
    .innerJoin('lp_projects', 'lp_projects.id', 'lp_records.project_id')
    .select(['lp_records.user_id', sql<string>`${sql.ref(asset)}`.as('asset'), amount.as('total')])
    .where('lp_records.status', '=', status)
    .where('lp_records.user_id', '>', users.after)
    .where('lp_records.user_id', '<=', users.through)
    .groupBy(['lp_records.user_id', sql.ref(asset)])
    .execute();
  return rows.map((r) => ({ userId: r.user_id, asset: r.asset, amount: BigInt(r.total ?? 0) }));
}

// --- rewards ---------------------------------------------------------------------------------------

export async function insertReward(db: Db, row: Omit<Insertable<LpRewardsTable>, 'id'>): Promise<bigint> {
  const inserted = await db.insertInto('lp_rewards').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export function findReward(db: Db, id: bigint) {
  return db.selectFrom('lp_rewards').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setRewardStatus(
  db: Db,
  id: bigint,
  fields: { status: LpRewardStatus; reason?: string; settled_at: Millis },
): Promise<void> {
  await db.updateTable('lp_rewards').set(fields).where('id', '=', id).execute();
}

/** Atoms a beneficiary has been paid or is owed (pending), in a month and in a project. */
export async function rewardSums(db: Db, beneficiaryId: bigint, month: string, projectId: bigint) {
  const row = await db
    .selectFrom('lp_rewards')
    .select([
      sql<string>`coalesce(sum(case when month = ${month} then amount else 0 end), 0)`.as('month_total'),
      sql<string>`coalesce(sum(case when project_id = ${projectId} then amount else 0 end), 0)`.as(
        'project_total',
      ),
    ])
    .where('beneficiary_id', '=', beneficiaryId)
    .where('status', 'in', ['paid', 'pending'])
    .executeTakeFirstOrThrow();
  return { month: BigInt(row.month_total), project: BigInt(row.project_total) };
}

export function listPendingRewards(db: Db, limit: number) {
  return db
    .selectFrom('lp_rewards')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Rewards, newest first: `limit` after `offset`, below the id `beforeId` when given. */
export function listRewards(
  db: Db,
  filter: { beneficiaryId?: bigint; projectId?: bigint; status?: LpRewardStatus },
  window: HistoryWindow,
) {
  let query = db
    .selectFrom('lp_rewards')
    .innerJoin('lp_projects', 'lp_projects.id', 'lp_rewards.project_id')
    .innerJoin('users', 'users.id', 'lp_rewards.buyer_id')
    .selectAll('lp_rewards')
    .select(['lp_projects.name as project_name', 'users.username as buyer_name']);
  if (filter.beneficiaryId !== undefined)
    query = query.where('lp_rewards.beneficiary_id', '=', filter.beneficiaryId);
  if (filter.projectId !== undefined) query = query.where('lp_rewards.project_id', '=', filter.projectId);
  if (filter.status) query = query.where('lp_rewards.status', '=', filter.status);
  if (window.beforeId !== undefined) query = query.where('lp_rewards.id', '<', window.beforeId);
  return query.orderBy('lp_rewards.id', 'desc').limit(window.limit).offset(window.offset).execute();
}

/** Reward atoms per day (UTC, by creation) for one beneficiary since `from`, paid ones only. */
export async function dailyRewards(db: Db, beneficiaryId: bigint, from: Millis) {
  const rows = await db
    .selectFrom('lp_rewards')
    .select(['created_at', 'amount'])
    .where('beneficiary_id', '=', beneficiaryId)
    .where('status', '=', 'paid')
    .where('created_at', '>=', from)
    .execute();
  return rows;
}

// --- abuse signals -----------------------------------------------------------------------------------

/** The signals two accounts share (products rule 7): withdrawal address, bank card, KYC mobile, registration network within 24 h. */
export async function sharedSignals(db: Db, a: bigint, b: bigint): Promise<string[]> {
  const found: string[] = [];
  const address = await db
    .selectFrom('withdraw_addresses as x')
    .innerJoin('withdraw_addresses as y', (join) =>
      join.onRef('x.address', '=', 'y.address').onRef('x.network', '=', 'y.network'),
    )
    .select('x.id')
    .where('x.user_id', '=', a)
    .where('y.user_id', '=', b)
    .executeTakeFirst();
  if (address) found.push('withdraw_address');
  const card = await db
    .selectFrom('bank_cards as x')
    .innerJoin('bank_cards as y', 'x.number', 'y.number')
    .select('x.id')
    .where('x.user_id', '=', a)
    .where('y.user_id', '=', b)
    .executeTakeFirst();
  if (card) found.push('bank_card');
  const document = await db
    .selectFrom('identity_verifications as x')
    .innerJoin('identity_verifications as y', (join) =>
      join.onRef('x.real_name', '=', 'y.real_name').onRef('x.mobile', '=', 'y.mobile'),
    )
    .select('x.id')
    .where('x.user_id', '=', a)
    .where('y.user_id', '=', b)
    .executeTakeFirst();
  if (document) found.push('kyc_document');
  const users = await db
    .selectFrom('users')
    .select(['id', 'reg_ip', 'created_at'])
    .where('id', 'in', [a, b])
    .execute();
  const [ua, ub] = [users.find((u) => u.id === a), users.find((u) => u.id === b)];
  if (ua && ub && sameNetwork(ua.reg_ip, ub.reg_ip)) {
    const apart =
      ua.created_at > ub.created_at ? ua.created_at - ub.created_at : ub.created_at - ua.created_at;
    if (apart <= 24n * 3600_000n) found.push('registration_network');
  }
  return found;
}

/**
 * IPv4 addresses in one /24, or equal IPv6 /64 prefixes. Loopback says nothing about where a
 * customer is (a server reached without a proxy in front sees only that), so it never matches.
 */
function sameNetwork(x: string, y: string): boolean {
  if (!x || !y) return false;
  if (isLoopback(x) || isLoopback(y)) return false;
  if (x.includes('.') && y.includes('.'))
    return x.split('.').slice(0, 3).join('.') === y.split('.').slice(0, 3).join('.');
  if (x.includes(':') && y.includes(':'))
    return x.split(':').slice(0, 4).join(':') === y.split(':').slice(0, 4).join(':');
  return false;
}

function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1' || ip.startsWith('::ffff:127.');
}

// --- agents -----------------------------------------------------------------------------------------

export function findAgent(db: Db, userId: bigint) {
  return db.selectFrom('agents').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function upsertAgent(
  db: Db,
  row: { user_id: bigint; status: AgentStatus; applied_at: Millis; note?: string },
): Promise<void> {
  await db
    .insertInto('agents')
    .values({ ...row, rates_override: null, decided_at: null, decided_by: null })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ status: row.status, applied_at: row.applied_at, decided_at: null, decided_by: null }),
    )
    .execute();
}

export async function decideAgent(
  db: Db,
  userId: bigint,
  fields: {
    status: AgentStatus;
    decided_at: Millis;
    decided_by: string;
    note: string;
    rates_override?: string | null;
  },
): Promise<void> {
  await db.updateTable('agents').set(fields).where('user_id', '=', userId).execute();
}

export function listAgents(db: Db, status: AgentStatus | undefined, limit: number, offset: number) {
  let query = db
    .selectFrom('agents')
    .innerJoin('users', 'users.id', 'agents.user_id')
    .selectAll('agents')
    .select('users.username');
  if (status) query = query.where('agents.status', '=', status);
  return query.orderBy('agents.applied_at', 'desc').limit(limit).offset(offset).execute();
}

/** Members of an ancestor's team with what they paid into launchpad projects (distributed records). */
export function listTeamMembers(
  db: Db,
  ancestorId: bigint,
  depth: bigint | undefined,
  limit: number,
  offset: number,
) {
  let query = db
    .selectFrom('referral_edges')
    .innerJoin('users', 'users.id', 'referral_edges.descendant_id')
    .select([
      'users.id',
      'users.username',
      'users.realname_status',
      'referral_edges.created_at',
      'referral_edges.depth',
      sql<string>`(select coalesce(sum(r.paid), 0) from lp_records r where r.user_id = users.id and r.status in ('locked', 'released'))`.as(
        'total_paid',
      ),
    ])
    .where('referral_edges.ancestor_id', '=', ancestorId);
  if (depth !== undefined) query = query.where('referral_edges.depth', '=', depth);
  return query
    .orderBy('referral_edges.created_at', 'desc')
    .orderBy('referral_edges.descendant_id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The country of the user's approved identity verification, if any. */
export async function kycCountry(db: Db, userId: bigint): Promise<string | undefined> {
  const row = await db
    .selectFrom('identity_verifications')
    .select('country')
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.country;
}
