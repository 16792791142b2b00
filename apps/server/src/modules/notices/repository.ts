import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { HistoryWindow } from '../../platform/history-page.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of `notifications` and `notification_reads`: plain functions of a db or transaction. */

export async function insertNotice(
  db: Db,
  row: {
    userId: bigint | null;
    key: string;
    params: string;
    texts: string | null;
    createdBy: bigint | null;
    now: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('notifications')
    .values({
      user_id: row.userId,
      msg_key: row.key,
      params: row.params,
      texts: row.texts,
      read_at: null,
      created_by: row.createdBy,
      created_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * What a user may read: their own notices and the broadcasts sent since their account was made,
 * newest first, with whether each is read.
 */
function visible(db: Db, userId: bigint, since: Millis) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('notification_reads as r', (join) =>
      join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', userId),
    )
    .where((eb) =>
      eb.or([
        eb('n.user_id', '=', userId),
        eb.and([eb('n.user_id', 'is', null), eb('n.created_at', '>=', since)]),
      ]),
    );
}

/**
 * A page of what a user may read, newest first (see `visible`): `limit` notices after `offset`,
 * below the id `beforeId` when given.
 */
export function listVisible(db: Db, userId: bigint, since: Millis, window: HistoryWindow) {
  // why: an OR of the two kinds read every notice of the user and every broadcast since, and sorted
  // them all. Each kind is instead one seek on (user_id, id), newest first (from `beforeId` down
  // when given), stopped after the rows the page can reach; only those are merged and sorted.
  const reach = window.offset + window.limit;
  const kind = (personal: boolean) => {
    let query = db
      .selectFrom('notifications')
      .select(['id', 'user_id', 'msg_key', 'params', 'texts', 'read_at', 'created_at']);
    query = personal
      ? query.where('user_id', '=', userId)
      : query.where('user_id', 'is', null).where('created_at', '>=', since);
    if (window.beforeId !== undefined) query = query.where('id', '<', window.beforeId);
    return db
      .selectFrom(
        query
          .orderBy('id', 'desc')
          .limit(reach)
          .as(personal ? 'own' : 'broadcasts'),
      )
      .selectAll();
  };
  const page = kind(true)
    .unionAll(kind(false))
    .orderBy('id', 'desc')
    .limit(window.limit)
    .offset(window.offset);
  return db
    .selectFrom(page.as('n'))
    .leftJoin('notification_reads as r', (join) =>
      join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', userId),
    )
    .select([
      'n.id',
      'n.user_id',
      'n.msg_key',
      'n.params',
      'n.texts',
      'n.created_at',
      sql<bigint>`case when n.read_at is not null or r.read_at is not null then 1 else 0 end`.as('is_read'),
    ])
    .orderBy('n.id', 'desc')
    .execute();
}

export function findVisible(db: Db, userId: bigint, since: Millis, id: bigint) {
  return visible(db, userId, since)
    .select([
      'n.id',
      'n.user_id',
      'n.msg_key',
      'n.params',
      'n.texts',
      'n.created_at',
      sql<bigint>`case when n.read_at is not null or r.read_at is not null then 1 else 0 end`.as('is_read'),
    ])
    .where('n.id', '=', id)
    .executeTakeFirst();
}

export async function countUnread(db: Db, userId: bigint, since: Millis): Promise<number> {
  const row = await visible(db, userId, since)
    .select(sql<bigint>`count(*)`.as('n'))
    .where('n.read_at', 'is', null)
    .where('r.read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markPersonalRead(
  db: Db,
  userId: bigint,
  id: bigint | undefined,
  now: Millis,
): Promise<void> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (id !== undefined) query = query.where('id', '=', id);
  await query.execute();
}

/** Records that the user read broadcasts (one, or every one visible to them); repeats change nothing. */
export async function markBroadcastsRead(
  db: Db,
  userId: bigint,
  since: Millis,
  id: bigint | undefined,
  now: Millis,
): Promise<void> {
  let unread = db
    .selectFrom('notifications as n')
    .select(['n.id'])
    .where('n.user_id', 'is', null)
    .where('n.created_at', '>=', since)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_reads as r')
            .select('r.user_id')
            .whereRef('r.notification_id', '=', 'n.id')
            .where('r.user_id', '=', userId),
        ),
      ),
    );
  if (id !== undefined) unread = unread.where('n.id', '=', id);
  const rows = await unread.execute();
  if (rows.length === 0) return;
  await db
    .insertInto('notification_reads')
    .values(rows.map((r) => ({ notification_id: r.id, user_id: userId, read_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'notification_id']).doNothing())
    .execute();
}

export function listBroadcasts(db: Db, limit: number) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('staff as s', 's.id', 'n.created_by')
    .select(['n.id', 'n.texts', 'n.created_at', 's.username'])
    .where('n.user_id', 'is', null)
    .orderBy('n.id', 'desc')
    .limit(limit)
    .execute();
}

export async function userCreatedAt(db: Db, userId: bigint): Promise<Millis | undefined> {
  const row = await db.selectFrom('users').select(['created_at']).where('id', '=', userId).executeTakeFirst();
  return row?.created_at;
}

export async function antiPhishingOf(db: Db, userId: bigint): Promise<string> {
  const row = await db
    .selectFrom('user_security')
    .select(['anti_phishing'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.anti_phishing ?? '';
}

/**
 * Deletes up to `limit` read marks of notifications made before `before`; answers how many. The
 * marks go first, since a notification cannot go while a mark names it.
 */
export async function deleteReadsOfNoticesBefore(db: Db, before: Millis, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('notification_reads')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('user_id', 'notification_id'),
        'in',
        selectFrom('notification_reads')
          .select(['user_id', 'notification_id'])
          .where('notification_id', 'in', (qb) =>
            qb.selectFrom('notifications').select('id').where('created_at', '<', before),
          )
          .limit(limit)
          .$asTuple('user_id', 'notification_id'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` of the oldest notifications made before `before` that no read mark names
 * (the `created_at` index); answers how many.
 */
export async function deleteNoticesBefore(db: Db, before: Millis, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('notifications')
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('notifications as n')
        .select('n.id')
        .where('n.created_at', '<', before)
        // why: a mark written since the marks were pruned holds its notification to the next run.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('notification_reads as r')
                .select('r.user_id')
                .whereRef('r.notification_id', '=', 'n.id'),
            ),
          ),
        )
        .orderBy('n.created_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
