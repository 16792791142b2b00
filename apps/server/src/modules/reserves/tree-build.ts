import { Worker } from 'node:worker_threads';

/** What the tree builder needs: the users' ids and, per user, one balance per asset (flattened). */
export interface TreeInput {
  porKey: Uint8Array;
  snapshotId: bigint;
  assets: string[];
  userIds: BigUint64Array;
  /**
   * User u's balance of asset a, in two 64-bit words (high, low) at `2 * (u * assets.length + a)`:
   * a balance may reach 2^128 atoms, beyond one word.
   */
  words: BigUint64Array;
  minLeaves?: number;
}

export type TreeMessage =
  | { kind: 'nodes'; rows: { level: number; idx: number; hash: string; sums: string }[] }
  | { kind: 'leaves'; rows: { userId: bigint; leafIndex: number; balances: string }[] }
  | { kind: 'done'; root: string; sums: bigint[]; depth: number }
  | { kind: 'failed'; message: string };

export type TreeRows = Extract<TreeMessage, { kind: 'nodes' | 'leaves' }>;

/**
 * Chunks the builder may send ahead of the ones stored. why: sent all at once, a year's 1,450
 * chunks arrived together and were turned into 724,000 row objects on the server's thread in a
 * second or two, holding order entry 25–38 ms at a time meanwhile.
 */
export const CHUNKS_AHEAD = 4;

/** The builder's side of the window: workerData's `credits`, one per chunk it may send. */
export interface TreeWorkerData extends TreeInput {
  credits: Int32Array;
}

/**
 * Builds the tree on a worker thread (tree-worker.ts) and hands each chunk of rows to `store`, one
 * at a time and in order, the thread sending at most {@link CHUNKS_AHEAD} ahead of the ones
 * stored; answers the root, its sums and the depth once every chunk is stored.
 */
export async function buildOffThread(
  input: TreeInput,
  store: (rows: TreeRows) => Promise<void>,
): Promise<{ root: string; sums: bigint[]; depth: number }> {
  const credits = new Int32Array(new SharedArrayBuffer(4));
  credits[0] = CHUNKS_AHEAD;
  const worker = new Worker(new URL('./tree-worker.ts', import.meta.url), {
    workerData: { ...input, credits } satisfies TreeWorkerData,
    transferList: [input.userIds.buffer as ArrayBuffer, input.words.buffer as ArrayBuffer],
  });
  try {
    return await new Promise((resolve, reject) => {
      let chain = Promise.resolve();
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      worker.on('message', (message: TreeMessage) => {
        chain = chain.then(async () => {
          if (settled) return;
          if (message.kind === 'failed') fail(new Error(`the tree could not be built: ${message.message}`));
          else if (message.kind === 'done') {
            settled = true;
            resolve({ root: message.root, sums: message.sums, depth: message.depth });
          } else {
            await store(message);
            Atomics.add(credits, 0, 1);
            Atomics.notify(credits, 0);
          }
        });
        chain.catch((error: unknown) => fail(error as Error));
      });
      worker.once('error', fail);
      worker.once('exit', (code) => {
        void chain.then(() => fail(new Error(`the tree builder ended (${code}) before its tree`)));
      });
    });
  } finally {
    await worker.terminate();
  }
}
