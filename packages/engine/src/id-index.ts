const EMPTY = -1;
const TWO_32 = 4294967296;
/** Ids covered by the direct-mapped window (a power of two). */
const DEFAULT_WINDOW = 65536;

/**
 * Maps order ids (positive safe integers) to slot numbers without allocating per operation.
 *
 * Order ids come from a sequence, so the live ones are mostly recent: ids in the window
 * `[base, base + window)` are stored directly in a ring indexed by `id mod window` — one array read,
 * no hashing, and the live part of the ring stays in cache. When a new id lies past the window, the
 * window advances just far enough to cover it, moving any still-live id that falls behind it into a
 * hash table ({@link IdHashTable}); ids older than the window, or arbitrary ids, live there too.
 * Each id is in exactly one of the two places.
 */
export class IdIndex {
  private readonly ring: Int32Array;
  private readonly mask: number;
  private base = 0;
  private ringCount = 0;
  private readonly older = new IdHashTable();

  constructor(window = DEFAULT_WINDOW) {
    this.ring = new Int32Array(window).fill(EMPTY);
    this.mask = window - 1;
  }

  get size(): number {
    return this.ringCount + this.older.size;
  }

  /** @returns the slot of `id`, or -1 when absent. */
  get(id: number): number {
    const offset = id - this.base;
    if (offset >= 0 && offset <= this.mask) return this.ring[id & this.mask];
    return this.older.size === 0 ? EMPTY : this.older.get(id);
  }

  /** Adds `id` (which must be absent). */
  set(id: number, slot: number): void {
    if (id - this.base > this.mask) this.advance(id - this.mask);
    if (id >= this.base) {
      this.ring[id & this.mask] = slot;
      this.ringCount++;
    } else {
      this.older.set(id, slot);
    }
  }

  /** Removes `id` if present. */
  delete(id: number): void {
    const offset = id - this.base;
    if (offset >= 0 && offset <= this.mask) {
      const at = id & this.mask;
      if (this.ring[at] !== EMPTY) {
        this.ring[at] = EMPTY;
        this.ringCount--;
      }
    } else if (this.older.size > 0) {
      this.older.delete(id);
    }
  }

  /** Moves the window's start to `base`, handing live ids that fall behind it to the hash table. */
  private advance(base: number): void {
    const ring = this.ring;
    const leaving = Math.min(base - this.base, ring.length);
    for (let k = 0; k < leaving && this.ringCount > 0; k++) {
      const id = this.base + k;
      const at = id & this.mask;
      const slot = ring[at];
      if (slot !== EMPTY) {
        this.older.set(id, slot);
        ring[at] = EMPTY;
        this.ringCount--;
      }
    }
    this.base = base;
  }
}

/**
 * Hash table from id to slot: open addressing with linear probing, deletion by backward shift (no
 * tombstones), load factor ≤ 1/2. Each bucket is a (key, slot) pair side by side in one
 * Float64Array, so a probe touches one cache line; it allocates only when it doubles.
 */
export class IdHashTable {
  /** Bucket i: key at 2i, slot at 2i + 1 (-1 = empty bucket). */
  private table: Float64Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 64) {
    let buckets = 16;
    while (buckets < capacity * 2) buckets *= 2;
    this.table = new Float64Array(buckets * 2).fill(EMPTY);
    this.mask = buckets - 1;
  }

  get size(): number {
    return this.count;
  }

  /** @returns the slot of `id`, or -1 when absent. */
  get(id: number): number {
    const table = this.table;
    const mask = this.mask;
    let i = hashId(id) & mask;
    for (;;) {
      const slot = table[2 * i + 1];
      if (slot === EMPTY || table[2 * i] === id) return slot;
      i = (i + 1) & mask;
    }
  }

  /** Adds `id` (which must be absent). */
  set(id: number, slot: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    const table = this.table;
    const mask = this.mask;
    let i = hashId(id) & mask;
    while (table[2 * i + 1] !== EMPTY) i = (i + 1) & mask;
    table[2 * i] = id;
    table[2 * i + 1] = slot;
    this.count++;
  }

  /** Removes `id` if present. */
  delete(id: number): void {
    const table = this.table;
    const mask = this.mask;
    let i = hashId(id) & mask;
    for (;;) {
      if (table[2 * i + 1] === EMPTY) return;
      if (table[2 * i] === id) break;
      i = (i + 1) & mask;
    }
    // why: backward shift keeps every probe chain unbroken without tombstones — an entry moves into
    // the hole unless its home lies cyclically within (hole, entry].
    let hole = i;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (table[2 * j + 1] === EMPTY) break;
      const key = table[2 * j];
      const home = hashId(key) & mask;
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!stays) {
        table[2 * hole] = key;
        table[2 * hole + 1] = table[2 * j + 1];
        hole = j;
      }
    }
    table[2 * hole + 1] = EMPTY;
    this.count--;
  }

  private grow(): void {
    const old = this.table;
    const buckets = (this.mask + 1) * 2;
    this.table = new Float64Array(buckets * 2).fill(EMPTY);
    this.mask = buckets - 1;
    this.count = 0;
    for (let i = 1; i < old.length; i += 2) {
      if (old[i] !== EMPTY) this.set(old[i - 1], old[i]);
    }
  }
}

function hashId(id: number): number {
  let h = id | 0;
  // why: ids below 2^31 (nearly all) skip the float division that extracts the high word.
  if (id > 0x7fffffff) h ^= Math.imul((id / TWO_32) | 0, 0x27d4eb2d);
  h = Math.imul(h, 0x9e3779b1);
  return h ^ (h >>> 16);
}
