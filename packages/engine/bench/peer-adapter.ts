import { OrderBook as PeerOrderBook, Side as PeerSide } from 'nodejs-order-book';
import type { Command } from '../src/index.ts';

/** A command translated to the peer's API ahead of time, so the timed loop measures only the peer. */
type PeerOp =
  | { kind: 'limit'; options: { id: string; side: PeerSide; size: number; price: number } }
  | { kind: 'market'; options: { side: PeerSide; size: number } }
  | { kind: 'cancel'; id: string };

/** One resting order per line: `side price id:qty …`, best price first, FIFO within the level. */
export type CanonicalBook = string[];

/**
 * Drives `nodejs-order-book` with the benchmark workload. Order ids become strings (the peer's
 * id type) and option objects are built before timing starts; `run` is a plain dispatch.
 */
export class PeerAdapter {
  private book = new PeerOrderBook();

  /** Translates engine commands (limit GTC — the peer's default — market by quantity, cancel) to peer calls. */
  static prepare(commands: readonly Command[]): PeerOp[] {
    return commands.map((command): PeerOp => {
      if (command.type === 'cancel') return { kind: 'cancel', id: String(command.orderId) };
      if (command.type !== 'place') throw new Error(`peer adapter: unsupported command ${command.type}`);
      const side = command.side === 'buy' ? PeerSide.BUY : PeerSide.SELL;
      if (command.orderType === 'market')
        return { kind: 'market', options: { side, size: command.qty ?? 0 } };
      return {
        kind: 'limit',
        options: {
          id: String(command.orderId),
          side,
          size: command.qty ?? 0,
          price: command.price ?? 0,
        },
      };
    });
  }

  reset(): void {
    this.book = new PeerOrderBook();
  }

  run(op: PeerOp): void {
    if (op.kind === 'limit') this.book.limit(op.options);
    else if (op.kind === 'market') this.book.market(op.options);
    else this.book.cancel(op.id);
  }

  /** The peer's resting orders in canonical form, comparable with `canonicalizeSnapshot`. */
  readBook(): CanonicalBook {
    const snapshot = this.book.snapshot();
    const lines: string[] = [];
    for (const [name, levels] of [
      ['buy', snapshot.bids],
      ['sell', snapshot.asks],
    ] as const) {
      for (const level of levels) {
        lines.push(`${name} ${level.price} ${level.orders.map((o) => `${o.id}:${o.size}`).join(' ')}`);
      }
    }
    return lines;
  }
}

export type { PeerOp };
