// Verifying a proof of liabilities and its signed header with WebCrypto and BigInt only (the
// design's section 6), so the same code runs in the static page, saved to disk and offline, and in
// the command-line verifier.
import {
  addSums,
  canonicalJson,
  fromHex,
  HASH_BYTES,
  leafPreimage,
  nodePreimage,
  ProofFormatError,
  parseAmount,
  type TreeNode,
  toHex,
} from './encoding.ts';

/** A reserve entry as published with a snapshot (the design's section 8). */
export interface ReserveEntry {
  asset: string;
  chain: string;
  address: string;
  balance: string;
  height: number;
  block_hash: string;
  message: string;
  sig: string;
  scheme: string;
  simulated?: boolean;
}

/** A snapshot's header: what `GET /apiv/por/snapshots` lists, signed with the publication key. */
export interface SnapshotHeader {
  version: 1;
  snapshot_id: number;
  taken_at: string;
  ledger_seq: number;
  assets: string[];
  leaf_count: number;
  depth: number;
  root: string;
  root_sums: string[];
  trial_total: Record<string, string>;
  reserves: ReserveEntry[];
  reserve_totals: Record<string, string>;
  ratios: Record<string, string>;
  prev: string;
  sig: string;
}

/** One user's inclusion proof: what `GET /apiv/por/proof` answers. `side` is the sibling's. */
export interface InclusionProof {
  snapshot_id: number;
  user_id: number;
  salt: string;
  balances: string[];
  leaf_index: number;
  path: { side: 'L' | 'R'; hash: string; sums: string[] }[];
}

/** The `prev` of the first header. */
export const GENESIS_PREV = '0'.repeat(64);

export type VerifyFailure =
  | 'format'
  | 'snapshot'
  | 'depth'
  | 'assets'
  | 'root'
  | 'root_sums'
  | 'signature'
  | 'prev';

export class VerifyError extends Error {
  override name = 'VerifyError';
  readonly reason: VerifyFailure;
  constructor(reason: VerifyFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

function subtle(): SubtleCrypto {
  const found = globalThis.crypto?.subtle;
  if (!found) throw new Error('WebCrypto is not available here');
  return found;
}

export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

function safeId(value: unknown, what: string): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new VerifyError('format', `${what} is not a non-negative integer`);
  }
  return BigInt(value);
}

/** The bytes a header's signature covers: the canonical JSON of the header without `sig`. */
export function signedBytes(header: SnapshotHeader): Uint8Array {
  const { sig: _sig, ...unsigned } = header;
  return new TextEncoder().encode(canonicalJson(unsigned));
}

/** `prev` of the header after this one: SHA-256 of this header's canonical JSON, signature included. */
export async function headerDigest(header: SnapshotHeader): Promise<string> {
  return toHex(await sha256(new TextEncoder().encode(canonicalJson(header))));
}

/** The publication key's fingerprint as the README and the app show it: SHA-256 of the raw key, grouped. */
export async function keyFingerprint(publicKeyHex: string): Promise<string> {
  const digest = toHex(await sha256(fromHex(publicKeyHex, 32)));
  return (digest.match(/.{4}/g) ?? []).join(' ');
}

/**
 * Checks a header's Ed25519 signature with the publication key (raw, hex) and, given the header
 * before it, the `prev` link (the first header's `prev` is {@link GENESIS_PREV}).
 */
