import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of `support_conversations` and `support_messages`. */

export function findConversationOfUser(db: Db, userId: bigint) {
  return db.selectFrom('support_conversations').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function findConversation(db: Db, id: bigint) {
  return db
    .selectFrom('support_conversations as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('c')
    .select(['u.username', 'u.realname_status'])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/** The user's conversation, made on first use (a concurrent first message finds the other's). */
export async function ensureConversation(db: Db, userId: bigint, now: Millis): Promise<bigint> {
  await db
    .insertInto('support_conversations')
    .values({ user_id: userId, last_message_at: now, created_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await findConversationOfUser(db, userId);
  if (!row) throw new Error('conversation not created');
  return row.id;
}

export async function insertMessage(
  db: Db,
  row: {
    conversationId: bigint;
    sender: 'user' | 'staff';
    staffId: bigint | null;
    body: string;
    image: string | null;
    now: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('support_messages')
    .values({
      conversation_id: row.conversationId,
      sender: row.sender,
      staff_id: row.staffId,
      body: row.body,
      image: row.image,
      created_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // why: the other side's unread count grows in the same statement as the time, so no bump is lost.
  await db
    .updateTable('support_conversations')
    .set(
      row.sender === 'user'
        ? { staff_unread: sql`staff_unread + 1`, last_message_at: row.now }
        : { user_unread: sql`user_unread + 1`, last_message_at: row.now },
    )
    .where('id', '=', row.conversationId)
    .execute();
  return inserted.id;
}

export function listMessages(db: Db, conversationId: bigint, before: bigint | undefined, limit: number) {
  let query = db
    .selectFrom('support_messages as m')
    .leftJoin('staff as s', 's.id', 'm.staff_id')
    .select(['m.id', 'm.sender', 'm.body', 'm.image', 'm.created_at', 's.username as staff_name'])
    .where('m.conversation_id', '=', conversationId)
    .orderBy('m.id', 'desc')
    .limit(limit);
  if (before !== undefined) query = query.where('m.id', '<', before);
  return query.execute();
}

export function findMessage(db: Db, id: bigint) {
  return db
    .selectFrom('support_messages as m')
    .leftJoin('staff as s', 's.id', 'm.staff_id')
    .select([
      'm.id',
      'm.conversation_id',
      'm.sender',
      'm.body',
      'm.image',
      'm.created_at',
      's.username as staff_name',
    ])
    .where('m.id', '=', id)
    .executeTakeFirstOrThrow();
}

/** The message that carries an image, with its conversation's user. */
export function findImage(db: Db, name: string) {
  return db
    .selectFrom('support_messages as m')
    .innerJoin('support_conversations as c', 'c.id', 'm.conversation_id')
    .select(['m.conversation_id', 'c.user_id'])
    .where('m.image', '=', name)
    .executeTakeFirst();
}

export async function markRead(db: Db, conversationId: bigint, side: 'user' | 'staff'): Promise<void> {
  await db
    .updateTable('support_conversations')
    .set(side === 'user' ? { user_unread: 0n } : { staff_unread: 0n })
    .where('id', '=', conversationId)
    .execute();
}

export function listConversations(db: Db, limit: number) {
  return db
    .selectFrom('support_conversations as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.user_id', 'c.staff_unread', 'c.last_message_at', 'u.username'])
    .orderBy(sql`case when c.staff_unread > 0 then 0 else 1 end`)
    .orderBy('c.last_message_at', 'desc')
    .limit(limit)
    .execute();
}

/** The newest message of each listed conversation (the console's preview line). */
export async function lastMessages(db: Db, conversationIds: readonly bigint[]) {
  if (conversationIds.length === 0)
    return new Map<bigint, { body: string; image: string | null; sender: string }>();
  const rows = await db
    .selectFrom('support_messages as m')
    .select(['m.conversation_id', 'm.body', 'm.image', 'm.sender'])
    .where('m.id', 'in', (eb) =>
      eb
        .selectFrom('support_messages')
        .select((e) => e.fn.max('id').as('id'))
        .where('conversation_id', 'in', conversationIds)
        .groupBy('conversation_id'),
    )
    .execute();
  return new Map(rows.map((r) => [r.conversation_id, { body: r.body, image: r.image, sender: r.sender }]));
}
