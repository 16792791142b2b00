import type { BookSnapshot, CancelReason, Command, EventSink, Side } from '../src/index.ts';

/**
 * The benchmark's event sink: receives every event and folds it into counters and sums, so events
 * are really emitted and consumed (nothing for the optimiser to drop) while the sink itself stays
 * cheap. Two books that emitted the same events end with equal counters.
 */
export class CountingSink implements EventSink {
  accepted = 0;
  trades = 0;
  tradedQty = 0;
  tradedQuote = 0;
  cancelled = 0;
  cancelledQty = 0;
  triggered = 0;
  done = 0;
  deltas = 0;
  deltaQty = 0;

  onAccepted(): void {
    this.accepted++;
  }

  onTrade(
    _seq: number,
    _makerOrderId: number,
    _makerUserId: number,
    _takerOrderId: number,
    _takerUserId: number,
    price: number,
    qty: number,
  ): void {
    this.trades++;
    this.tradedQty += qty;
    this.tradedQuote += price * qty;
  }

  onCancelled(_seq: number, _orderId: number, _userId: number, qty: number, _reason: CancelReason): void {
    this.cancelled++;
    this.cancelledQty += qty;
  }

  onTriggered(): void {
    this.triggered++;
  }

  onDone(): void {
    this.done++;
  }

  onBookDelta(_seq: number, _side: Side, _price: number, qty: number): void {
    this.deltas++;
    this.deltaQty += qty;
  }

  /** The counters as one comparable line. */
  describe(): string {
    return [
      `accepted=${this.accepted}`,
      `trades=${this.trades}`,
      `tradedQty=${this.tradedQty}`,
      `tradedQuote=${this.tradedQuote}`,
      `cancelled=${this.cancelled}`,
      `cancelledQty=${this.cancelledQty}`,
      `done=${this.done}`,
      `deltas=${this.deltas}`,
      `deltaQty=${this.deltaQty}`,
    ].join(' ');
  }
}

/** Latency percentiles in nanoseconds, plus how often an operation took over 20 µs. */
export interface LatencySummary {
  p50: number;
  p99: number;
  p999: number;
  p9999: number;
  max: number;
  /** Operations over 20 µs per second of the pass's running time. */
  stallsPerSecond: number;
}

/** Nearest-rank percentiles of per-operation latencies (sorts the array in place). */
export function summarizeLatencies(latencies: Float64Array): LatencySummary {
  let total = 0;
  let stalls = 0;
  for (let i = 0; i < latencies.length; i++) {
    total += latencies[i];
    if (latencies[i] > 20_000) stalls++;
  }
  latencies.sort();
  const at = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  return {
    p50: at(0.5),
    p99: at(0.99),
    p999: at(0.999),
    p9999: at(0.9999),
    max: latencies[latencies.length - 1],
    stallsPerSecond: (stalls * 1e9) / total,
  };
}

/**
 * The machine's own pauses: spins on the timer for `seconds` and counts gaps over 20 µs per second.
 * Compared with an operation's `stallsPerSecond`, it shows how much of a tail the host alone causes.
 */
export function measureHostStalls(seconds: number): number {
  const started = performance.now();
  const end = started + seconds * 1000;
  let stalls = 0;
  let previous = started;
  for (;;) {
    const now = performance.now();
    if (now - previous > 0.02) stalls++;
    previous = now;
    if (now >= end) return stalls / ((now - started) / 1000);
  }
}

/** One resting order per level line: `side price id:qty …`, best price first, FIFO within the level. */
export function canonicalizeSnapshot(snapshot: BookSnapshot): string[] {
  const lines: string[] = [];
  for (const orders of [snapshot.bids, snapshot.asks]) {
    let line = '';
    let price = -1;
    for (const order of orders) {
      if (order.price !== price) {
        if (line !== '') lines.push(line);
        price = order.price;
        line = `${order.side} ${price}`;
      }
      line += ` ${order.orderId}:${order.qty}`;
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** `1234567` → `1,234,567`. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Nanoseconds → a short human figure (`85 ns`, `1.24 µs`, `3.1 ms`). */
export function formatNanos(nanos: number): string {
  if (nanos < 1_000) return `${Math.round(nanos)} ns`;
  if (nanos < 1_000_000) return `${(nanos / 1_000).toFixed(2)} µs`;
  return `${(nanos / 1_000_000).toFixed(2)} ms`;
}

/** FNV-1a (32-bit) over every command's fields: equal workloads give equal checksums. */
export function checksumCommands(commands: readonly Command[]): string {
  let hash = 0x811c9dc5;
  const mix = (value: number): void => {
    hash = Math.imul(hash ^ (value | 0), 0x01000193);
    hash = Math.imul(hash ^ ((value / 4294967296) | 0), 0x01000193);
  };
  for (const command of commands) {
    mix(command.seq);
    if (command.type === 'cancel') {
      mix(1);
      mix(command.orderId);
      mix(command.userId);
    } else if (command.type === 'place') {
      mix(command.orderType === 'market' ? 2 : 3);
      mix(command.side === 'buy' ? 4 : 5);
      mix(command.orderId);
      mix(command.userId);
      mix(command.price ?? 0);
      mix(command.qty ?? 0);
    }
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
