import type * as repo from './repository.ts';

/** Whether an open order is a trigger order still waiting for its price. */
export function isWaiting(row: repo.OrderRow): boolean {
  return row.trigger_price !== null && row.triggered_at === null;
}

/**
 * The waiting trigger orders of one market, in release order: `gte` by ascending trigger price,
 * `lte` by descending, ties by arrival (as the engine's trigger book releases them).
 */
export class TriggerBook {
  readonly #gte: repo.OrderRow[] = [];
  readonly #lte: repo.OrderRow[] = [];

  arm(row: repo.OrderRow): void {
    const price = row.trigger_price ?? 0n;
    const isGte = row.trigger_condition === 'gte';
    const list = isGte ? this.#gte : this.#lte;
    // why: insert after every order with an equal trigger price so ties release in arrival order.
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = list[mid].trigger_price ?? 0n;
      if (isGte ? other <= price : other >= price) low = mid + 1;
      else high = mid;
    }
    list.splice(low, 0, row);
  }

  disarm(row: repo.OrderRow): void {
    for (const list of [this.#gte, this.#lte]) {
      const at = list.indexOf(row);
      if (at !== -1) list.splice(at, 1);
    }
  }

  /** Takes the next order the last price has reached (`gte` first), or undefined. */
  next(lastPrice: bigint | null): repo.OrderRow | undefined {
    if (lastPrice === null) return undefined;
    const up = this.#gte[0];
    if (up && (up.trigger_price ?? 0n) <= lastPrice) return this.#gte.shift();
    const down = this.#lte[0];
    if (down && (down.trigger_price ?? 0n) >= lastPrice) return this.#lte.shift();
    return undefined;
  }
}
