import { TRADE_KLINE_INTERVALS, type TradeKlineInterval } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';
import * as repo from './candle-repository.ts';

/** Candle lengths; a candle opens at a multiple of its length since the epoch. */
export const INTERVAL_MS: Record<TradeKlineInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
};
const SPANS = TRADE_KLINE_INTERVALS.map((interval) => BigInt(INTERVAL_MS[interval]));
const MINUTE = 60_000n;
const HOUR = 3_600_000n;

/** Trades folded by one transaction: a few ms of writes, so the event loop is never held long. */
const FOLD_SLICE = 1000;
/**
 * How old a trade must be to be folded. Trades after the mark are read raw by every answer, so
 * this costs nothing in freshness; it keeps a trade from committing below the mark: on
 * PostgreSQL ids are handed out at insert, not at commit, and a market's batches commit in order
 * well within it (a stale owner's batch is fenced out, never committed late).
 */
const SETTLE_MS = 2000;

/** A candle of a market's trades, in atoms; `t` opens it. */
export interface Candle {
  t: Millis;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
  v: bigint;
  q: bigint;
}

/** A market's trades of the last 24 hours, in atoms; nulls when it had none. */
export interface DaySummary {
  open: bigint | null;
  high: bigint | null;
  low: bigint | null;
  volume: bigint;
  turnover: bigint;
}

/**
 * The spot markets' candles, kept as trades commit and read with the trades not yet folded.
 *
 * A job folds each market's trades, in id order, into a stored candle of every length, and moves
 * the market's mark (the newest trade folded) in the same transaction; the mark moves only from
 * the value the fold read, so two folds never count a trade twice. Every answer is the stored
 * candles merged with the trades after the mark, read raw: exact whatever the job's progress, and
 * a few rows once it has caught up.
 */
export class SpotCandles {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #marked = new Set<string>();

  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  /**
   * Folds one slice of the market's settled trades after its mark; answers how many it folded (0
   * when it has caught up, or when another fold moved the mark first).
   */
  async foldSlice(symbol: string): Promise<number> {
    const db = this.#db;
    if (!this.#marked.has(symbol)) {
      await repo.ensureFoldMark(db, symbol);
      this.#marked.add(symbol);
    }
    const mark = await repo.findFoldMark(db, symbol);
    const trades = await repo.listTradesAfter(db, symbol, mark.tradeId, FOLD_SLICE);
    const cutoff = BigInt(this.#clock.now() - SETTLE_MS);
    let settled = 0;
    while (settled < trades.length && (trades[settled] as { at: bigint }).at < cutoff) settled++;
    if (settled === 0) return 0;
    const slice = trades.slice(0, settled);
    const rows = new Map<string, repo.CandleRow>();
    let maxAt = mark.maxAt;
    for (const trade of slice) {
      if (trade.at > maxAt) maxAt = trade.at;
      for (const span of SPANS) {
        const t = trade.at - (trade.at % span);
        const key = `${span}:${t}`;
        const row = rows.get(key);
        if (!row) {
          rows.set(key, {
            symbol,
            span,
            t,
            o: trade.price,
            h: trade.price,
            l: trade.price,
            c: trade.price,
            v: trade.qty,
            q: trade.quote,
            first_id: trade.id,
            last_id: trade.id,
          });
          continue;
        }
        if (trade.price > row.h) row.h = trade.price;
        if (trade.price < row.l) row.l = trade.price;
        row.c = trade.price;
        row.v += trade.qty;
        row.q += trade.quote;
        row.last_id = trade.id;
      }
    }
    const last = (slice[slice.length - 1] as { id: bigint }).id;
    const folded = await db.transaction().execute(async (trx) => {
      if (!(await repo.moveFoldMark(trx, symbol, mark, { tradeId: last, maxAt }))) return false;
      await repo.foldCandles(trx, [...rows.values()]);
      return true;
    });
    return folded ? slice.length : 0;
  }

  /** Folds the market until it has caught up, giving the event loop back between slices. */
  async foldAll(symbol: string, maxSlices = Number.POSITIVE_INFINITY): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxSlices; i++) {
      const folded = await this.foldSlice(symbol);
      total += folded;
      if (folded < FOLD_SLICE) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }

