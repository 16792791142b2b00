import {
  canonicalJson,
  fromHex,
  GENESIS_PREV,
  headerDigest,
  type InclusionProof,
  proofFrom,
  type ReserveEntry,
  type SnapshotHeader,
  salt,
  signedBytes,
} from '@bourse/por';
import { nodeHasher } from '@bourse/por/node-hasher';
import {
  RESERVE_SCHEMES,
  type ReserveChain,
  reserveMessage,
  verifyReserveSignature,
} from '@bourse/por/reserve-signatures';
import { AppError, type ResultKey } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import { type Db, readerOf } from '../../platform/db.ts';
import { Pace } from '../../platform/pace.ts';
import { addPrunes, DEFAULT_SLICE_ROWS, type PruneResult, pruneInSlices } from '../../platform/prune.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import { COUNTED_KINDS, CountedBalances } from './counted-balances.ts';
import { demoReserveEntries } from './demo-reserves.ts';
import type { PublicationKey } from './keys.ts';
import * as repo from './repository.ts';
import { buildOffThread } from './tree-build.ts';

/** Daily snapshots keep their proofs this long by default; the monthly ones (the 1st, 00:00 UTC) forever. */
export const PROOF_RETENTION_DAYS = 90;
/** A scheduled snapshot is published this long after it is taken: staff attach reserve entries meanwhile. */
export const PUBLISH_DELAY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

export interface ReservesDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  /** The 32-byte secret of salts and padding (kept outside the database; given only to the auditor). */
  porKey: Buffer;
  key: PublicationKey;
  /** Fewest leaves a tree has: 1,024 (tests may lower it). */
  minLeaves?: number;
  /**
   * How long daily snapshots keep their proofs (default {@link PROOF_RETENTION_DAYS}), and the most
   * rows one prune statement deletes.
   */
  retention?: { porProofDays: number; sliceRows: number };
}

/** A snapshot as the back office sees it, pending or published, with its reserve entries. */
export interface SnapshotView {
  id: bigint;
  takenAt: number;
  ledgerSeq: bigint;
  status: 'pending' | 'published';
  publishAt: number;
  monthly: boolean;
  assets: string[];
  root: string;
  rootSums: string[];
  message: string;
  reserves: ReserveEntry[];
}

export interface NewReserve {
  asset: string;
  chain: string;
  address: string;
  balance: bigint;
  height: bigint;
  blockHash: string;
  sig: string;
}

/** The newest proof-of-reserves root in a store: what a backup records and a restore compares. */
export interface LatestRoot {
  snapshotId: bigint;
  takenAt: number;
  ledgerSeq: bigint;
  root: string;
  status: 'pending' | 'published';
}

/** The newest snapshot with a built tree on `db` (pending or published), or undefined when none. */
export async function latestRoot(db: Db): Promise<LatestRoot | undefined> {
  const row = await repo.latestBuilt(db);
  if (!row) return undefined;
  return {
    snapshotId: row.id,
    takenAt: fromMillis(row.taken_at),
    ledgerSeq: row.ledger_seq,
    root: row.root,
    status: row.status as LatestRoot['status'],
  };
}

/** Reserves ÷ liabilities, to 4 decimals, rounded down (so a ratio never overstates). */
function ratio(reserves: bigint, liabilities: bigint): string {
  const scaled = (reserves * 10_000n) / liabilities;
  return `${scaled / 10_000n}.${(scaled % 10_000n).toString().padStart(4, '0')}`;
}

function toEntry(row: Awaited<ReturnType<typeof repo.listReserves>>[number]): ReserveEntry {
  return {
    asset: row.asset,
    chain: row.chain,
    address: row.address,
    balance: String(row.balance),
    height: Number(row.height),
    block_hash: row.block_hash,
    message: row.message,
    sig: row.sig,
    scheme: row.scheme,
    ...(row.simulated === 1n ? { simulated: true } : {}),
  };
}

/** What `proof` can answer besides the codes every route can. */
export const PROOF_ERRORS = ['POR_NO_SNAPSHOT', 'POR_NOT_INCLUDED'] as const satisfies readonly ResultKey[];

/** What `statement` can answer besides the codes every route can. */
export const STATEMENT_ERRORS = ['POR_NO_SNAPSHOT'] as const satisfies readonly ResultKey[];

