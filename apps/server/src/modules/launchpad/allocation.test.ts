import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../../../packages/shared/test/property-runs.ts';
import { allocateProRata, costOf, demandOf } from './allocation.ts';

const A = 100_000_000n; // atoms per unit
const S = 1_000_000n * A;
const P = A / 10n; // 0.10 USDT per token
const H = 300_000n * A;

const commit = (id: number, usdt: bigint, at = id) => ({
  recordId: BigInt(id),
  userId: BigInt(id),
  committed: usdt * A,
  createdAt: at,
});

describe('launchpad pro-rata allocation', () => {
  it('L3: caps A and D, B and C get full demand, Σq = S', () => {
    const out = allocateProRata(
      [commit(1, 60_000n), commit(2, 30_000n), commit(3, 10_000n), commit(4, 100_000n)],
      S,
      P,
      H,
    );
    expect(out.map((o) => o.quantity / A)).toEqual([300_000n, 300_000n, 100_000n, 300_000n]);
    expect(out.map((o) => o.paid / A)).toEqual([30_000n, 30_000n, 10_000n, 30_000n]);
    expect(out.map((o) => o.refunded / A)).toEqual([30_000n, 0n, 0n, 70_000n]);
    expect(out.reduce((s, o) => s + o.quantity, 0n)).toBe(S);
  });

  it('L4: demand below supply fills everyone fully', () => {
    const out = allocateProRata([commit(1, 30_000n), commit(2, 10_000n)], S, P, H);
    expect(out.map((o) => o.quantity / A)).toEqual([300_000n, 100_000n]);
    expect(S - out.reduce((s, o) => s + o.quantity, 0n)).toBe(600_000n * A);
  });

  it('L1 cost: 20,000 tokens at 0.10 cost 2,000 USDT; cost rounds up', () => {
    expect(costOf(20_000n * A, P)).toBe(2_000n * A);
    expect(costOf(1n, P)).toBe(1n);
    expect(demandOf(1n, P)).toBe(10n);
  });

  it('largest remainder: ties go to the earlier commit', () => {
    const out = allocateProRata(
      [
        { recordId: 1n, userId: 9n, committed: 10n, createdAt: 2 },
        { recordId: 2n, userId: 8n, committed: 10n, createdAt: 1 },
      ],
      3n,
      A,
      1_000n,
    );
    expect(out.map((o) => o.quantity)).toEqual([1n, 2n]);
  });

  it('property: Σq ≤ S, nobody above the limit, paid + refunded = committed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 14n }), { minLength: 1, maxLength: 30 }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        (cs, supply, price, limit) => {
          const out = allocateProRata(
            cs.map((c, i) => ({ recordId: BigInt(i), userId: BigInt(i), committed: c, createdAt: i })),
            supply,
            price,
            limit,
          );
          expect(out.reduce((s, o) => s + o.quantity, 0n) <= supply).toBe(true);
          out.forEach((o, i) => {
            expect(o.quantity <= limit).toBe(true);
            expect(o.refunded >= 0n).toBe(true);
            expect(o.paid + o.refunded).toBe(cs[i]);
          });
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
});