export async function verifyHeader(
  header: SnapshotHeader,
  publicKeyHex: string,
  previous?: SnapshotHeader | null,
): Promise<void> {
  let key: CryptoKey;
  let signature: Uint8Array;
  try {
    key = await subtle().importKey(
      'raw',
      fromHex(publicKeyHex, 32) as Uint8Array<ArrayBuffer>,
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
    signature = fromHex(header.sig, 64);
  } catch (error) {
    throw new VerifyError('signature', `bad key or signature: ${(error as Error).message}`);
  }
  const valid = await subtle().verify(
    { name: 'Ed25519' },
    key,
    signature as Uint8Array<ArrayBuffer>,
    signedBytes(header) as Uint8Array<ArrayBuffer>,
  );
  if (!valid) throw new VerifyError('signature', 'the header signature does not verify');
  if (previous === null && header.prev !== GENESIS_PREV) {
    throw new VerifyError('prev', 'the first header must start the chain');
  }
  if (previous) {
    if (header.prev !== (await headerDigest(previous))) {
      throw new VerifyError(
        'prev',
        `header ${header.snapshot_id} does not follow header ${previous.snapshot_id}`,
      );
    }
  }
}

/** Checks a whole chain of headers, oldest first: every signature and every `prev` link. */
export async function verifyChain(headers: readonly SnapshotHeader[], publicKeyHex: string): Promise<void> {
  for (const [i, header] of headers.entries())
    await verifyHeader(header, publicKeyHex, i === 0 ? undefined : headers[i - 1]);
}

/** The leaf's hash from the user's id, salt and balances. */
export async function leafHash(
  snapshotId: bigint,
  userId: bigint,
  salt: Uint8Array,
  balances: readonly bigint[],
): Promise<Uint8Array> {
  return sha256(leafPreimage(snapshotId, userId, salt, balances));
}

/**
 * Verifies one user's inclusion proof against its header (whose signature the caller checks with
 * {@link verifyHeader}): the snapshot, assets and depth match; every amount is a decimal integer
 * below 2^128; the leaf recomputed from user id, salt and balances, folded up the path with the
 * node rule and exact sums, gives the header's root and root sums. Answers the balances included;
 * throws {@link VerifyError} on any failure.
 */
export async function verifyProof(proof: InclusionProof, header: SnapshotHeader): Promise<bigint[]> {
  try {
    const snapshotId = safeId(proof.snapshot_id, 'snapshot_id');
    if (snapshotId !== safeId(header.snapshot_id, 'header snapshot_id')) {
      throw new VerifyError('snapshot', 'the proof is for another snapshot');
    }
    const userId = safeId(proof.user_id, 'user_id');
    const k = header.assets.length;
    if (!Array.isArray(proof.balances) || proof.balances.length !== k) {
      throw new VerifyError('assets', `the proof must carry ${k} balances`);
    }
    if (!Array.isArray(proof.path) || proof.path.length !== header.depth) {
      throw new VerifyError('depth', `the path must have ${header.depth} steps`);
    }
    if (header.leaf_count !== 2 ** header.depth) throw new VerifyError('depth', 'leaf_count is not 2^depth');
    const balances = proof.balances.map(parseAmount);
    let node: TreeNode = {
      hash: await leafHash(snapshotId, userId, fromHex(proof.salt, HASH_BYTES), balances),
      sums: balances,
    };
    let index = safeId(proof.leaf_index, 'leaf_index');
    for (const step of proof.path) {
      const sibling: TreeNode = {
        hash: fromHex(step.hash, HASH_BYTES),
        sums: Array.isArray(step.sums) && step.sums.length === k ? step.sums.map(parseAmount) : [],
      };
      if (sibling.sums.length !== k) throw new VerifyError('assets', `every sibling carries ${k} sums`);
      // why: the leaf's position fixes which side each sibling is on; a swapped side is refused.
      const expected = index % 2n === 0n ? 'R' : 'L';
      if (step.side !== expected) throw new VerifyError('format', `the sibling must be on the ${expected}`);
      const [left, right] = step.side === 'R' ? [node, sibling] : [sibling, node];
      node = { hash: await sha256(nodePreimage(left, right)), sums: addSums(left.sums, right.sums) };
      index /= 2n;
    }
    if (toHex(node.hash) !== header.root) throw new VerifyError('root', 'the path does not lead to the root');
    const rootSums = header.root_sums.map(parseAmount);
    if (rootSums.length !== k || rootSums.some((sum, i) => sum !== node.sums[i])) {
      throw new VerifyError('root_sums', 'the sums do not add up to the published totals');
    }
    return balances;
  } catch (error) {
    if (error instanceof VerifyError) throw error;
    if (error instanceof ProofFormatError) throw new VerifyError('format', error.message);
    throw error;
  }
}
