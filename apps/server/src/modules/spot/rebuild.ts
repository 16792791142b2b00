import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createOrderBook, type EventSink, type OrderBook, ResultCode } from '@bourse/engine';
import type { Db } from '../../platform/db.ts';
import { engineSpec } from './market.ts';
import * as repo from './repository.ts';
import { isWaiting, TriggerBook } from './trigger-book.ts';

/**
 * How many open orders a rebuild reads and places at a time. why: the server answers while the
 * books load, and a market of a year's store holds 35,000 resting orders: read and placed at once
 * they held the event loop about 300 ms; a slice takes about 10 ms, and requests are answered
 * between two.
 */
const LOAD_SLICE = 1000;

const SILENT: Omit<EventSink, 'onTrade'> = {
  onAccepted() {},
  onCancelled() {},
  onTriggered() {},
  onDone() {},
  onBookDelta() {},
};

/**
 * A market's book rebuilt from the store: the open orders that entered the book, re-placed in
 * sequence order, and the trigger orders still waiting, armed again in arrival order; with every
 * open order by sequence. The market must be fenced at this node's epoch first, so that no other
 * writer changes its open orders between two slices. `slice` is for tests.
 */
export async function rebuildBook(
  db: Db,
  market: repo.SpotMarketRow,
  slice = LOAD_SLICE,
): Promise<{ book: OrderBook; live: Map<number, repo.OrderRow>; triggers: TriggerBook }> {
  const book = createOrderBook(engineSpec(market));
  const live = new Map<number, repo.OrderRow>();
  const triggers = new TriggerBook();
  let crossed: bigint | undefined;
  const watch: EventSink = {
    ...SILENT,
    onTrade: (_seq, maker) => {
      crossed ??= BigInt(maker);
    },
  };
  for (let afterSeq = -1n; ; ) {
    const orders = await repo.listOpenOrders(db, market.symbol, afterSeq, slice);
    for (const row of orders) {
      live.set(Number(row.seq), row);
      if (isWaiting(row)) {
        triggers.arm(row);
        continue;
      }
      if (row.price === null || row.qty === null) throw new Error(`open order ${row.id} has no price`);
      // why: resting orders never crossed each other, so re-placing them only rests them again;
      // if two do cross, something wrote the store past the sequencer, and matching them now
      // would trade without a record: the market is refused instead.
      const code = book.apply(
        {
          type: 'place',
          seq: Number(row.seq),
          orderId: Number(row.seq),
          userId: Number(row.user_id),
          side: row.side,
          orderType: 'limit',
          tif: 'gtc',
          price: Number(row.price / market.tick_size),
          qty: Number((row.qty - row.filled_qty) / market.lot_size),
        },
        watch,
      );
      if (crossed !== undefined) {
        const other = live.get(Number(crossed));
        throw new Error(
          `${market.symbol}: open orders ${other?.id ?? `#${crossed}`} and ${row.id} cross; the market is refused until staff resolve them`,
        );
      }
      if (code !== ResultCode.ACCEPTED) throw new Error(`open order ${row.id} does not rebuild (${code})`);
    }
    const last = orders.at(-1);
    if (!last || orders.length < slice) return { book, live, triggers };
    afterSeq = last.seq;
    // why: the store answers at once (SQLite), so nothing else would run between two slices.
    await yieldToLoop();
  }
}