/** What `addReserve` can answer besides the codes every route can. */
export const ADD_RESERVE_ERRORS = [
  'POR_NO_SNAPSHOT',
  'POR_SNAPSHOT_PUBLISHED',
  'POR_RESERVE_ASSET',
  'POR_RESERVE_SIGNATURE',
  'POR_RESERVE_DUPLICATE',
  'CONFIG_AMOUNT_INVALID',
] as const satisfies readonly ResultKey[];

/** What `publish` can answer besides the codes every route can. */
export const PUBLISH_ERRORS = ['POR_NO_SNAPSHOT'] as const satisfies readonly ResultKey[];

/**
 * Proof of reserves and liabilities (owner of `por_*`): builds each snapshot's Merkle sum tree over
 * the users' balances at one ledger sequence; keeps it pending while staff attach reserve entries
 * (each signs the snapshot's root, checked before it is stored); then signs its header into the
 * chain and publishes it; and slices a user's own inclusion proof from the stored levels.
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
   * Takes the snapshot at `takenAt` (unix ms) unless it exists, to be published at `publishAt`:
   * reads every user balance at one ledger sequence in one transaction, refuses when the ledger's
   * invariants do not hold, a user balance is negative or the tree's sums differ from the ledger's
   * user totals, builds the tree outside the transaction, then stores it. Answers its id.
   */
  async takeSnapshot(takenAt: number, publishAt = takenAt + PUBLISH_DELAY_MS): Promise<bigint> {
    const { db, ledger, clock } = this.#deps;
    const existing = await repo.findSnapshotAt(db, toMillis(takenAt));
    if (existing && existing.root !== '') return existing.id;
    // why: the routine check since its last run (every account, the postings since, the
    // reservations a slice of users at a time), not a second read of the whole ledger.
    const check = await ledger.verify();
    if (!check.ok)
      throw new Error(`the ledger's invariants do not hold: ${check.problems.slice(0, 3).join('; ')}`);

    if (existing) {
      const slices = { sliceSize: DEFAULT_SLICE_ROWS };
      await pruneInSlices((limit) => repo.deleteNodesSlice(db, existing.id, limit), slices);
      await pruneInSlices((limit) => repo.deleteLeavesSlice(db, existing.id, limit), slices);
    }
    // why: repeatable read: the last entry's id and the balances come from one snapshot of the
    // store, however the market maker trades meanwhile; on SQLite on the store's read-only
    // connection, so order entry's batches commit while it is read.
    const counted = new CountedBalances();
    const ledgerSeq = await readerOf(db)
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => ledger.eachUserBalanceSlice(trx, (rows) => counted.add(rows)));
    const snapshotId = await db.transaction().execute(async (trx) => {
      // why: a run that stopped between reading and storing left a row without its tree (and
      // perhaps some of its rows, removed above).
      if (existing) await trx.deleteFrom('por_snapshots').where('id', '=', existing.id).execute();
      return repo.insertSnapshot(trx, {
        taken_at: toMillis(takenAt),
        ledger_seq: ledgerSeq,
        monthly: new Date(takenAt).getUTCDate() === 1 && takenAt % DAY_MS === 0 ? 1n : 0n,
        publish_at: toMillis(publishAt),
        created_at: toMillis(clock.now()),
      });
    });
    const { assets, userIds, words } = await counted.treeInput();
    const { totals, trialTotal } = counted;
    // why: the tree is built on a thread of its own, and its rows stored a chunk per statement
    // as they come, with the event loop given back between chunks; the snapshot shows its root
    // only once every row is stored (a run that stops half-way is replaced by the next).
    const tree = await buildOffThread(
      {
        porKey: this.#deps.porKey,
        snapshotId: snapshotId,
        assets,
        userIds,
        words,
        minLeaves: this.#deps.minLeaves,
      },
      async (chunk) => {
        const pace = new Pace();
        if (chunk.kind === 'nodes') {
          await repo.insertNodes(
            db,
            chunk.rows.map((row) => ({
              snapshot_id: snapshotId,
              level: BigInt(row.level),
              idx: BigInt(row.idx),
              hash: row.hash,
              sums: row.sums,
            })),
          );
        } else {
          await repo.insertLeaves(
            db,
            chunk.rows.map((row) => ({
              snapshot_id: snapshotId,
              user_id: row.userId,
              leaf_index: BigInt(row.leafIndex),
              balances: row.balances,
            })),
          );
        }
        // why: as long a rest as the chunk took, so the snapshot's writes (a year's tree is about
        // 240 MB) take at most half of the store's time, and order entry's commits the rest.
        await pace.rest();
      },
    );
    if (tree.sums.some((sum, i) => sum !== totals.get(assets[i] as string))) {
      throw new Error('the tree does not add up to the ledger’s user totals');
    }
    const trial = Object.fromEntries(
      [...trialTotal].sort(([a], [b]) => (a < b ? -1 : 1)).map(([asset, total]) => [asset, String(total)]),
    );
    await repo.setTree(db, snapshotId, {
      assets: JSON.stringify(assets),
      depth: BigInt(tree.depth),
      root: tree.root,
      root_sums: JSON.stringify(tree.sums.map(String)),
      trial_total: JSON.stringify(trial),
    });
    return snapshotId;
  }

  /**
   * Attaches a reserve entry to a pending snapshot (staff; audited in the same transaction): the
   * asset must be one the snapshot counts, the chain one whose signatures can be checked, and the
   * signature must verify over the snapshot's message (`Bourse reserves snapshot <id> root <root>`).
   */
  async addReserve(
    staff: Pick<StaffActor, 'actor' | 'ip'>,
    snapshotId: bigint,
    entry: NewReserve,
    options: { simulated?: boolean } = {},
  ): Promise<ReserveEntry> {
    const { db, audit, clock } = this.#deps;
    const snapshot = await repo.findSnapshot(db, snapshotId);
    if (!snapshot || snapshot.root === '') throw new AppError('POR_NO_SNAPSHOT');
    if (snapshot.status !== 'pending') throw new AppError('POR_SNAPSHOT_PUBLISHED');
    if (!(JSON.parse(snapshot.assets) as string[]).includes(entry.asset))
      throw new AppError('POR_RESERVE_ASSET');
    if (!Object.hasOwn(RESERVE_SCHEMES, entry.chain)) throw new AppError('POR_RESERVE_SIGNATURE');
    const chain = entry.chain as ReserveChain;
    const message = reserveMessage(snapshot.id, snapshot.root);
    if (!(await verifyReserveSignature({ chain, address: entry.address, message, sig: entry.sig }))) {
      throw new AppError('POR_RESERVE_SIGNATURE');
    }
    return db.transaction().execute(async (trx) => {
      const row = {
        snapshot_id: snapshot.id,
        asset: entry.asset,
        chain,
        address: entry.address,
        balance: entry.balance,
        height: entry.height,
        block_hash: entry.blockHash,
        message,
        sig: entry.sig,
        scheme: RESERVE_SCHEMES[chain],
        simulated: options.simulated ? 1n : 0n,
        created_at: toMillis(clock.now()),
      };
      try {
        await repo.insertReserve(trx, row);
      } catch {
        throw new AppError('POR_RESERVE_DUPLICATE');
      }
      await audit.record(trx, {
        actor: staff.actor,
        action: 'reserves.add',
        target: `por_snapshot:${snapshot.id}`,
        after: {
          asset: entry.asset,
          chain,
          address: entry.address,
          balance: String(entry.balance),
          simulated: row.simulated === 1n,
        },
        ip: staff.ip,
      });
      return toEntry({ id: 0n, ...row });
    });
  }

  /**
   * Publishes the pending snapshots up to `snapshotId` (all that are due when not given), oldest
   * first: each header carries its verified reserve entries, the reserve totals and the ratios
   * (only for assets with reserves), chains to the header before and is signed.
   */
  async publish(
    options: { upTo?: bigint; dueBy?: number; staff?: Pick<StaffActor, 'actor' | 'ip'> } = {},
  ): Promise<number> {
    const { db, key, audit } = this.#deps;
    const pending = await repo.listPending(
      db,
      options.dueBy === undefined ? undefined : toMillis(options.dueBy),
    );
    let published = 0;
    for (const snapshot of pending) {
      if (options.upTo !== undefined && snapshot.id > options.upTo) break;
      const assets = JSON.parse(snapshot.assets) as string[];
      const rootSums = JSON.parse(snapshot.root_sums) as string[];
      const reserves = (await repo.listReserves(db, snapshot.id)).map(toEntry);
      const reserveTotals = new Map<string, bigint>();
      for (const entry of reserves) {
        reserveTotals.set(entry.asset, (reserveTotals.get(entry.asset) ?? 0n) + BigInt(entry.balance));
      }
      const ratios: Record<string, string> = {};
      for (const [asset, total] of reserveTotals) {
        const liabilities = BigInt(rootSums[assets.indexOf(asset)] ?? '0');
        if (liabilities > 0n) ratios[asset] = ratio(total, liabilities);
      }
      await db.transaction().execute(async (trx) => {
        const previous = await repo.latestPublished(trx);
        const header: SnapshotHeader = {
          version: 1,
          snapshot_id: Number(snapshot.id),
          taken_at: new Date(fromMillis(snapshot.taken_at)).toISOString().replace('.000Z', 'Z'),
          ledger_seq: Number(snapshot.ledger_seq),
          assets,
          leaf_count: 2 ** Number(snapshot.depth),
          depth: Number(snapshot.depth),
          root: snapshot.root,
          root_sums: rootSums,
          trial_total: JSON.parse(snapshot.trial_total) as Record<string, string>,
          reserves,
          reserve_totals: Object.fromEntries(
            [...reserveTotals].map(([asset, total]) => [asset, String(total)]),
          ),
          ratios,
          prev: previous?.header_json
            ? await headerDigest(JSON.parse(previous.header_json) as SnapshotHeader)
            : GENESIS_PREV,
          sig: '',
        };
        header.sig = key.sign(signedBytes(header));
        await repo.publish(trx, snapshot.id, canonicalJson(header), header.sig);
        if (options.staff) {
          await audit.record(trx, {
            actor: options.staff.actor,
            action: 'reserves.publish',
            target: `por_snapshot:${snapshot.id}`,
            after: { root: snapshot.root, reserves: reserves.length },
            ip: options.staff.ip,
          });
        }
      });
      published++;
    }
    return published;
  }

  /**
   * A demo snapshot at `takenAt`, published at once with simulated reserve entries signed by the
   * demo keys (marked simulated; the app says so).
   */
  async takeDemoSnapshot(takenAt: number): Promise<bigint> {
    const id = await this.takeSnapshot(takenAt, takenAt);
    const snapshot = await repo.findSnapshot(this.#deps.db, id);
    if (snapshot?.status !== 'pending') return id;
    const assets = JSON.parse(snapshot.assets) as string[];
    const sums = JSON.parse(snapshot.root_sums) as string[];
    const entries = await demoReserveEntries({
      message: reserveMessage(snapshot.id, snapshot.root),
      liabilities: new Map(assets.map((asset, i) => [asset, BigInt(sums[i] ?? '0')])),
    });
    for (const entry of entries) {
      await this.addReserve({ actor: 'system', ip: '127.0.0.1' }, id, entry, { simulated: true });
    }
    await this.publish({ upTo: id });
    return id;
  }

  /** Every snapshot, pending or published, newest first, with its reserve entries (back office). */
  async listForStaff(limit = 60): Promise<SnapshotView[]> {
    const rows = await repo.listSnapshots(this.#deps.db, limit);
    const views: SnapshotView[] = [];
    for (const row of rows) {
      if (row.root === '') continue;
      views.push({
        id: row.id,
        takenAt: fromMillis(row.taken_at),
        ledgerSeq: row.ledger_seq,
        status: row.status,
        publishAt: fromMillis(row.publish_at),
        monthly: row.monthly === 1n,
        assets: JSON.parse(row.assets) as string[],
        root: row.root,
        rootSums: JSON.parse(row.root_sums) as string[],
        message: reserveMessage(row.id, row.root),
        reserves: (await repo.listReserves(this.#deps.db, row.id)).map(toEntry),
      });
    }
    return views;
  }

  /**
   * The published headers, newest first. A snapshot waiting for its publication time is not among
   * them and does not take a place: from 00:00 UTC until the day's snapshot was published, reading
   * the newest rows and keeping the published ones answered one header short, and none for a
   * limit of 1 (the about page then withdrew its reserve claim for that time).
   */
  async headers(limit = 100): Promise<SnapshotHeader[]> {
    const rows = await repo.listPublished(this.#deps.db, limit);
    return rows.flatMap((row) => (row.header_json ? [JSON.parse(row.header_json) as SnapshotHeader] : []));
  }

  /** The newest published snapshot's id and reserve totals per asset (atoms), for claims that cite them. */
  async latestReserves(): Promise<{ snapshotId: number; reserveTotals: Record<string, string> } | undefined> {
    const [header] = await this.headers(1);
    return header && { snapshotId: header.snapshot_id, reserveTotals: header.reserve_totals };
  }

  async #published(snapshotId?: bigint) {
    const { db } = this.#deps;
    const snapshot =
      snapshotId === undefined ? await repo.latestPublished(db) : await repo.findSnapshot(db, snapshotId);
    if (!snapshot?.header_json) throw new AppError('POR_NO_SNAPSHOT');
    return snapshot;
  }

  /**
   * The caller's own inclusion proof in a published snapshot (the latest when none is named):
   * POR_NO_SNAPSHOT when there is none (or its proofs are past retention), POR_NOT_INCLUDED when
   * the caller held nothing counted at its ledger sequence.
   */
  async proof(userId: bigint, snapshotId?: bigint): Promise<InclusionProof> {
    const { db, porKey } = this.#deps;
    const snapshot = await this.#published(snapshotId);
    const leaf = await repo.findLeaf(db, snapshot.id, userId);
    if (!leaf) {
      const anyNode = await db
        .selectFrom('por_nodes')
        .select('idx')
        .where('snapshot_id', '=', snapshot.id)
        .limit(1)
        .executeTakeFirst();
      throw new AppError(anyNode ? 'POR_NOT_INCLUDED' : 'POR_NO_SNAPSHOT');
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
    const snapshot = await this.#published(snapshotId);
    const assets = JSON.parse(snapshot.assets) as string[];
    const totals = new Map<string, bigint>();
    for (const row of await this.#deps.ledger.userBalancesAtEntry(
      this.#deps.db,
      userId,
      snapshot.ledger_seq,
    )) {
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
   * The scheduled run (every minute, one node): takes today's 00:00 UTC snapshot once it is due,
   * publishes the pending ones whose time has come, and drops the proofs of daily snapshots past
   * retention. In demo mode (`demo`) each day's snapshot is a demo one, with simulated reserves
   * and published at once, so the demo's proof keeps showing reserves that its claim can match.
   */
  async runDaily(options: { demo?: boolean } = {}): Promise<void> {
    const now = this.#deps.clock.now();
    const midnight = now - (now % DAY_MS);
    const existing = await repo.findSnapshotAt(this.#deps.db, toMillis(midnight));
    if (!existing || existing.root === '') {
      if (options.demo) await this.takeDemoSnapshot(midnight);
      else await this.takeSnapshot(midnight);
    }
    await this.publish({ dueBy: now });
    await this.pruneProofs(midnight);
  }

  /**
   * Drops the proofs (tree nodes and leaves) of daily snapshots taken more than the retention
   * before `midnight`; their headers stay, and monthly snapshots keep everything. One day's proofs
   * at 200k users are over 200 MB, so they go in bounded slices that yield between them.
   */
  async pruneProofs(midnight: number, onSlice?: (deleted: number) => void): Promise<PruneResult> {
    const { db } = this.#deps;
    const retentionDays = this.#deps.retention?.porProofDays ?? PROOF_RETENTION_DAYS;
    const slices = { sliceSize: this.#deps.retention?.sliceRows ?? DEFAULT_SLICE_ROWS, onSlice };
    const results: PruneResult[] = [];
    for (const id of await repo.listDailySnapshotsWithProofs(
      db,
      toMillis(midnight - retentionDays * DAY_MS),
    )) {
      results.push(await pruneInSlices((limit) => repo.deleteNodesSlice(db, id, limit), slices));
      results.push(await pruneInSlices((limit) => repo.deleteLeavesSlice(db, id, limit), slices));
    }
    return addPrunes(...results);
  }
}
