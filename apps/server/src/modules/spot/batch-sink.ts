// What a sequencer batch does, folded from the engine's events: order rows, trades, the book's
// changed levels and the ledger postings the batch writes in its one transaction.

import type { CancelReason, EventSink, Side } from '@bourse/engine';
import type { AppError } from '@bourse/shared';
import type { Millis } from '../../platform/schema.ts';
import type { Posting } from '../ledger/service.ts';
import type { SequencerResult } from './commands.ts';
import { quoteOf, quotePerTickLot } from './market.ts';
import type * as repo from './repository.ts';

const REASONS: Record<CancelReason, string> = {
  user: 'user',
  reduce: 'user',
  unfilled: 'unfilled',
  fok: 'fok',
  'post-only': 'post_only',
  'self-trade': 'self_trade',
};

export interface BatchWork {
  seq: bigint;
  /** The last trade price after the batch (atoms). */
  lastPrice: bigint | null;
  results: (SequencerResult | AppError | undefined)[];
  trades: repo.NewTrade[];
  tradeIds: bigint[];
  deltas: { side: Side; price: number; qty: number }[];
  changed: repo.OrderRow[];
}

/**
 * Folds a batch's engine events into order rows, trades and ledger postings. Fees: each side pays
 * on what it receives — the buyer in the base coin, the seller in the quote coin — at the maker or
 * taker ratio, rounded down to the atom (never more than the ratio; every entry still balances,
 * the fee account gets exactly what the receiver does not).
 */
export class BatchSink implements EventSink {
  readonly trades: repo.NewTrade[] = [];
  readonly deltas: { side: Side; price: number; qty: number }[] = [];
  readonly changed = new Set<repo.OrderRow>();
  /** The order the last `done` event finished (a cancel's answer). */
  lastDone: repo.OrderRow | undefined;
  /** The market sequence of the command being applied (what its trades record). */
  cause = 0n;
  /** The last trade price in atoms, moved by every trade of the batch. */
  lastPrice: bigint | null;
  readonly #market: repo.SpotMarketRow;
  readonly #live: Map<number, repo.OrderRow>;
  readonly #byId: Map<bigint, repo.OrderRow>;
  readonly #now: Millis;
  readonly #sums = new Map<string, { posting: Omit<Posting, 'amount'>; amount: bigint }>();

  constructor(
    market: repo.SpotMarketRow,
    live: Map<number, repo.OrderRow>,
    byId: Map<bigint, repo.OrderRow>,
    now: Millis,
    lastPrice: bigint | null,
  ) {
    this.lastPrice = lastPrice;
    this.#market = market;
    this.#live = live;
    this.#byId = byId;
    this.#now = now;
  }

  onAccepted(): void {}
  onTriggered(): void {}

  onTrade(
    _seq: number,
    makerOrderId: number,
    _makerUserId: number,
    takerOrderId: number,
    _takerUserId: number,
    price: number,
    qty: number,
    makerSide: Side,
  ): void {
    const market = this.#market;
    const maker = this.#order(makerOrderId);
    const taker = this.#order(takerOrderId);
    const base = BigInt(qty) * market.lot_size;
    const quote = BigInt(price) * BigInt(qty) * quotePerTickLot(market);
    const [buyer, seller] = makerSide === 'buy' ? [maker, taker] : [taker, maker];
    const buyerBps = buyer === maker ? market.maker_fee_bps : market.taker_fee_bps;
    const sellerBps = seller === maker ? market.maker_fee_bps : market.taker_fee_bps;
    const buyerFee = (base * buyerBps) / 10_000n;
    const sellerFee = (quote * sellerBps) / 10_000n;

    for (const [row, bps, fee, spent] of [
      [buyer, buyerBps, buyerFee, quote],
      [seller, sellerBps, sellerFee, base],
    ] as const) {
      row.filled_qty += base;
      row.filled_quote += quote;
      row.fee += fee;
      row.fee_bps = bps;
      row.held -= spent;
      this.changed.add(row);
    }
    this.#add({ userId: buyer.user_id }, market.quote, 'frozen', -quote);
    this.#add({ userId: buyer.user_id }, market.base, 'available', base - buyerFee);
    this.#add({ system: 'fees' }, market.base, 'available', buyerFee);
    this.#add({ userId: seller.user_id }, market.base, 'frozen', -base);
    this.#add({ userId: seller.user_id }, market.quote, 'available', quote - sellerFee);
    this.#add({ system: 'fees' }, market.quote, 'available', sellerFee);
    this.lastPrice = BigInt(price) * market.tick_size;
    this.trades.push({
      symbol: market.symbol,
      seq: this.cause,
      price: this.lastPrice,
      qty: base,
      quote,
      maker_order_id: maker.id,
      maker_user_id: maker.user_id,
      taker_order_id: taker.id,
      taker_user_id: taker.user_id,
      taker_side: taker.side,
      maker_fee: maker === buyer ? buyerFee : sellerFee,
      taker_fee: taker === buyer ? buyerFee : sellerFee,
      at: this.#now,
    });
  }

