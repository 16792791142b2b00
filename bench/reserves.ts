// Proof of reserves: how long the Merkle sum tree over 1,000,000 users takes to build (salts,
// leaves, sorting, every level), with the server's hash functions. The tree only: reading the
// balances and storing the levels come on top.
//
//   npm run bench:reserves            (BENCH_USERS, BENCH_ASSETS to change the size)
import { buildTree, rootOf } from '@bourse/por';
import { nodeHasher as hasher } from '@bourse/por/node-hasher';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const ASSETS = Number(process.env.BENCH_ASSETS ?? 4);

function* users() {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 1; i <= USERS; i++) {
    yield {
      userId: BigInt(1000 + i),
      balances: Array.from({ length: ASSETS }, () => (next() % 4 === 0 ? 0n : BigInt(next()) * 1000n)),
    };
  }
}

const started = performance.now();
const tree = buildTree({
  hasher,
  porKey: new Uint8Array(32).fill(7),
  snapshotId: 1n,
  assets: Array.from({ length: ASSETS }, (_, i) => `A${i}`),
  users: users(),
  userCount: USERS,
});
const seconds = (performance.now() - started) / 1000;
const { root } = rootOf(tree);
console.log(
  `${USERS} users, ${ASSETS} assets: ${tree.leafCount} leaves, depth ${tree.depth}, root ${root.slice(0, 16)}…, ` +
    `heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
);
console.log(`reserves users=${USERS} build_s=${seconds.toFixed(2)}`);
