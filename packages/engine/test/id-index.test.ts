import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../shared/test/property-runs.ts';
import { IdHashTable, IdIndex } from '../src/id-index.ts';

interface IdMap {
  get(id: number): number;
  set(id: number, slot: number): void;
  delete(id: number): void;
  readonly size: number;
}

/** Runs set/delete/get steps against `index` and a `Map`; true when they always agree. */
function agreesWithMap(index: IdMap, steps: Array<['set' | 'delete' | 'get', number]>): boolean {
  const model = new Map<number, number>();
  let agree = true;
  steps.forEach(([kind, id], n) => {
    if (kind === 'set' && !model.has(id)) {
      index.set(id, n);
      model.set(id, n);
    } else if (kind === 'delete') {
      index.delete(id);
      model.delete(id);
    }
    agree &&= index.get(id) === (model.get(id) ?? -1) && index.size === model.size;
  });
  for (const [id, slot] of model) agree &&= index.get(id) === slot;
  return agree;
}

/** Mostly increasing ids with gaps (a sequence shared by several markets), sometimes far jumps or old ids. */
const idSteps = fc
  .array(
    fc.tuple(
      fc.constantFrom<'set' | 'delete' | 'get'>('set', 'set', 'delete', 'get'),
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 100_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) },
      ),
      fc.boolean(),
    ),
    { maxLength: 1_500, size: 'max' },
  )
  .map((raw) => {
    let next = 1;
    const issued: number[] = [];
    return raw.map(([kind, n, fresh]): ['set' | 'delete' | 'get', number] => {
      if (kind === 'set' && fresh) {
        // why: a gap of n between consecutive ids; large n jumps the window, huge n lands far away.
        next = n > 100_000 ? n : Math.min(next + 1 + n, Number.MAX_SAFE_INTEGER);
        issued.push(next);
        return [kind, next];
      }
      // Old ids, recent ids, the id just past the newest (the window's edge) and never-issued ids.
      if (n % 7 === 0) return [kind, next + 1];
      if (issued.length > 0 && n % 3 !== 0) return [kind, issued[issued.length - 1 - (n % issued.length)]];
      return [kind, 1 + (n % 200)];
    });
  });

describe('IdIndex (the fast book’s order-id → slot map)', () => {
  it('behaves like a Map for any mix of recent, old, far and strided ids, through window moves', () => {
    fc.assert(
      fc.property(idSteps, fc.constantFrom(16, 64, 65536), (steps, window) =>
        agreesWithMap(new IdIndex(window), steps),
      ),
      { numRuns: propertyRuns(150) },
    );
  });

  it('its hash table behaves like a Map under random inserts, deletes and lookups, through growth', () => {
    const key = fc.oneof(
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 0, max: 300 }).map((k) => k * 4096),
    );
    const step = fc.tuple(fc.constantFrom<'set' | 'delete' | 'get'>('set', 'delete', 'get'), key);
    fc.assert(
      fc.property(fc.array(step, { maxLength: 1_500, size: 'max' }), (steps) =>
        agreesWithMap(new IdHashTable(4), steps),
      ),
      { numRuns: propertyRuns(120) },
    );
  });

  it('keeps a live id findable after the window has moved far past it', () => {
    const index = new IdIndex(16);
    index.set(3, 30);
    for (let id = 4; id < 1_000; id++) {
      index.set(id, id);
      index.delete(id);
    }
    expect(index.get(3)).toBe(30);
    expect(index.size).toBe(1);
    index.delete(3);
    expect(index.get(3)).toBe(-1);
    expect(index.size).toBe(0);
  });
});
