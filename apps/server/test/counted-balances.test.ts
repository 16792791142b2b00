import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountKind, UserBalance } from '../src/modules/ledger/service.ts';
import { COUNTED_KINDS, CountedBalances, TRIAL_KINDS } from '../src/modules/reserves/counted-balances.ts';

const KINDS: AccountKind[] = [...COUNTED_KINDS, ...TRIAL_KINDS, 'fee_rebate' as AccountKind];
const ASSETS = ['BTC', 'ETH', 'USDT', 'XRP'];

/** What the snapshot must count, computed the plain way: a map per user. */
function expected(rows: UserBalance[]) {
  const users = new Map<bigint, Map<string, bigint>>();
  const totals = new Map<string, bigint>();
  const trial = new Map<string, bigint>();
  for (const row of rows) {
    if (TRIAL_KINDS.includes(row.kind)) trial.set(row.asset, (trial.get(row.asset) ?? 0n) + row.balance);
    if (!COUNTED_KINDS.includes(row.kind)) continue;
    const user = users.get(row.userId) ?? new Map<string, bigint>();
    user.set(row.asset, (user.get(row.asset) ?? 0n) + row.balance);
    users.set(row.userId, user);
    totals.set(row.asset, (totals.get(row.asset) ?? 0n) + row.balance);
  }
  const assets = [...totals.keys()].sort();
  const ids = [...users.keys()].sort((a, b) => (a < b ? -1 : 1));
  const balances = ids.map((id) => assets.map((asset) => users.get(id)?.get(asset) ?? 0n));
  return { assets, ids, balances, totals, trial };
}

const row = fc.record({
  userId: fc.bigInt({ min: 1n, max: 40n }),
  asset: fc.constantFrom(...ASSETS),
  kind: fc.constantFrom(...KINDS),
  // why: beyond one 64-bit word, which the tree's input splits in two.
  balance: fc.bigInt({ min: 1n, max: 2n ** 100n }),
});

describe('a snapshot’s counted balances', () => {
  it('add up, slice by slice, to what a map per user gives (any rows, any slicing)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 120 }),
        fc.integer({ min: 1, max: 15 }),
        async (raw, width) => {
          // why: the ledger hands slices of users in id order; a user's rows in any order inside one.
          const rows = [...raw].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
          const counted = new CountedBalances();
          for (let from = 0n; from <= 40n; from += BigInt(width)) {
            await counted.add(rows.filter((r) => r.userId > from && r.userId <= from + BigInt(width)));
          }
          const want = expected(rows);
          const got = await counted.treeInput();
          expect(got.assets).toEqual(want.assets);
          expect([...got.userIds]).toEqual(want.ids);
          const k = got.assets.length;
          const balances = want.ids.map((_, u) =>
            got.assets.map((_, a) => (got.words[2 * (u * k + a)]! << 64n) | got.words[2 * (u * k + a) + 1]!),
          );
          expect(balances).toEqual(want.balances);
          expect(counted.totals).toEqual(want.totals);
          expect(counted.trialTotal).toEqual(want.trial);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a negative balance, and users out of order', async () => {
    const negative = new CountedBalances();
    await expect(
      negative.add([{ userId: 3n, asset: 'BTC', kind: 'available', balance: -1n }]),
    ).rejects.toThrow('user 3 has a negative BTC available balance');
    const disordered = new CountedBalances();
    await disordered.add([{ userId: 5n, asset: 'BTC', kind: 'available', balance: 1n }]);
    await expect(disordered.add([{ userId: 4n, asset: 'BTC', kind: 'frozen', balance: 1n }])).rejects.toThrow(
      "user 4's balances came out of order",
    );
  });
});
