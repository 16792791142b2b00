import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** Queries of the proof-of-reserves tables (this module alone writes them). */

export function findSnapshotAt(db: Db, takenAt: Millis) {
  return db.selectFrom('por_snapshots').selectAll().where('taken_at', '=', takenAt).executeTakeFirst();
}

export function findSnapshot(db: Db, id: bigint) {
  return db.selectFrom('por_snapshots').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listSnapshots(db: Db, limit: number) {
  return db.selectFrom('por_snapshots').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** The published snapshots, newest first (pending ones are left out). */
export function listPublished(db: Db, limit: number) {
  return db
    .selectFrom('por_snapshots')
    .selectAll()
    .where('status', '=', 'published')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function insertSnapshot(
  db: Db,
  row: {
    taken_at: Millis;
    ledger_seq: bigint;
    monthly: bigint;
    publish_at: Millis;
    created_at: Millis;
  },
): Promise<bigint> {
  const inserted = await db
    .insertInto('por_snapshots')
    .values({
      ...row,
      assets: '[]',
      depth: 0n,
      root: '',
      root_sums: '[]',
      trial_total: '{}',
      status: 'pending',
      header_json: null,
      sig: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function setTree(
  db: Db,
  id: bigint,
  tree: { assets: string; depth: bigint; root: string; root_sums: string; trial_total: string },
): Promise<void> {
  await db.updateTable('por_snapshots').set(tree).where('id', '=', id).execute();
}

export async function publish(db: Db, id: bigint, headerJson: string, sig: string): Promise<void> {
  await db
    .updateTable('por_snapshots')
    .set({ header_json: headerJson, sig, status: 'published' })
    .where('id', '=', id)
    .execute();
}

/** Pending snapshots whose tree is built, oldest first (`dueBy`: only those due by then). */
export function listPending(db: Db, dueBy?: Millis) {
  let query = db
    .selectFrom('por_snapshots')
    .selectAll()
    .where('status', '=', 'pending')
    .where('root', '!=', '');
  if (dueBy !== undefined) query = query.where('publish_at', '<=', dueBy);
  return query.orderBy('id').execute();
}

export async function latestPublished(db: Db) {
  const [latest] = await listPublished(db, 1);
  return latest;
}

/** The newest snapshot whose tree is built (pending or published). */
export function latestBuilt(db: Db) {
  return db
    .selectFrom('por_snapshots')
    .select(['id', 'taken_at', 'ledger_seq', 'root', 'status'])
    .where('root', '!=', '')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function listReserves(db: Db, snapshotId: bigint) {
  return db
    .selectFrom('por_reserves')
    .selectAll()
    .where('snapshot_id', '=', snapshotId)
    .orderBy('id')
    .execute();
}

export async function insertReserve(
  db: Db,
  row: {
    snapshot_id: bigint;
    asset: string;
    chain: string;
    address: string;
    balance: bigint;
    height: bigint;
    block_hash: string;
    message: string;
    sig: string;
    scheme: string;
    simulated: bigint;
    created_at: Millis;
  },
): Promise<bigint> {
  const inserted = await db.insertInto('por_reserves').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function insertNodes(
  db: Db,
  rows: readonly { snapshot_id: bigint; level: bigint; idx: bigint; hash: string; sums: string }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    await db
      .insertInto('por_nodes')
      .values(rows.slice(i, i + 2000))
      .execute();
  }
}

export async function insertLeaves(
  db: Db,
  rows: readonly { snapshot_id: bigint; user_id: bigint; leaf_index: bigint; balances: string }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    await db
      .insertInto('por_leaves')
      .values(rows.slice(i, i + 2000))
      .execute();
  }
}

export function findLeaf(db: Db, snapshotId: bigint, userId: bigint) {
  return db
    .selectFrom('por_leaves')
    .selectAll()
    .where('snapshot_id', '=', snapshotId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The nodes at the given (level, index) places of one snapshot. */
export function findNodes(db: Db, snapshotId: bigint, places: readonly { level: bigint; idx: bigint }[]) {
  return db
    .selectFrom('por_nodes')
    .select(['level', 'idx', 'hash', 'sums'])
    .where('snapshot_id', '=', snapshotId)
    .where((eb) => eb.or(places.map((p) => eb.and([eb('level', '=', p.level), eb('idx', '=', p.idx)]))))
    .execute();
}

/** Daily snapshots taken before `before` that still have proofs (tree nodes or leaves) stored; their ids. */
export async function listDailySnapshotsWithProofs(db: Db, before: Millis): Promise<bigint[]> {
  const rows = await db
    .selectFrom('por_snapshots as s')
    .select('s.id')
    .where('s.taken_at', '<', before)
    .where('s.monthly', '=', 0n)
    .where(({ or, exists, selectFrom }) =>
      or([
        exists(selectFrom('por_leaves as l').select('l.user_id').whereRef('l.snapshot_id', '=', 's.id')),
        exists(selectFrom('por_nodes as n').select('n.idx').whereRef('n.snapshot_id', '=', 's.id')),
      ]),
    )
    .orderBy('s.id')
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes up to `limit` of one snapshot's leaves (a seek on its primary key); answers how many. */
export async function deleteLeavesSlice(db: Db, snapshotId: bigint, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('por_leaves')
    .where('snapshot_id', '=', snapshotId)
    .where('user_id', 'in', (qb) =>
      qb
        .selectFrom('por_leaves')
        .select('user_id')
        .where('snapshot_id', '=', snapshotId)
        .orderBy('user_id')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` of one snapshot's tree nodes (a seek on its primary key); answers how many. */
export async function deleteNodesSlice(db: Db, snapshotId: bigint, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('por_nodes')
    .where('snapshot_id', '=', snapshotId)
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('level', 'idx'),
        'in',
        selectFrom('por_nodes')
          .select(['level', 'idx'])
          .where('snapshot_id', '=', snapshotId)
          .orderBy('level')
          .orderBy('idx')
          .limit(limit)
          .$asTuple('level', 'idx'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
