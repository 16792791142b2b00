import type { Db } from '../../platform/db.ts';
import type { IdentityDocType, IdentityStatus, Millis } from '../../platform/schema.ts';

/** Queries of `identity_uploads` and `identity_verifications`. */

export async function insertUpload(
  db: Db,
  row: { name: string; userId: bigint; now: Millis },
): Promise<void> {
  await db
    .insertInto('identity_uploads')
    .values({ name: row.name, user_id: row.userId, created_at: row.now })
    .execute();
}

/** Marks the user's unused upload used; false when it is not theirs, unknown or used already. */
export async function useUpload(db: Db, userId: bigint, name: string): Promise<boolean> {
  const result = await db
    .updateTable('identity_uploads')
    .set({ used: 1n })
    .where('name', '=', name)
    .where('user_id', '=', userId)
    .where('used', '=', 0n)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertVerification(
  db: Db,
  row: {
    userId: bigint;
    type: IdentityDocType;
    realName: string;
    country: string;
    mobile: string;
    docHash: string;
    numberHash: string;
    front: string;
    back: string;
    now: Millis;
    /** `approved` only for the demo seed's own accounts. */
    status?: 'pending' | 'approved';
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('identity_verifications')
    .values({
      user_id: row.userId,
      doc_type: row.type,
      real_name: row.realName,
      country: row.country,
      mobile: row.mobile,
      doc_hash: row.docHash,
      number_hash: row.numberHash,
      front_image: row.front,
      back_image: row.back,
      status: row.status ?? 'pending',
      reviewed_by: null,
      reviewed_at: row.status === 'approved' ? row.now : null,
      created_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export function findLatestOfUser(db: Db, userId: bigint) {
  return db
    .selectFrom('identity_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function findVerification(db: Db, id: bigint) {
  return db
    .selectFrom('identity_verifications as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .leftJoin('staff as s', 's.id', 'v.reviewed_by')
    .selectAll('v')
    .select(['u.username', 's.username as reviewer'])
    .where('v.id', '=', id)
    .executeTakeFirst();
}

export function listByStatus(db: Db, status: IdentityStatus, limit: number, offset: number) {
  return db
    .selectFrom('identity_verifications as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .leftJoin('staff as s', 's.id', 'v.reviewed_by')
    .selectAll('v')
    .select(['u.username', 's.username as reviewer'])
    .where('v.status', '=', status)
    .orderBy('v.id', status === 'pending' ? 'asc' : 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Decides a pending submission; false when it is no longer pending (decided by someone else). */
export async function decide(
  db: Db,
  id: bigint,
  decision: {
    status: 'approved' | 'rejected';
    reason: string;
    staffId: bigint;
    now: Millis;
    /** On approval: the identity of the number the reviewer confirmed on the image. */
    identity?: { docHash: string; numberHash: string };
  },
): Promise<boolean> {
  const result = await db
    .updateTable('identity_verifications')
    .set({
      status: decision.status,
      reason: decision.reason,
      reviewed_by: decision.staffId,
      reviewed_at: decision.now,
      ...(decision.identity === undefined
        ? {}
        : { doc_hash: decision.identity.docHash, number_hash: decision.identity.numberHash }),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the user has a submission under review or approved (a new one is then refused). */
export async function hasOpenOrApproved(db: Db, userId: bigint): Promise<boolean> {
  const row = await db
    .selectFrom('identity_verifications')
    .select(['id'])
    .where('user_id', '=', userId)
    .where('status', 'in', ['pending', 'approved'])
    .executeTakeFirst();
  return row !== undefined;
}

export function findApprovedOfUser(db: Db, userId: bigint) {
  return db
    .selectFrom('identity_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * Users other than `userId` with a submission under review or approved whose document hash equals
 * one of `userId`'s (under review or approved).
 */
export async function listSameDocumentUsers(db: Db, userId: bigint): Promise<bigint[]> {
  const rows = await db
    .selectFrom('identity_verifications as mine')
    .innerJoin('identity_verifications as other', 'other.doc_hash', 'mine.doc_hash')
    .select('other.user_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('mine.status', 'in', ['pending', 'approved'])
    .where('other.status', 'in', ['pending', 'approved'])
    .where('other.user_id', '!=', userId)
    .execute();
  return rows.map((row) => row.user_id);
}

/**
 * The countries declared by submissions under review or approved that still carry only a hash of
 * `<country>:<number>` (recorded before numbers were hashed alone): under each, a number's old hash
 * is tried.
 */
export async function listLegacyHashCountries(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('identity_verifications')
    .select('country')
    .distinct()
    .where('number_hash', 'is', null)
    .where('doc_hash', 'is not', null)
    .where('status', 'in', ['pending', 'approved'])
    .execute();
  return rows.map((row) => row.country);
}

/**
 * Submissions under review or approved of one document number, oldest first: those recorded with
 * its hash (`numberHash`), and those recorded before with one of its old hashes (`legacyHashes`).
 */
export function listSameNumber(db: Db, numberHash: string, legacyHashes: readonly string[]) {
  return db
    .selectFrom('identity_verifications')
    .select(['id', 'user_id', 'status', 'doc_hash', 'number_hash'])
    .where('status', 'in', ['pending', 'approved'])
    .where((eb) =>
      legacyHashes.length === 0
        ? eb('number_hash', '=', numberHash)
        : eb.or([
            eb('number_hash', '=', numberHash),
            eb.and([eb('number_hash', 'is', null), eb('doc_hash', 'in', legacyHashes)]),
          ]),
    )
    .orderBy('id', 'asc')
    .execute();
}

/** Records which identity a submission's document is, and its number's hash. */
export async function setIdentity(
  db: Db,
  id: bigint,
  identity: { docHash: string; numberHash: string },
): Promise<void> {
  await db
    .updateTable('identity_verifications')
    .set({ doc_hash: identity.docHash, number_hash: identity.numberHash })
    .where('id', '=', id)
    .execute();
}
