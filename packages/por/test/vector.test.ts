import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  canonicalJson,
  fromHex,
  GENESIS_PREV,
  hashAt,
  headerDigest,
  type InclusionProof,
  keyFingerprint,
  leafPreimage,
  padHash,
  proofFrom,
  rootOf,
  type SnapshotHeader,
  salt,
  signedBytes,
  sumsAt,
  toHex,
  VerifyError,
  verifyChain,
  verifyHeader,
  verifyProof,
} from '../src/index.ts';
import { nodeHasher } from '../src/node-hasher.ts';

// The worked example and test vector of the design (section 12), bit for bit.
const POR_KEY = Uint8Array.from({ length: 32 }, (_, i) => i);
const SNAPSHOT = 42n;
const ASSETS = ['BTC', 'USDT'];
const USERS = [
  { userId: 1001n, balances: [50000000n, 120000000000n] },
  { userId: 1002n, balances: [0n, 35050000000n] },
  { userId: 1003n, balances: [125000000n, 0n] },
  { userId: 1004n, balances: [10000n, 9999999999n] },
];
const SALTS: Record<string, string> = {
  '1001': '1c0bfb610596c21bc07585cb80ca60ac19932daf45e53f7a6110d5fde79c42f8',
  '1002': 'cbec410c0d832ef6662c3d433cd49154a37163376e5b811464205e6d6c0ec20b',
  '1003': 'ccd7d9c75033cbe8a20b47b1991a835c98ab28b8a78afbe5a4d7edcfa827dd89',
  '1004': '71df15854ee9655ab5782ae5905c338bf9903d153a38ab76c8ad08c373eb40b2',
};
const LEAVES: Record<string, string> = {
  '1001': '10decd0165dc085523cd6c3d68a3b593e0ce9afcf3901a467f18f8e3d5c8aba1',
  '1002': '602456b2965a707db89b68d1c4d54ed043069c699138d11c1339dbe14761e041',
  '1003': '04113c474b583be4d52aec6152e9ffa89aa9b60a653dce501af245cde6dbfa24',
  '1004': 'be1b30e1b412c8ff51cdab533285da49656fff898244f15f4c4b955121fe7e51',
};
const N_1003_1001 = '4be13824f943ff1546636242cee976ceedefc6cef1f1545e8db5f02c74091620';
const N_1002_1004 = '43545b09d832f88d19eb464dabf477ac90062d236002e3cb159d4a9a54179ee7';
const ROOT = '9241f879d63477c74a5fa0d3d1f5915ca77474f3d38a44902614b4d03e22611f';
const PAD_42_0 = '2307f6c032b5546e844111e6018407fcd7c2b830eab23721229b15d1a26038cf';

function exampleTree() {
  return buildTree({
    hasher: nodeHasher,
    porKey: POR_KEY,
    snapshotId: SNAPSHOT,
    assets: ASSETS,
    users: USERS,
    userCount: USERS.length,
    minLeaves: 1,
  });
}

function proofOf(userId: bigint): InclusionProof {
  const tree = exampleTree();
  const user = USERS.find((u) => u.userId === userId);
  if (!user) throw new Error('no such user');
  return proofFrom({
    snapshotId: SNAPSHOT,
    userId,
    salt: salt(nodeHasher, POR_KEY, SNAPSHOT, userId),
    balances: user.balances,
    leafIndex: tree.leafIndex.get(userId) as number,
    depth: tree.depth,
    sibling: (l, i) => {
      const at = tree.levels[l];
      if (!at) throw new Error('no level');
      return { hash: hashAt(at, i), sums: sumsAt(tree, at, i) };
    },
  });
}

const keys = generateKeyPairSync('ed25519');
const PUBLIC_KEY = toHex(new Uint8Array(keys.publicKey.export({ format: 'der', type: 'spki' })).slice(-32));

function signHeader(unsigned: Omit<SnapshotHeader, 'sig'>): SnapshotHeader {
  const header = { ...unsigned, sig: '' } as SnapshotHeader;
  return { ...header, sig: toHex(new Uint8Array(sign(null, signedBytes(header), keys.privateKey))) };
}

function exampleHeader(prev = GENESIS_PREV): SnapshotHeader {
  const { root, sums } = rootOf(exampleTree());
  return signHeader({
    version: 1,
    snapshot_id: 42,
    taken_at: '2026-11-22T00:00:00Z',
    ledger_seq: 918273,
    assets: ASSETS,
    leaf_count: 4,
    depth: 2,
    root,
    root_sums: sums.map(String),
    trial_total: {},
    reserves: [],
    reserve_totals: {},
    ratios: {},
    prev,
  });
}