  /**
   * The newest `limit` candles of `span` ms holding a trade before `before`, newest first (a
   * candle without trades is not listed); the last one holds only the trades before `before`.
   */
  async candles(symbol: string, span: bigint, before: Millis, limit: number): Promise<Candle[]> {
    const db = this.#db;
    const mark = await repo.findFoldMark(db, symbol);
    // why: when a folded trade may be at or after `before`, the stored candle that holds
    // `before - 1` may hold later trades too: that one is grouped from the folded trades before
    // `before` instead (one candle's trades at most). The usual ask (up to now) stores it whole.
    const edge = mark.maxAt < before ? before : before - (before % span);
    const parts: Candle[][] = [];
    if (edge < before) {
      const range = { throughId: mark.tradeId, from: edge, to: before };
      parts.push(await this.#withPrices(await repo.groupTrades(db, symbol, span, range, 1)));
    }
    const stored = await repo.listStoredCandles(db, symbol, span, edge, limit);
    parts.push(stored);
    const tail = await repo.groupTrades(db, symbol, span, { afterId: mark.tradeId, to: before }, limit);
    parts.push(await this.#withPrices(tail));
    return mergeCandles(parts.flat(), limit);
  }

  /**
   * The market's trades from `from` on: stored candles of an hour and of a minute where they fit
   * whole, and the trades before the first whole minute and after the mark read raw.
   */
  async summarySince(symbol: string, from: Millis): Promise<DaySummary> {
    const db = this.#db;
    const mark = await repo.findFoldMark(db, symbol);
    const minute = ceilTo(from, MINUTE);
    const hour = ceilTo(from, HOUR);
    const parts = [
      await repo.summarizeTrades(db, symbol, { throughId: mark.tradeId, from, to: minute }),
      await repo.summarizeStoredCandles(db, symbol, MINUTE, minute, hour),
      await repo.summarizeStoredCandles(db, symbol, HOUR, hour, undefined),
      await repo.summarizeTrades(db, symbol, { afterId: mark.tradeId, from }),
    ];
    let high: bigint | null = null;
    let low: bigint | null = null;
    let first: bigint | null = null;
    let volume = 0n;
    let turnover = 0n;
    for (const part of parts) {
      if (part.first_id === null) continue;
      if (high === null || (part.h as bigint) > high) high = part.h;
      if (low === null || (part.l as bigint) < low) low = part.l;
      if (first === null || part.first_id < first) first = part.first_id;
      volume += part.v ?? 0n;
      turnover += part.q ?? 0n;
    }
    const open = first === null ? null : ((await repo.tradePrices(db, [first])).get(first) ?? null);
    return { open, high, low, volume, turnover };
  }

  async #withPrices(rows: Awaited<ReturnType<typeof repo.groupTrades>>): Promise<Candle[]> {
    if (rows.length === 0) return [];
    const prices = await repo.tradePrices(
      this.#db,
      rows.flatMap((row) => [row.first_id, row.last_id]),
    );
    return rows.map((row) => ({
      t: row.t,
      o: prices.get(row.first_id) ?? row.l,
      h: row.h,
      l: row.l,
      c: prices.get(row.last_id) ?? row.l,
      v: row.v,
      q: row.q,
    }));
  }
}

/**
 * Merges candles of the same opening given oldest trades first (each part holds only trades newer
 * than the parts before it), newest first, the newest `limit`.
 */
function mergeCandles(candles: Candle[], limit: number): Candle[] {
  const byT = new Map<Millis, Candle>();
  for (const candle of candles) {
    const seen = byT.get(candle.t);
    if (!seen) {
      byT.set(candle.t, { ...candle });
      continue;
    }
    if (candle.h > seen.h) seen.h = candle.h;
    if (candle.l < seen.l) seen.l = candle.l;
    seen.c = candle.c;
    seen.v += candle.v;
    seen.q += candle.q;
  }
  return [...byT.values()].sort((a, b) => (a.t < b.t ? 1 : a.t > b.t ? -1 : 0)).slice(0, limit);
}

function ceilTo(value: bigint, step: bigint): bigint {
  const rest = value % step;
  return rest === 0n ? value : value - rest + step;
}
