import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import {
  type BuiltTree,
  buildTree,
  canonicalJson,
  fromHex,
  GENESIS_PREV,
  hashAt,
  headerDigest,
  type InclusionProof,
  proofFrom,
  rootOf,
  type SnapshotHeader,
  type SyncHasher,
  salt,
  signedBytes,
  sumsAt,
} from '@bourse/por';
import { AppError } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { toMillis } from '../../platform/time.ts';
import type { AccountKind, LedgerService } from '../ledger/service.ts';
import type { PublicationKey } from './keys.ts';
import * as repo from './repository.ts';

/** The user balances a snapshot counts, per asset (the design's section 2). */
export const COUNTED_KINDS: readonly AccountKind[] = ['available', 'frozen', 'locked', 'margin'];
/** Trial money: never withdrawable, so not a liability; published on its own line. */
export const TRIAL_KINDS: readonly AccountKind[] = ['trial', 'trial_frozen'];
/** Daily snapshots keep their proofs this long; the monthly ones (the 1st, 00:00 UTC) forever. */
export const PROOF_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

// why: a raw key is converted on every HMAC; a key object made once makes salts several times cheaper.
const secretKeys = new WeakMap<Uint8Array, KeyObject>();
function secretKey(key: Uint8Array): KeyObject {
  let found = secretKeys.get(key);
  if (!found) {
    found = createSecretKey(key);
    secretKeys.set(key, found);
  }
  return found;
}

const nodeHasher: SyncHasher = {
  sha256: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
  hmac: (key, data) => new Uint8Array(createHmac('sha256', secretKey(key)).update(data).digest()),
};

export interface ReservesDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  /** The 32-byte secret of salts and padding (kept outside the database; given only to the auditor). */
  porKey: Buffer;
  key: PublicationKey;
  /** Fewest leaves a tree has: 1,024 (tests may lower it). */
  minLeaves?: number;
}

/**
 * Proof of reserves and liabilities (owner of `por_*`): builds each snapshot's Merkle sum tree over
 * the users' balances at one ledger sequence, signs its header into the chain, and slices a user's
 * own inclusion proof from the stored levels. Reserve entries are attached by staff (see the
 * design's section 8).
 */
export class ReservesService {
  readonly #deps: ReservesDeps;

  constructor(deps: ReservesDeps) {
    this.#deps = deps;
  }

  get publicKey(): string {
    return this.#deps.key.publicKeyHex;
  }

  get fingerprint(): string {
    return this.#deps.key.fingerprint;
  }

  /**
   * Takes the snapshot at `takenAt` (unix ms) unless it exists: reads every user balance at one
   * ledger sequence in one transaction, refuses when the ledger's invariants do not hold, a user
   * balance is negative or the tree's sums differ from the ledger's user totals, builds the tree
   * outside the transaction, then stores it with its signed header. Answers the snapshot's id.
   */
  async takeSnapshot(takenAt: number): Promise<bigint> {
    const { db, ledger, clock } = this.#deps;
    const existing = await repo.findSnapshotAt(db, toMillis(takenAt));
    if (existing?.header_json) return existing.id;
    const check = await ledger.checkInvariants();
    if (!check.ok)
      throw new Error(`the ledger's invariants do not hold: ${check.problems.slice(0, 3).join('; ')}`);

    const read = await db.transaction().execute(async (trx) => {
      // why: a run that stopped between reading and storing left a row without its header.
      if (existing) await trx.deleteFrom('por_snapshots').where('id', '=', existing.id).execute();
      const { ledgerSeq, rows } = await ledger.userBalancesAt(trx);
      const day = new Date(takenAt);
      const id = await repo.insertSnapshot(trx, {
        taken_at: toMillis(takenAt),
        ledger_seq: ledgerSeq,
        assets: '[]',
        depth: 0n,
        root: '',
        root_sums: '[]',
        monthly: day.getUTCDate() === 1 && takenAt % DAY_MS === 0 ? 1n : 0n,
        created_at: toMillis(clock.now()),
      });
      return { id, ledgerSeq, rows };
    });

    const counted = new Map<bigint, Map<string, bigint>>();
    const trialTotal = new Map<string, bigint>();
    const totals = new Map<string, bigint>();
    for (const row of read.rows) {
      if (row.balance < 0n)
        throw new Error(`user ${row.userId} has a negative ${row.asset} ${row.kind} balance`);
      if (TRIAL_KINDS.includes(row.kind)) {
        trialTotal.set(row.asset, (trialTotal.get(row.asset) ?? 0n) + row.balance);
        continue;
      }
      if (!COUNTED_KINDS.includes(row.kind)) continue;
      const user = counted.get(row.userId) ?? new Map<string, bigint>();
      user.set(row.asset, (user.get(row.asset) ?? 0n) + row.balance);
      counted.set(row.userId, user);
      totals.set(row.asset, (totals.get(row.asset) ?? 0n) + row.balance);
    }
    const assets = [...totals.keys()].sort();
    const users = [...counted.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([userId, balances]) => ({ userId, balances: assets.map((asset) => balances.get(asset) ?? 0n) }));
    const tree = buildTree({
      hasher: nodeHasher,
      porKey: this.#deps.porKey,
      snapshotId: read.id,
      assets,
      users,
      userCount: users.length,
      minLeaves: this.#deps.minLeaves,
    });
    const { root, sums } = rootOf(tree);
    if (sums.some((sum, i) => sum !== totals.get(assets[i] as string))) {
      throw new Error('the tree does not add up to the ledger’s user totals');
    }
    await this.#store(read.id, takenAt, read.ledgerSeq, tree, users, root, sums, trialTotal);
    return read.id;
  }

