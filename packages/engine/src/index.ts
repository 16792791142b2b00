/**
 * @bourse/engine: a pure central-limit-order-book matching engine (no I/O, no clock, no
 * randomness). See README.md for the command set, events and result codes.
 */
import { FAST_BOOK } from './fast-book.ts';
import type { MarketSpec, OrderBook } from './types.ts';

export type { EngineEvent } from './event-recorder.ts';
export { EventRecorder } from './event-recorder.ts';
export { createFastBook, FAST_BOOK, FastBook, restoreFastBook } from './fast-book.ts';
export { hashSnapshot } from './hash.ts';
export { createNaiveBook, NAIVE_BOOK, NaiveBook, restoreNaiveBook } from './naive-book.ts';
export * from './types.ts';
export {
  getResultCodeName,
  getResultStage,
  MAX_PRICE,
  validateMarketSpec,
  validatePlace,
} from './validate.ts';

/** Creates an empty book for a market with the production (fast) implementation. */
export function createOrderBook(spec: MarketSpec): OrderBook {
  return FAST_BOOK.create(spec);
}