  onCancelled(_seq: number, orderId: number, _userId: number, _qty: number, reason: CancelReason): void {
    const row = this.#order(orderId);
    row.revoke_reason = REASONS[reason];
    this.changed.add(row);
  }

  onDone(_seq: number, orderId: number): void {
    const row = this.#order(orderId);
    this.#release(row, row.held);
    const filledAll = row.qty === null ? row.filled_qty > 0n : row.filled_qty === row.qty;
    row.status = filledAll ? 'completed' : 'revoked';
    if (filledAll) row.revoke_reason = null;
    else row.revoke_reason ??= 'user';
    this.#live.delete(orderId);
    this.#byId.delete(row.id);
    this.changed.add(row);
    this.lastDone = row;
  }

  onBookDelta(_seq: number, side: Side, price: number, qty: number): void {
    this.deltas.push({ side, price, qty });
  }

  /** Ends a trigger order that never entered the book: revoked, its hold released. */
  revokeWaiting(row: repo.OrderRow, reason: string): void {
    this.#release(row, row.held);
    row.status = 'revoked';
    row.revoke_reason = reason;
    this.#live.delete(Number(row.seq));
    this.#byId.delete(row.id);
    this.changed.add(row);
  }

  /** Holds a place's funds: from the owner's available balance to frozen. */
  hold(row: repo.OrderRow): void {
    this.#add({ userId: row.user_id }, row.hold_asset, 'available', -row.held);
    this.#add({ userId: row.user_id }, row.hold_asset, 'frozen', row.held);
  }

  /**
   * A limit buy that rests after taking at better prices holds more than its remainder needs;
   * the difference goes back to the buyer at once.
   */
  trimBuyHold(row: repo.OrderRow): void {
    if (row.status !== 'entrusted' || row.side !== 'buy' || row.price === null || row.qty === null) return;
    const needed = quoteOf(row.price, row.qty - row.filled_qty);
    if (row.held > needed) this.#release(row, row.held - needed);
  }

  /** Postings of the batch, netted per account; accounts that net to zero are left out. */
  postings(): Posting[] {
    return [...this.#sums.values()]
      .filter((s) => s.amount !== 0n)
      .map((s) => ({ ...s.posting, amount: s.amount }));
  }

  #release(row: repo.OrderRow, amount: bigint): void {
    if (amount <= 0n) return;
    this.#add({ userId: row.user_id }, row.hold_asset, 'frozen', -amount);
    this.#add({ userId: row.user_id }, row.hold_asset, 'available', amount);
    row.held -= amount;
    this.changed.add(row);
  }

  #order(engineId: number): repo.OrderRow {
    const row = this.#live.get(engineId);
    if (!row) throw new Error(`${this.#market.symbol}: engine order ${engineId} is not live`);
    return row;
  }

  #add(owner: Posting['owner'], asset: string, kind: 'available' | 'frozen', amount: bigint): void {
    if (amount === 0n) return;
    const key = `${'userId' in owner ? `u${owner.userId}` : owner.system}|${asset}|${kind}`;
    const sum = this.#sums.get(key);
    if (sum) sum.amount += amount;
    else this.#sums.set(key, { posting: { owner, asset, kind }, amount });
  }
}
