// The binary encoding of the proof of liabilities (normative: the design's section 3). Integers are
// big-endian, u64 in 8 bytes and u128 in 16; amounts are atoms. Pure functions over bytes and
// BigInt, so the browser, the CLI and the server's builder encode exactly alike.

/** Sums and balances must stay below this (unsigned 128-bit). */
export const U128_LIMIT = 1n << 128n;
const U64_LIMIT = 1n << 64n;

export const LEAF_PREFIX = 0x00;
export const NODE_PREFIX = 0x01;
export const HASH_BYTES = 32;

export class ProofFormatError extends Error {
  override name = 'ProofFormatError';
}

export function u64(value: bigint): Uint8Array {
  if (value < 0n || value >= U64_LIMIT) throw new ProofFormatError(`${value} is not a u64`);
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value);
  return bytes;
}

export function u128(value: bigint): Uint8Array {
  if (value < 0n || value >= U128_LIMIT) throw new ProofFormatError(`${value} is not a u128`);
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(0, value >> 64n);
  view.setBigUint64(8, value & (U64_LIMIT - 1n));
  return bytes;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

export function fromHex(hex: string, length?: number): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new ProofFormatError('not lower-case hex');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  if (length !== undefined && bytes.length !== length) throw new ProofFormatError(`expected ${length} bytes`);
  return bytes;
}

/** A balance or sum as published: a decimal integer string, 0 ≤ value < 2^128, no sign, no leading zeros. */
export function parseAmount(text: unknown): bigint {
  if (typeof text !== 'string' || !/^(?:0|[1-9][0-9]{0,38})$/.test(text)) {
    throw new ProofFormatError(`${String(text)} is not an amount`);
  }
  const value = BigInt(text);
  if (value >= U128_LIMIT) throw new ProofFormatError(`${text} is not below 2^128`);
  return value;
}

/** `"salt" ‖ u64 snapshot_id ‖ u64 user_id`: what the salt's HMAC covers. */
export function saltMessage(snapshotId: bigint, userId: bigint): Uint8Array {
  return concat(ascii('salt'), u64(snapshotId), u64(userId));
}

/** `"pad" ‖ u64 snapshot_id ‖ u64 index`: what a padding leaf's HMAC covers. */
export function padMessage(snapshotId: bigint, index: bigint): Uint8Array {
  return concat(ascii('pad'), u64(snapshotId), u64(index));
}

/** `0x00 ‖ u64 snapshot_id ‖ u64 user_id ‖ salt ‖ u128 b₁ … b_k`. */
export function leafPreimage(
  snapshotId: bigint,
  userId: bigint,
  salt: Uint8Array,
  balances: readonly bigint[],
): Uint8Array {
  if (salt.length !== HASH_BYTES) throw new ProofFormatError('a salt is 32 bytes');
  return concat(Uint8Array.of(LEAF_PREFIX), u64(snapshotId), u64(userId), salt, ...balances.map(u128));
}

export interface TreeNode {
  hash: Uint8Array;
  sums: readonly bigint[];
}

/** `0x01 ‖ H_L ‖ u128 S_L… ‖ H_R ‖ u128 S_R…`. */
export function nodePreimage(left: TreeNode, right: TreeNode): Uint8Array {
  if (left.hash.length !== HASH_BYTES || right.hash.length !== HASH_BYTES) {
    throw new ProofFormatError('a hash is 32 bytes');
  }
  if (left.sums.length !== right.sums.length) throw new ProofFormatError('children carry different assets');
  return concat(
    Uint8Array.of(NODE_PREFIX),
    left.hash,
    ...left.sums.map(u128),
    right.hash,
    ...right.sums.map(u128),
  );
}

/** The parent's sums: exact, each below 2^128 (else the proof is refused). */
export function addSums(left: readonly bigint[], right: readonly bigint[]): bigint[] {
  return left.map((value, i) => {
    const sum = value + (right[i] as bigint);
    if (sum >= U128_LIMIT) throw new ProofFormatError('a sum reaches 2^128');
    return sum;
  });
}

/** Bytewise order of two hashes (the leaves' order in the tree). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** Canonical JSON: object keys sorted, no spaces. What a header's signature and `prev` cover. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
