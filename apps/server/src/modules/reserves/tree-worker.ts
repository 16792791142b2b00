// Builds a reserves snapshot's Merkle sum tree on a thread of its own (started by `buildOffThread`,
// tree-build.ts): at 200,000 users the build takes about ten seconds of hashing, which on the
// server's event loop held every request and order that long. The users come in as typed arrays
// (moved, not copied); the rows to store go back in chunks, so the server's thread never
// receives hundreds of thousands of objects in one message.
import { parentPort, workerData } from 'node:worker_threads';
import { buildTree, hashAt, rootOf, sumsAt, toHex } from '@bourse/por';
import { nodeHasher } from '@bourse/por/node-hasher';
import type { TreeMessage, TreeWorkerData } from './tree-build.ts';

/**
 * Rows a message carries, each stored by one statement on the store's writing connection. why: at
 * 2,000 a statement held that connection 10–20 ms, and order entry's batches waited behind it
 * (p99 24.6 ms against 4.5 idle while a year's snapshot was stored); 500 keep each wait short.
 */
const CHUNK = 500;
const input = workerData as TreeWorkerData;
const port = parentPort;
if (!port) throw new Error('the tree builder runs as a worker');

try {
  const k = input.assets.length;
  const users = Array.from({ length: input.userIds.length }, (_, u) => ({
    userId: input.userIds[u] as bigint,
    balances: Array.from({ length: k }, (_, a) => {
      const at = 2 * (u * k + a);
      return ((input.words[at] as bigint) << 64n) | (input.words[at + 1] as bigint);
    }),
  }));
  const tree = buildTree({
    hasher: nodeHasher,
    porKey: input.porKey,
    snapshotId: input.snapshotId,
    assets: input.assets,
    users,
    userCount: users.length,
    minLeaves: input.minLeaves,
  });
  const { root, sums } = rootOf(tree);
  const send = (message: TreeMessage) => {
    if (message.kind === 'nodes' || message.kind === 'leaves') takeCredit(input.credits);
    port.postMessage(message);
  };
  let nodes: Extract<TreeMessage, { kind: 'nodes' }>['rows'] = [];
  for (const [l, level] of tree.levels.entries()) {
    for (let i = 0; i < level.count; i++) {
      nodes.push({
        level: l,
        idx: i,
        hash: toHex(hashAt(level, i)),
        sums: JSON.stringify(sumsAt(tree, level, i).map(String)),
      });
      if (nodes.length === CHUNK) {
        send({ kind: 'nodes', rows: nodes });
        nodes = [];
      }
    }
  }
  if (nodes.length > 0) send({ kind: 'nodes', rows: nodes });
  for (let i = 0; i < users.length; i += CHUNK) {
    send({
      kind: 'leaves',
      rows: users.slice(i, i + CHUNK).map((user) => ({
        userId: user.userId,
        leafIndex: tree.leafIndex.get(user.userId) as number,
        balances: JSON.stringify(user.balances.map(String)),
      })),
    });
  }
  send({ kind: 'done', root, sums, depth: tree.depth });
} catch (error) {
  port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies TreeMessage);
}

/**
 * Waits until the server has stored enough chunks to take another (buildOffThread's window).
 * why: a wait with a timeout, so a thread whose server gave up is ended between two waits.
 */
function takeCredit(credits: Int32Array): void {
  for (;;) {
    const left = Atomics.load(credits, 0);
    if (left > 0) {
      if (Atomics.compareExchange(credits, 0, left, left - 1) === left) return;
      continue;
    }
    Atomics.wait(credits, 0, left, 1000);
  }
}
