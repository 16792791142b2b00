// Pure pro-rata allocation for a launchpad project (products rule 4). No I/O: the distribution job
// feeds it the project's commitments and posts what it returns.

const ATOMS = 100_000_000n;

export interface Commitment {
  recordId: bigint;
  userId: bigint;
  /** Quote atoms frozen by the user. */
  committed: bigint;
  /** Commit time in ms; earlier wins a tie in the largest-remainder step. */
  createdAt: number;
}

export interface Allocation {
  recordId: bigint;
  /** Token atoms allocated. */
  quantity: bigint;
  /** Quote atoms paid: ceil(quantity · price / 10^8), never above `committed`. */
  paid: bigint;
  /** committed − paid. */
  refunded: bigint;
}

/** Cost of `quantity` token atoms at `price` quote atoms per token: ceil(q·P/10^8). */
export function costOf(quantity: bigint, price: bigint): bigint {
  return (quantity * price + ATOMS - 1n) / ATOMS;
}

/** Token atoms a commitment can buy outright: floor(c·10^8/P). */
export function demandOf(committed: bigint, price: bigint): bigint {
  return (committed * ATOMS) / price;
}

/**
 * Water-filling with largest remainder. `supply` and `individualLimit` are token atoms.
 * If total demand fits, everyone gets their demand; otherwise uncapped users share the remaining
 * supply by commitment, users whose share reaches their cap are fixed at it and removed, repeated
 * until nobody is newly capped; the atoms left by flooring go one each by largest remainder
 * (ties: earlier commit, then lower user id), never above a cap.
 */
export function allocateProRata(
  commitments: readonly Commitment[],
  supply: bigint,
  price: bigint,
  individualLimit: bigint,
): Allocation[] {
  const cap = new Map<bigint, bigint>();
  // why: "everyone gets dᵢ" is read with the individual limit applied — nobody ever exceeds H.
  let totalCapped = 0n;
  for (const c of commitments) {
    const d = demandOf(c.committed, price);
    const k = d < individualLimit ? d : individualLimit;
    totalCapped += k;
    cap.set(c.recordId, k);
  }
  const quantity = new Map<bigint, bigint>();
  if (totalCapped <= supply) {
    for (const c of commitments) quantity.set(c.recordId, cap.get(c.recordId) ?? 0n);
  } else {
    let active = commitments.filter((c) => c.committed > 0n);
    let remaining = supply;
    for (;;) {
      const total = active.reduce((s, c) => s + c.committed, 0n);
      if (total === 0n) break;
      const capped = active.filter((c) => (remaining * c.committed) / total >= (cap.get(c.recordId) ?? 0n));
      if (capped.length === 0) break;
      for (const c of capped) {
        const q = cap.get(c.recordId) ?? 0n;
        quantity.set(c.recordId, q);
        remaining -= q;
      }
      active = active.filter((c) => !capped.includes(c));
    }
    const total = active.reduce((s, c) => s + c.committed, 0n);
    if (total > 0n) {
      const rem = new Map<bigint, bigint>();
      let given = 0n;
      for (const c of active) {
        const q = (remaining * c.committed) / total;
        quantity.set(c.recordId, q);
        rem.set(c.recordId, (remaining * c.committed) % total);
        given += q;
      }
      let left = remaining - given;
      const order = [...active].sort((a, b) => {
        const ra = rem.get(a.recordId) ?? 0n;
        const rb = rem.get(b.recordId) ?? 0n;
        if (ra !== rb) return ra > rb ? -1 : 1;
        if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
        return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
      });
      for (const c of order) {
        if (left === 0n) break;
        const q = quantity.get(c.recordId) ?? 0n;
        if (q < (cap.get(c.recordId) ?? 0n)) {
          quantity.set(c.recordId, q + 1n);
          left -= 1n;
        }
      }
    }
  }
  return commitments.map((c) => {
    const q = quantity.get(c.recordId) ?? 0n;
    const paid = costOf(q, price);
    return { recordId: c.recordId, quantity: q, paid, refunded: c.committed - paid };
  });
}
