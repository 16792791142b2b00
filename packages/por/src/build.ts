// Building a snapshot's Merkle sum tree (the design's sections 3 and 11): the server's side. The
// hash functions are passed in (synchronous ones: the server's node:crypto), so this module, like
// the verifier, depends on nothing; both encode through `encoding.ts`, so their bytes agree.
import {
  ascii,
  compareBytes,
  concat,
  HASH_BYTES,
  LEAF_PREFIX,
  NODE_PREFIX,
  ProofFormatError,
  padMessage,
  saltMessage,
  toHex,
  U128_LIMIT,
  u64,
} from './encoding.ts';
import type { InclusionProof } from './verify.ts';

export interface SyncHasher {
  sha256(data: Uint8Array): Uint8Array;
  hmac(key: Uint8Array, data: Uint8Array): Uint8Array;
}

/** The fewest leaves a tree has: padding hides the user count to within a factor of 2. */
export const MIN_LEAVES = 1024;

const MASK64 = (1n << 64n) - 1n;

/**
 * One level of the tree: `count` nodes, their hashes (32 bytes each, in order) and their sums
 * (`k` per node, each split into its low and high 64 bits).
 */
export interface TreeLevel {
  count: number;
  hashes: Uint8Array;
  sumsLo: BigUint64Array;
  sumsHi: BigUint64Array;
}

export interface BuiltTree {
  snapshotId: bigint;
  assets: readonly string[];
  depth: number;
  leafCount: number;
  /** Level 0 holds the leaves in tree order; the last level holds the root alone. */
  levels: TreeLevel[];
  /** Where each user's leaf ended up. */
  leafIndex: Map<bigint, number>;
}

export function salt(hasher: SyncHasher, porKey: Uint8Array, snapshotId: bigint, userId: bigint): Uint8Array {
  return hasher.hmac(porKey, saltMessage(snapshotId, userId));
}

/** Leaves for the tree: the next power of two at or above max(users, {@link MIN_LEAVES}). */
export function leafCountFor(users: number, minLeaves = MIN_LEAVES): number {
  let count = 1;
  while (count < Math.max(users, minLeaves)) count *= 2;
  return count;
}

function level(count: number, k: number): TreeLevel {
  return {
    count,
    hashes: new Uint8Array(count * HASH_BYTES),
    sumsLo: new BigUint64Array(count * k),
    sumsHi: new BigUint64Array(count * k),
  };
}

/** A node's sums as BigInts. */
export function sumsAt(tree: Pick<BuiltTree, 'assets'>, at: TreeLevel, index: number): bigint[] {
  const k = tree.assets.length;
  return Array.from(
    { length: k },
    (_, a) => ((at.sumsHi[index * k + a] as bigint) << 64n) | (at.sumsLo[index * k + a] as bigint),
  );
}

export function hashAt(at: TreeLevel, index: number): Uint8Array {
  return at.hashes.slice(index * HASH_BYTES, (index + 1) * HASH_BYTES);
}

/**
 * Builds the tree over `users` (each user once, balances per asset in the order of `assets`, every
 * one 0 ≤ b < 2^128): salted leaves, padding leaves up to the leaf count, all sorted by hash, then
 * each level from the one below. `minLeaves` is 1,024 in production (the test vector uses 1).
 */
