import { buildTree, hashAt, rootOf, toHex } from '@bourse/por';
import { nodeHasher } from '@bourse/por/node-hasher';
import { describe, expect, it } from 'vitest';
import { buildOffThread, type TreeRows } from '../src/modules/reserves/tree-build.ts';

describe("the reserves tree built on the builder's thread", () => {
  it('has the root, sums, nodes and leaves of the same tree built in place, balances past 64 bits included', async () => {
    const assets = ['BTC', 'SHIB', 'USDT'];
    const users = Array.from({ length: 2500 }, (_, u) => ({
      userId: BigInt(1000 + u * 7),
      balances: [
        BigInt(u) * 1_000n,
        u === 3 ? (1n << 100n) + 12_345n : BigInt(u % 5),
        u % 2 === 0 ? 0n : 1n << 63n,
      ],
    }));
    const porKey = new Uint8Array(32).fill(9);
    const words = new BigUint64Array(users.length * assets.length * 2);
    for (const [u, user] of users.entries()) {
      for (const [a, balance] of user.balances.entries()) {
        words[(u * assets.length + a) * 2] = balance >> 64n;
        words[(u * assets.length + a) * 2 + 1] = balance & 0xffff_ffff_ffff_ffffn;
      }
    }
    const chunks: TreeRows[] = [];
    const built = await buildOffThread(
      {
        porKey,
        snapshotId: 5n,
        assets,
        userIds: new BigUint64Array(users.map((u) => u.userId)),
        words,
        minLeaves: 1,
      },
      async (chunk) => {
        chunks.push(chunk);
      },
    );
    const here = buildTree({
      hasher: nodeHasher,
      porKey,
      snapshotId: 5n,
      assets,
      users,
      userCount: users.length,
      minLeaves: 1,
    });
    const { root, sums } = rootOf(here);
    expect(built).toEqual({ root, sums, depth: here.depth });
    const nodes = chunks.flatMap((c) => (c.kind === 'nodes' ? c.rows : []));
    expect(nodes).toHaveLength(here.levels.reduce((n, level) => n + level.count, 0));
    expect(nodes.filter((n) => n.level === 0).map((n) => n.hash)).toEqual(
      Array.from({ length: here.levels[0]!.count }, (_, i) => toHex(hashAt(here.levels[0]!, i))),
    );
    const leaves = chunks.flatMap((c) => (c.kind === 'leaves' ? c.rows : []));
    expect(leaves.map((l) => l.userId)).toEqual(users.map((u) => u.userId));
    expect(leaves[3]).toEqual({
      userId: users[3]!.userId,
      leafIndex: here.leafIndex.get(users[3]!.userId),
      balances: JSON.stringify(users[3]!.balances.map(String)),
    });
    expect(chunks.length).toBeGreaterThan(2);
  });
});