  async #store(
    id: bigint,
    takenAt: number,
    ledgerSeq: bigint,
    tree: BuiltTree,
    users: { userId: bigint; balances: bigint[] }[],
    root: string,
    sums: bigint[],
    trialTotal: Map<string, bigint>,
  ): Promise<void> {
    const { db, key } = this.#deps;
    const nodes: { snapshot_id: bigint; level: bigint; idx: bigint; hash: string; sums: string }[] = [];
    for (const [l, level] of tree.levels.entries()) {
      for (let i = 0; i < level.count; i++) {
        nodes.push({
          snapshot_id: id,
          level: BigInt(l),
          idx: BigInt(i),
          hash: toHexBytes(hashAt(level, i)),
          sums: JSON.stringify(sumsAt(tree, level, i).map(String)),
        });
      }
    }
    const leaves = users.map((user) => ({
      snapshot_id: id,
      user_id: user.userId,
      leaf_index: BigInt(tree.leafIndex.get(user.userId) as number),
      balances: JSON.stringify(user.balances.map(String)),
    }));
    await db.transaction().execute(async (trx) => {
      const previous = await this.#latestHeader(trx);
      const header: SnapshotHeader = {
        version: 1,
        snapshot_id: Number(id),
        taken_at: new Date(takenAt).toISOString().replace('.000Z', 'Z'),
        ledger_seq: Number(ledgerSeq),
        assets: [...tree.assets],
        leaf_count: tree.leafCount,
        depth: tree.depth,
        root,
        root_sums: sums.map(String),
        trial_total: Object.fromEntries(
          [...trialTotal].sort(([a], [b]) => (a < b ? -1 : 1)).map(([a, v]) => [a, String(v)]),
        ),
        // why: reserve entries sign this snapshot's root, so they come after it (section 8); until
        // staff attach verified ones, no reserve, total or ratio is claimed.
        reserves: [],
        reserve_totals: {},
        ratios: {},
        prev: previous ? await headerDigest(previous) : GENESIS_PREV,
        sig: '',
      };
      header.sig = key.sign(signedBytes(header));
      await repo.insertNodes(trx, nodes);
      await repo.insertLeaves(trx, leaves);
      await trx
        .updateTable('por_snapshots')
        .set({
          assets: JSON.stringify(tree.assets),
          depth: BigInt(tree.depth),
          root,
          root_sums: JSON.stringify(sums.map(String)),
        })
        .where('id', '=', id)
        .execute();
      await repo.setHeader(trx, id, canonicalJson(header), header.sig);
    });
  }

  async #latestHeader(db: Db): Promise<SnapshotHeader | undefined> {
    const rows = await db
      .selectFrom('por_snapshots')
      .select('header_json')
      .where('header_json', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const json = rows[0]?.header_json;
    return json ? (JSON.parse(json) as SnapshotHeader) : undefined;
  }

  /** The published headers, newest first. */
  async headers(limit = 100): Promise<SnapshotHeader[]> {
    const rows = await repo.listSnapshots(this.#deps.db, limit);
    return rows.flatMap((row) => (row.header_json ? [JSON.parse(row.header_json) as SnapshotHeader] : []));
  }

  /**
   * The caller's own inclusion proof in a snapshot (the latest when none is named): POR_NO_SNAPSHOT
   * when there is none (or its proofs are past retention), POR_NOT_INCLUDED when the caller held
   * nothing counted at its ledger sequence.
   */
  async proof(userId: bigint, snapshotId?: bigint): Promise<InclusionProof> {
    const { db, porKey } = this.#deps;
    const snapshot =
      snapshotId === undefined ? await repo.latestSnapshot(db) : await repo.findSnapshot(db, snapshotId);
    if (!snapshot?.header_json) throw new AppError('POR_NO_SNAPSHOT');
    const leaf = await repo.findLeaf(db, snapshot.id, userId);
    if (!leaf) {
      const anyLeaf = await db
        .selectFrom('por_nodes')
        .select('idx')
        .where('snapshot_id', '=', snapshot.id)
        .limit(1)
        .executeTakeFirst();
      throw new AppError(anyLeaf ? 'POR_NOT_INCLUDED' : 'POR_NO_SNAPSHOT');
    }
    const depth = Number(snapshot.depth);
    const leafIndex = Number(leaf.leaf_index);
    const places = Array.from({ length: depth }, (_, l) => ({
      level: BigInt(l),
      idx: BigInt(Math.floor(leafIndex / 2 ** l) ^ 1),
    }));
    const found = new Map(
      (await repo.findNodes(db, snapshot.id, places)).map((n) => [`${n.level}:${n.idx}`, n]),
    );
    return proofFrom({
      snapshotId: snapshot.id,
      userId,
      salt: salt(nodeHasher, porKey, snapshot.id, userId),
      balances: (JSON.parse(leaf.balances) as string[]).map(BigInt),
      leafIndex,
      depth,
      sibling: (level, index) => {
        const node = found.get(`${level}:${index}`);
        if (!node) throw new Error(`snapshot ${snapshot.id} lacks node ${level}:${index}`);
        return { hash: fromHex(node.hash, 32), sums: (JSON.parse(node.sums) as string[]).map(BigInt) };
      },
    });
  }

  /**
   * The caller's counted balances per asset as their statement shows them at the snapshot's
   * ledger sequence (from the postings, not the tree), for the app to set beside the proof.
   */
  async statement(
    userId: bigint,
    snapshotId?: bigint,
  ): Promise<{ snapshot_id: number; ledger_seq: number; assets: string[]; balances: string[] }> {
    const { db, ledger } = this.#deps;
    const snapshot =
      snapshotId === undefined ? await repo.latestSnapshot(db) : await repo.findSnapshot(db, snapshotId);
    if (!snapshot?.header_json) throw new AppError('POR_NO_SNAPSHOT');
    const assets = JSON.parse(snapshot.assets) as string[];
    const totals = new Map<string, bigint>();
    for (const row of await ledger.userBalancesAtEntry(db, userId, snapshot.ledger_seq)) {
      if (COUNTED_KINDS.includes(row.kind))
        totals.set(row.asset, (totals.get(row.asset) ?? 0n) + row.balance);
    }
    return {
      snapshot_id: Number(snapshot.id),
      ledger_seq: Number(snapshot.ledger_seq),
      assets,
      balances: assets.map((asset) => String(totals.get(asset) ?? 0n)),
    };
  }

  /**
   * The scheduled run (every minute, one node): takes today's 00:00 UTC snapshot once it is due
   * and not yet taken, and drops the proofs of daily snapshots past retention.
   */
  async runDaily(): Promise<void> {
    const now = this.#deps.clock.now();
    const midnight = now - (now % DAY_MS);
    const existing = await repo.findSnapshotAt(this.#deps.db, toMillis(midnight));
    if (!existing?.header_json) await this.takeSnapshot(midnight);
    await repo.dropOldProofs(this.#deps.db, toMillis(midnight - PROOF_RETENTION_DAYS * DAY_MS));
  }
}

function toHexBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