describe('the test vector of the design', () => {
  it('reproduces every salt, leaf, node, the root and its sums, and the padding leaf', () => {
    for (const user of USERS) {
      const s = salt(nodeHasher, POR_KEY, SNAPSHOT, user.userId);
      expect(toHex(s)).toBe(SALTS[String(user.userId)]);
      const preimage = leafPreimage(SNAPSHOT, user.userId, s, user.balances);
      expect(preimage).toHaveLength(81);
      expect(toHex(nodeHasher.sha256(preimage))).toBe(LEAVES[String(user.userId)]);
    }
    const tree = exampleTree();
    expect([...tree.leafIndex.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id)).toEqual([
      1003n,
      1001n,
      1002n,
      1004n,
    ]);
    const [, middle] = tree.levels;
    if (!middle) throw new Error('no middle level');
    expect(toHex(hashAt(middle, 0))).toBe(N_1003_1001);
    expect(sumsAt(tree, middle, 0)).toEqual([175000000n, 120000000000n]);
    expect(toHex(hashAt(middle, 1))).toBe(N_1002_1004);
    expect(sumsAt(tree, middle, 1)).toEqual([10000n, 45049999999n]);
    expect(rootOf(tree)).toEqual({ root: ROOT, sums: [175010000n, 165049999999n] });
    expect(toHex(padHash(nodeHasher, POR_KEY, SNAPSHOT, 0n))).toBe(PAD_42_0);
  });

  it('gives user 1002 the proof of the design, which verifies with WebCrypto', async () => {
    const proof = proofOf(1002n);
    expect(proof).toEqual({
      snapshot_id: 42,
      user_id: 1002,
      salt: SALTS['1002'],
      balances: ['0', '35050000000'],
      leaf_index: 2,
      path: [
        { side: 'R', hash: LEAVES['1004'], sums: ['10000', '9999999999'] },
        { side: 'L', hash: N_1003_1001, sums: ['175000000', '120000000000'] },
      ],
    });
    const header = exampleHeader();
    await verifyHeader(header, PUBLIC_KEY, null);
    expect(await verifyProof(proof, header)).toEqual([0n, 35050000000n]);
    for (const user of USERS) expect(await verifyProof(proofOf(user.userId), header)).toEqual(user.balances);
  });

  it('pads to 1,024 leaves by default, and every proof still verifies', async () => {
    const tree = buildTree({
      hasher: nodeHasher,
      porKey: POR_KEY,
      snapshotId: SNAPSHOT,
      assets: ASSETS,
      users: USERS,
      userCount: USERS.length,
    });
    expect([tree.leafCount, tree.depth]).toEqual([1024, 10]);
    expect(rootOf(tree).sums).toEqual([175010000n, 165049999999n]);
  });
});

describe('tampering fails verification', () => {
  const failsWith = async (
    reason: VerifyError['reason'],
    proof: InclusionProof,
    header = exampleHeader(),
  ) => {
    const error = await verifyProof(proof, header).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerifyError);
    expect((error as VerifyError).reason).toBe(reason);
  };
  const clone = (): InclusionProof => structuredClone(proofOf(1002n));

  it('a flipped sibling sum', async () => {
    const proof = clone();
    proof.path[0]!.sums[1] = '9999999998';
    await failsWith('root', proof);
  });
  it('a swapped side', async () => {
    const proof = clone();
    proof.path[1]!.side = 'R';
    await failsWith('format', proof);
  });
  it('a wrong salt', async () => {
    const proof = clone();
    proof.salt = SALTS['1001'] as string;
    await failsWith('root', proof);
  });
  it('a truncated path', async () => {
    const proof = clone();
    proof.path.pop();
    await failsWith('depth', proof);
  });
  it('a value of 2^128', async () => {
    const proof = clone();
    proof.balances[0] = (1n << 128n).toString();
    await failsWith('format', proof);
    const sibling = clone();
    sibling.path[0]!.sums[0] = (1n << 128n).toString();
    await failsWith('format', sibling);
  });
  it('a negative amount string', async () => {
    const proof = clone();
    proof.balances[0] = '-0';
    await failsWith('format', proof);
    const negative = clone();
    negative.path[0]!.sums[0] = '-10000';
    await failsWith('format', negative);
  });
  it('a sibling sum that makes a parent reach 2^128', async () => {
    const proof = clone();
    proof.path[0]!.sums[1] = ((1n << 128n) - 1n).toString();
    await failsWith('format', proof);
  });
  it('a balance claimed higher than the leaf', async () => {
    const proof = clone();
    proof.balances[1] = '35050000001';
    await failsWith('root', proof);
  });
  it('root sums that differ from the folded sums', async () => {
    const header = exampleHeader();
    await failsWith('root_sums', clone(), { ...header, root_sums: ['175010000', '165049999998'] });
  });

  it('a broken header signature or prev link', async () => {
    const first = exampleHeader();
    const second = signHeader({ ...exampleHeader(await headerDigest(first)), snapshot_id: 43 });
    await verifyChain([first, second], PUBLIC_KEY);
    const forged = { ...first, root_sums: ['175010000', '165049999998'] };
    await expect(verifyHeader(forged, PUBLIC_KEY)).rejects.toMatchObject({ reason: 'signature' });
    const otherKey = toHex(
      new Uint8Array(generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' })).slice(
        -32,
      ),
    );
    await expect(verifyHeader(first, otherKey)).rejects.toMatchObject({ reason: 'signature' });
    const unlinked = signHeader({ ...exampleHeader(GENESIS_PREV), snapshot_id: 43 });
    await expect(verifyChain([first, unlinked], PUBLIC_KEY)).rejects.toMatchObject({ reason: 'prev' });
    await expect(verifyHeader(second, PUBLIC_KEY, null)).rejects.toMatchObject({ reason: 'prev' });
  });

  it('signs the canonical header: sorted keys, no spaces, without sig', () => {
    const header = exampleHeader();
    const text = new TextDecoder().decode(signedBytes(header));
    expect(text.startsWith('{"assets":["BTC","USDT"],"depth":2,"leaf_count":4,"ledger_seq":918273,')).toBe(
      true,
    );
    expect(text).not.toContain('"sig"');
    expect(text).toBe(canonicalJson({ ...header, sig: undefined }));
  });

  it('prints the key fingerprint in groups of four', async () => {
    expect(await keyFingerprint(PUBLIC_KEY)).toMatch(/^([0-9a-f]{4} ){15}[0-9a-f]{4}$/);
    expect(fromHex(PUBLIC_KEY)).toHaveLength(32);
  });
});
