import type { Db } from '../../platform/db.ts';
import type { ContentKind, Millis } from '../../platform/schema.ts';

/** Queries of `content_items` and `content_texts`. */

export function listPublished(db: Db, kind: ContentKind, now: Millis, limit: number, offset: number) {
  return db
    .selectFrom('content_items')
    .selectAll()
    .where('kind', '=', kind)
    .where('status', '=', 'published')
    .where('publish_at', '<=', now)
    .orderBy('pinned', 'desc')
    .orderBy('publish_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export function findPublished(
  db: Db,
  where: { id?: bigint; kind?: ContentKind; slug?: string },
  now: Millis,
) {
  let query = db
    .selectFrom('content_items')
    .selectAll()
    .where('status', '=', 'published')
    .where('publish_at', '<=', now);
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  if (where.kind !== undefined) query = query.where('kind', '=', where.kind);
  if (where.slug !== undefined) query = query.where('slug', '=', where.slug);
  return query.orderBy('publish_at', 'desc').executeTakeFirst();
}

export function newestPinned(db: Db, now: Millis) {
  return db
    .selectFrom('content_items')
    .selectAll()
    .where('kind', '=', 'announcement')
    .where('status', '=', 'published')
    .where('pinned', '=', 1n)
    .where('publish_at', '<=', now)
    .orderBy('publish_at', 'desc')
    .executeTakeFirst();
}

export function textsOf(db: Db, itemIds: readonly bigint[]) {
  if (itemIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('content_texts').selectAll().where('item_id', 'in', itemIds).execute();
}

export function listAll(db: Db, kind: ContentKind | undefined) {
  let query = db
    .selectFrom('content_items as c')
    .leftJoin('staff as s', 's.id', 'c.created_by')
    .selectAll('c')
    .select(['s.username as author'])
    .orderBy('c.id', 'desc')
    .limit(500);
  if (kind) query = query.where('c.kind', '=', kind);
  return query.execute();
}

export function findItem(db: Db, id: bigint) {
  return db.selectFrom('content_items').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertItem(
  db: Db,
  row: {
    kind: ContentKind;
    slug: string;
    pinned: boolean;
    status: 'draft' | 'published';
    publishAt: Millis;
    /** null: written by the platform (the demo content). */
    staffId: bigint | null;
    now: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('content_items')
    .values({
      kind: row.kind,
      slug: row.slug,
      pinned: row.pinned ? 1n : 0n,
      status: row.status,
      publish_at: row.publishAt,
      created_by: row.staffId,
      created_at: row.now,
      updated_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateItem(
  db: Db,
  id: bigint,
  row: { slug: string; pinned: boolean; status: 'draft' | 'published'; publishAt: Millis; now: Millis },
): Promise<void> {
  await db
    .updateTable('content_items')
    .set({
      slug: row.slug,
      pinned: row.pinned ? 1n : 0n,
      status: row.status,
      publish_at: row.publishAt,
      updated_at: row.now,
    })
    .where('id', '=', id)
    .execute();
}

export async function replaceTexts(
  db: Db,
  id: bigint,
  texts: readonly { locale: string; title: string; body: string }[],
): Promise<void> {
  await db.deleteFrom('content_texts').where('item_id', '=', id).execute();
  if (texts.length === 0) return;
  await db
    .insertInto('content_texts')
    .values(texts.map((t) => ({ item_id: id, locale: t.locale, title: t.title, body_html: t.body })))
    .execute();
}

export async function deleteItem(db: Db, id: bigint): Promise<void> {
  await db.deleteFrom('content_texts').where('item_id', '=', id).execute();
  await db.deleteFrom('content_items').where('id', '=', id).execute();
}

// ---- terms of service ----

export async function setTermsVersion(db: Db, id: bigint, version: bigint): Promise<void> {
  await db.updateTable('content_items').set({ terms_version: version }).where('id', '=', id).execute();
}

/** The highest version any terms page ever had (0 when none): the next one is above it. */
export async function maxTermsVersion(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('content_items')
    .select((eb) => eb.fn.max('terms_version').as('version'))
    .executeTakeFirst();
  return BigInt(row?.version ?? 0);
}

/** A user's newest acceptance, or undefined. */
export function newestAcceptance(db: Db, userId: bigint) {
  return db
    .selectFrom('terms_acceptances')
    .select(['version', 'accepted_at'])
    .where('user_id', '=', userId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Records an acceptance; accepting a version twice keeps the first time. */
export async function insertAcceptance(
  db: Db,
  row: { userId: bigint; version: bigint; ip: string; now: Millis },
): Promise<void> {
  await db
    .insertInto('terms_acceptances')
    .values({ user_id: row.userId, version: row.version, accepted_at: row.now, ip: row.ip })
    .onConflict((oc) => oc.columns(['user_id', 'version']).doNothing())
    .execute();
}

export async function hasAccepted(db: Db, userId: bigint, version: bigint): Promise<boolean> {
  const row = await db
    .selectFrom('terms_acceptances')
    .select('version')
    .where('user_id', '=', userId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row !== undefined;
}
