import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../packages/shared/test/property-runs.ts';
import { LockOrderError, lockOrder } from '../src/modules/ledger/service.ts';
import { DIALECTS, startServer } from './harness.ts';

/**
 * The ledger's lock order (PostgreSQL): platform accounts before users', ascending id within each.
 * Two transactions that lock in one total order cannot each hold a row the other waits for.
 */
const account = fc.record({ id: fc.bigInt({ min: 1n, max: 60n }), isUser: fc.boolean() });
// why: an account's kind is fixed by its id (one row is either a platform's or a user's).
const entry = fc
  .uniqueArray(account, { minLength: 2, maxLength: 8, selector: (a) => a.id })
  .map((accounts) => accounts.map((a) => ({ id: a.id, isUser: a.id % 3n !== 0n })));

describe('the ledger lock order', () => {
  it('locks platform accounts first, then users’, by ascending id within each', () => {
    fc.assert(
      fc.property(entry, (accounts) => {
        const locked = [...accounts].sort(lockOrder);
        const firstUser = locked.findIndex((a) => a.isUser);
        if (firstUser >= 0) expect(locked.slice(firstUser).every((a) => a.isUser)).toBe(true);
        for (let i = 1; i < locked.length; i += 1) {
          const [before, after] = [locked[i - 1]!, locked[i]!];
          if (before.isUser === after.isUser) expect(before.id < after.id).toBe(true);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('gives any two postings the same relative order of the rows they share (no deadlock between them)', () => {
    fc.assert(
      fc.property(entry, entry, (one, two) => {
        const first = [...one].sort(lockOrder).map((a) => a.id);
        const second = [...two].sort(lockOrder).map((a) => a.id);
        const shared = first.filter((id) => second.includes(id));
        expect(second.filter((id) => shared.includes(id))).toEqual(shared);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
describe.skipIf(postgres.skip)('the ledger checks the lock order on PostgreSQL', () => {
  it('refuses a platform account taken after a user’s, and takes it when it was locked first', async () => {
    const server = await startServer('postgres', { env: { DEMO: 'on' } });
    try {
      const { db } = server.app.ctx.store;
      const { ledger } = server.app.ctx;
      const user = { userId: 1n };
      const entries = (ref: string) => [
        {
          type: 'test.one',
          ref,
          postings: [
            { owner: { system: 'house' as const }, asset: 'USDT', kind: 'available' as const, amount: -5n },
            { owner: user, asset: 'USDT', kind: 'available' as const, amount: 5n },
          ],
        },
        {
          type: 'test.two',
          ref,
          postings: [
            { owner: user, asset: 'USDT', kind: 'available' as const, amount: -5n },
            { owner: { system: 'fees' as const }, asset: 'USDT', kind: 'available' as const, amount: 5n },
          ],
        },
      ];
      // why: both platform accounts exist before (a fresh account is the transaction's alone).
      await db.transaction().execute(async (trx) => {
        for (const e of entries('warm-up')) await ledger.post(trx, e);
      });
      await expect(
        db.transaction().execute(async (trx) => {
          for (const e of entries('out-of-order')) await ledger.post(trx, e);
        }),
      ).rejects.toBeInstanceOf(LockOrderError);
      await db.transaction().execute(async (trx) => {
        await ledger.balancesForUpdate(trx, [
          { owner: { system: 'house' }, asset: 'USDT', kind: 'available' },
          { owner: { system: 'fees' }, asset: 'USDT', kind: 'available' },
        ]);
        for (const e of entries('in-order')) await ledger.post(trx, e);
      });
    } finally {
      await server.close();
    }
  }, 60_000);
});
