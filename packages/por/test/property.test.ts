import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../shared/test/property-runs.ts';
import {
  buildTree,
  GENESIS_PREV,
  hashAt,
  proofFrom,
  rootOf,
  type SnapshotHeader,
  salt,
  sumsAt,
  verifyProof,
} from '../src/index.ts';
import { nodeHasher } from '../src/node-hasher.ts';

const POR_KEY = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const ASSETS = ['BTC', 'ETH', 'USDT'];

describe('random ledgers', () => {
  it('give root sums equal to the per-asset totals, and every user’s proof verifies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            userId: fc.bigInt({ min: 1n, max: 2n ** 40n }),
            balances: fc.array(
              fc.oneof(
                fc.constant(0n),
                fc.bigInt({ min: 0n, max: 10n ** 20n }),
                fc.bigInt({ min: 0n, max: 2n ** 120n }),
              ),
              { minLength: ASSETS.length, maxLength: ASSETS.length },
            ),
          }),
          { minLength: 0, maxLength: 40, selector: (u) => u.userId },
        ),
        fc.bigInt({ min: 1n, max: 2n ** 32n }),
        async (users, snapshotId) => {
          const tree = buildTree({
            hasher: nodeHasher,
            porKey: POR_KEY,
            snapshotId,
            assets: ASSETS,
            users,
            userCount: users.length,
            minLeaves: 8,
          });
          const totals = ASSETS.map((_, a) => users.reduce((sum, u) => sum + (u.balances[a] as bigint), 0n));
          const { root, sums } = rootOf(tree);
          expect(sums).toEqual(totals);
          const header = {
            version: 1,
            snapshot_id: Number(snapshotId),
            taken_at: '2026-11-24T00:00:00Z',
            ledger_seq: 1,
            assets: ASSETS,
            leaf_count: tree.leafCount,
            depth: tree.depth,
            root,
            root_sums: sums.map(String),
            trial_total: {},
            reserves: [],
            reserve_totals: {},
            ratios: {},
            prev: GENESIS_PREV,
            sig: '',
          } satisfies SnapshotHeader;
          for (const user of users) {
            const proof = proofFrom({
              snapshotId,
              userId: user.userId,
              salt: salt(nodeHasher, POR_KEY, snapshotId, user.userId),
              balances: user.balances,
              leafIndex: tree.leafIndex.get(user.userId) as number,
              depth: tree.depth,
              sibling: (l, i) => ({
                hash: hashAt(tree.levels[l]!, i),
                sums: sumsAt(tree, tree.levels[l]!, i),
              }),
            });
            expect(await verifyProof(proof, header)).toEqual(user.balances);
          }
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });
});