export function buildTree(options: {
  hasher: SyncHasher;
  porKey: Uint8Array;
  snapshotId: bigint;
  assets: readonly string[];
  users: Iterable<{ userId: bigint; balances: readonly bigint[] }>;
  userCount: number;
  minLeaves?: number;
}): BuiltTree {
  const { hasher, porKey, snapshotId, assets } = options;
  const k = assets.length;
  const leafCount = leafCountFor(options.userCount, options.minLeaves);
  const depth = Math.log2(leafCount);

  // The leaves before sorting: users first, then padding.
  const unsorted = level(leafCount, k);
  const owners: bigint[] = [];
  const leafBytes = new Uint8Array(1 + 8 + 8 + HASH_BYTES + 16 * k);
  const view = new DataView(leafBytes.buffer);
  // why: the salt's and the padding's messages are written into buffers made once (a million
  // users would otherwise make millions of small arrays).
  const saltBytes = new Uint8Array(4 + 8 + 8);
  const saltView = new DataView(saltBytes.buffer);
  saltBytes.set(ascii('salt'), 0);
  saltView.setBigUint64(4, snapshotId);
  let n = 0;
  for (const user of options.users) {
    if (n >= leafCount || user.balances.length !== k)
      throw new ProofFormatError('users do not match the count or assets');
    if (user.userId < 0n || user.userId >= 1n << 64n)
      throw new ProofFormatError(`user id ${user.userId} is not a u64`);
    saltView.setBigUint64(12, user.userId);
    leafBytes[0] = LEAF_PREFIX;
    view.setBigUint64(1, snapshotId);
    view.setBigUint64(9, user.userId);
    leafBytes.set(hasher.hmac(porKey, saltBytes), 17);
    for (const [a, balance] of user.balances.entries()) {
      if (balance < 0n || balance >= U128_LIMIT)
        throw new ProofFormatError(`user ${user.userId} has a balance out of range`);
      const hi = balance >> 64n;
      const lo = balance & MASK64;
      view.setBigUint64(17 + HASH_BYTES + 16 * a, hi);
      view.setBigUint64(17 + HASH_BYTES + 16 * a + 8, lo);
      unsorted.sumsHi[n * k + a] = hi;
      unsorted.sumsLo[n * k + a] = lo;
    }
    unsorted.hashes.set(hasher.sha256(leafBytes), n * HASH_BYTES);
    owners.push(user.userId);
    n++;
  }
  if (n !== options.userCount) throw new ProofFormatError('users do not match the count');
  const padBytes = new Uint8Array(3 + 8 + 8);
  const padView = new DataView(padBytes.buffer);
  padBytes.set(ascii('pad'), 0);
  padView.setBigUint64(3, snapshotId);
  for (let i = n; i < leafCount; i++) {
    padView.setBigUint64(11, BigInt(i - n));
    unsorted.hashes.set(hasher.hmac(porKey, padBytes), i * HASH_BYTES);
  }

  // why: sorting by hash is a fresh pseudo-random order every snapshot that the auditor can redo.
  const order = Array.from({ length: leafCount }, (_, i) => i);
  const prefix = new Float64Array(leafCount);
  for (let i = 0; i < leafCount; i++) {
    const h = unsorted.hashes.subarray(i * HASH_BYTES, i * HASH_BYTES + 6);
    prefix[i] =
      (h[0] as number) * 2 ** 40 +
      (h[1] as number) * 2 ** 32 +
      (((h[2] as number) << 24) >>> 0) +
      ((h[3] as number) << 16) +
      ((h[4] as number) << 8) +
      (h[5] as number);
  }
  order.sort(
    (a, b) =>
      (prefix[a] as number) - (prefix[b] as number) ||
      compareBytes(
        unsorted.hashes.subarray(a * HASH_BYTES, (a + 1) * HASH_BYTES),
        unsorted.hashes.subarray(b * HASH_BYTES, (b + 1) * HASH_BYTES),
      ),
  );
  const leaves = level(leafCount, k);
  const leafIndex = new Map<bigint, number>();
  for (const [to, from] of order.entries()) {
    leaves.hashes.set(unsorted.hashes.subarray(from * HASH_BYTES, (from + 1) * HASH_BYTES), to * HASH_BYTES);
    leaves.sumsLo.set(unsorted.sumsLo.subarray(from * k, (from + 1) * k), to * k);
    leaves.sumsHi.set(unsorted.sumsHi.subarray(from * k, (from + 1) * k), to * k);
    if (from < n) leafIndex.set(owners[from] as bigint, to);
  }

  const levels = [leaves];
  const nodeBytes = new Uint8Array(1 + 2 * (HASH_BYTES + 16 * k));
  const nodeView = new DataView(nodeBytes.buffer);
  const half = HASH_BYTES + 16 * k;
  for (let below = leaves; below.count > 1; ) {
    const above = level(below.count / 2, k);
    for (let i = 0; i < above.count; i++) {
      nodeBytes[0] = NODE_PREFIX;
      for (const side of [0, 1]) {
        const child = 2 * i + side;
        const at = 1 + side * half;
        nodeBytes.set(below.hashes.subarray(child * HASH_BYTES, (child + 1) * HASH_BYTES), at);
        for (let a = 0; a < k; a++) {
          nodeView.setBigUint64(at + HASH_BYTES + 16 * a, below.sumsHi[child * k + a] as bigint);
          nodeView.setBigUint64(at + HASH_BYTES + 16 * a + 8, below.sumsLo[child * k + a] as bigint);
        }
      }
      above.hashes.set(hasher.sha256(nodeBytes), i * HASH_BYTES);
      for (let a = 0; a < k; a++) {
        const lo = (below.sumsLo[2 * i * k + a] as bigint) + (below.sumsLo[(2 * i + 1) * k + a] as bigint);
        const hi =
          (below.sumsHi[2 * i * k + a] as bigint) +
          (below.sumsHi[(2 * i + 1) * k + a] as bigint) +
          (lo >> 64n);
        if (hi >> 64n !== 0n) throw new ProofFormatError('a sum reaches 2^128');
        above.sumsLo[i * k + a] = lo & MASK64;
        above.sumsHi[i * k + a] = hi;
      }
    }
    levels.push(above);
    below = above;
  }
  return { snapshotId, assets, depth, leafCount, levels, leafIndex };
}

/** The root's hash (hex) and sums. */
export function rootOf(tree: BuiltTree): { root: string; sums: bigint[] } {
  const top = tree.levels[tree.levels.length - 1] as TreeLevel;
  return { root: toHex(hashAt(top, 0)), sums: sumsAt(tree, top, 0) };
}

/**
 * A user's inclusion proof sliced from stored levels: `sibling(level, index)` answers the node at
 * that place (from memory or the store).
 */
export function proofFrom(options: {
  snapshotId: bigint;
  userId: bigint;
  salt: Uint8Array;
  balances: readonly bigint[];
  leafIndex: number;
  depth: number;
  sibling: (levelIndex: number, index: number) => { hash: Uint8Array; sums: readonly bigint[] };
}): InclusionProof {
  const path: InclusionProof['path'] = [];
  let index = options.leafIndex;
  for (let l = 0; l < options.depth; l++) {
    const node = options.sibling(l, index ^ 1);
    path.push({ side: index % 2 === 0 ? 'R' : 'L', hash: toHex(node.hash), sums: node.sums.map(String) });
    index = Math.floor(index / 2);
  }
  return {
    snapshot_id: Number(options.snapshotId),
    user_id: Number(options.userId),
    salt: toHex(options.salt),
    balances: options.balances.map(String),
    leaf_index: options.leafIndex,
    path,
  };
}

/** A padding leaf's hash (the test vector publishes pad(42, 0)). */
export function padHash(
  hasher: SyncHasher,
  porKey: Uint8Array,
  snapshotId: bigint,
  index: bigint,
): Uint8Array {
  return hasher.hmac(porKey, padMessage(snapshotId, index));
}

export { ascii, concat, u64 };
