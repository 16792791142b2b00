import { AppError, type ResultKey } from '@bourse/shared';
import { KLINE_INTERVAL_MS, KLINE_INTERVALS, type KlineInterval } from '@bourse/shared/api';
import type { Db } from '../../platform/db.ts';
import { addPrunes, DEFAULT_SLICE_ROWS, type PruneResult, pruneInSlices } from '../../platform/prune.ts';
import { fromMillis, toMillis, toSafeNumber } from '../../platform/time.ts';
import { constituentsFromJson, constituentsToJson } from './constituents.ts';
import type { Constituent } from './index-price.ts';
import * as repo from './repository.ts';

/** An asset the platform lists. */
export interface Coin {
  symbol: string;
  name: string;
  /** Decimals shown for amounts of this coin. */
  displayDecimals: number;
  sort: number;
  status: 'active' | 'disabled';
}

/** A trading pair. */
export interface Market {
  id: bigint;
  symbol: string;
  base: string;
  quote: string;
  /** Decimals shown for prices. */
  priceDecimals: number;
  sort: number;
  status: 'active' | 'disabled';
}

/** An index price as recorded: 10^-8 units of the quote coin, and when. */
export interface RecordedPrice {
  symbol: string;
  price: bigint;
  at: number;
}

/**
 * One index tick: the price in 10^-8 quote units, when, the sources' label, and every source's
 * part in it (empty for ticks recorded before constituents were kept).
 */
export interface IndexValue {
  symbol: string;
  price: bigint;
  at: number;
  source: string;
  constituents: Constituent[];
}

/** A tick to record or note; one made by hand (tests, tools) may leave out its constituents (none). */
export type IndexTickInput = Omit<IndexValue, 'constituents'> & { constituents?: Constituent[] };

/** One candle of the index: `t` is the open time of its interval's bucket. */
export interface Candle {
  symbol: string;
  interval: KlineInterval;
  t: number;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
}

export interface MarketsOptions {
  /** An index older than this is stale: contracts are refused and settlements wait. */
  indexStaleMs: number;
  /** Ticks older than this are pruned; their candles outlive them. */
  tickRetentionMs: number;
  /** Candles of the fine intervals ({@link FINE_CANDLE_INTERVALS}) older than this are pruned; coarser ones are kept. */
  fineCandleRetentionMs: number;
  /** Most rows one prune statement deletes. */
  sliceSize: number;
}

/**
 * The candle intervals dropped after their retention: past it, history is read in hours and days
 * (a year of 1h candles is 8,760 rows a symbol), while a year of 1m candles would be 525,600.
 */
export const FINE_CANDLE_INTERVALS = ['1m', '5m', '15m'] as const satisfies readonly KlineInterval[];

const HISTORY_WINDOW_MS = 10 * 60_000;
const HISTORY_DEFAULT_LIMIT = 600;
const KLINE_DEFAULT_LIMIT = 300;

/** What a seed or the back office lists: coins first, then markets between them. */
export interface Listings {
  coins: { symbol: string; name: string; displayDecimals: number }[];
  markets: { symbol: string; base: string; quote: string; priceDecimals: number }[];
}

/** What `indexHistory` can answer besides the codes every route can. */
export const INDEX_HISTORY_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/** What `klines` can answer besides the codes every route can. */
export const KLINES_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/**
 * Coins, markets and the index: its latest price per symbol, its ticks and its candles (owner of
 * `coins`, `markets`, `index_prices`, `index_ticks`, `index_candles`). The latest index is also
 * kept in memory, as this node last saw it, for the checks that must not wait on the store.
 */
export class MarketsService {
  readonly indexStaleMs: number;
  readonly tickRetentionMs: number;
  readonly fineCandleRetentionMs: number;
  readonly sliceSize: number;
  readonly #db: Db;
  readonly #latest = new Map<string, IndexValue>();

  constructor(deps: { db: Db } & Partial<MarketsOptions>) {
    this.#db = deps.db;
    this.indexStaleMs = deps.indexStaleMs ?? 5000;
    this.tickRetentionMs = deps.tickRetentionMs ?? 30 * 24 * 60 * 60_000;
    this.fineCandleRetentionMs = deps.fineCandleRetentionMs ?? 90 * 24 * 60 * 60_000;
    this.sliceSize = deps.sliceSize ?? DEFAULT_SLICE_ROWS;
  }

  async listCoins(db: Db = this.#db): Promise<Coin[]> {
    const rows = await repo.listCoins(db);
    return rows.map((row) => ({
      symbol: row.symbol,
      name: row.name,
      displayDecimals: toSafeNumber(row.display_decimals),
      sort: toSafeNumber(row.sort),
      status: row.status,
    }));
  }

  /** Markets in display order; `activeOnly` leaves out disabled ones. */
  async listMarkets(options: { activeOnly?: boolean } = {}, db: Db = this.#db): Promise<Market[]> {
    const rows = await repo.listMarkets(db, options.activeOnly ? { status: 'active' } : {});
    return rows.map((row) => ({
      id: row.id,
      symbol: row.symbol,
      base: row.base,
      quote: row.quote,
      priceDecimals: toSafeNumber(row.price_decimals),
      sort: toSafeNumber(row.sort),
      status: row.status,
    }));
  }

  /**
   * Adds the coins and markets that are not listed yet, inside the caller's transaction, in the
   * given order (their `sort`); listings already there keep their values and status.
   */
  async addListings(trx: Db, listings: Listings): Promise<void> {
    await repo.insertMissingCoins(
      trx,
      listings.coins.map((coin, i) => ({
        symbol: coin.symbol,
        name: coin.name,
        display_decimals: BigInt(coin.displayDecimals),
        sort: BigInt(i + 1),
      })),
    );
    await repo.insertMissingMarkets(
      trx,
      listings.markets.map((market, i) => ({
        symbol: market.symbol,
        base: market.base,
        quote: market.quote,
        price_decimals: BigInt(market.priceDecimals),
        sort: BigInt(i + 1),
      })),
    );
  }

  /**
   * Lists one coin after every coin listed so far (a launchpad project's new coin), inside the
   * caller's transaction; a coin already listed keeps its values.
   */
  async addCoin(trx: Db, coin: { symbol: string; name: string; displayDecimals: number }): Promise<void> {
    const coins = await repo.listCoins(trx);
    const last = coins.reduce((max, row) => (row.sort > max ? row.sort : max), 0n);
    await repo.insertMissingCoins(trx, [
      {
        symbol: coin.symbol,
        name: coin.name,
        display_decimals: BigInt(coin.displayDecimals),
        sort: last + 1n,
      },
    ]);
  }

  /** The last recorded index price of every symbol that has one. */
  async listRecordedPrices(db: Db = this.#db): Promise<RecordedPrice[]> {
    const rows = await repo.listIndexPrices(db);
    return rows.map((row) => ({ symbol: row.symbol, price: row.price, at: fromMillis(row.updated_at) }));
  }

  /** The last recorded index of every symbol that has one, with its sources' label. */
  async listRecordedIndex(db: Db = this.#db): Promise<IndexValue[]> {
    const rows = await repo.listIndexPrices(db);
    return rows.map((row) => ({
      symbol: row.symbol,
      price: row.price,
      at: fromMillis(row.updated_at),
      source: row.source,
      constituents: constituentsFromJson(row.constituents),
    }));
  }

  /** The latest index tick of `symbol` this node has seen (no store access). */
  latestIndex(symbol: string): IndexValue | undefined {
    const value = this.#latest.get(symbol);
    return value && { ...value, constituents: value.constituents.map((c) => ({ ...c })) };
  }

  /** True when this node has no index tick of `symbol`, or its latest is older than `indexStaleMs`. */
  isIndexStale(symbol: string, now: number): boolean {
    const value = this.#latest.get(symbol);
    return value === undefined || now - value.at > this.indexStaleMs;
  }

  /** Takes a tick this node saw (its own feed, the bus, the store at start) unless it has a newer one. */
  noteIndex(value: IndexTickInput): void {
    const known = this.#latest.get(value.symbol);
    if (!known || value.at >= known.at)
      this.#latest.set(value.symbol, { ...value, constituents: value.constituents ?? [] });
  }

  /**
   * The first recorded tick of `symbol` at or after `at`, with its constituents: what a contract
   * expiring at `at` settles on.
   */
  async firstTickAtOrAfter(
    db: Db,
    symbol: string,
    at: number,
  ): Promise<{ price: bigint; at: number; source: string; constituents: Constituent[] } | undefined> {
    const row = await repo.findFirstTickAtOrAfter(db, symbol, toMillis(at));
    return (
      row && {
        price: row.price,
        at: fromMillis(row.at),
        source: row.source,
        constituents: constituentsFromJson(row.constituents),
      }
    );
  }

  /**
   * Records index ticks in one transaction: the latest price per symbol (so a restart continues
   * from it), the tick itself, and the candle of every interval it falls in. A tick already
   * recorded for its instant changes nothing. Answers the ticks recorded and their candles; once
   * they are committed they are also this node's latest index.
   */
  async recordIndex(ticks: readonly IndexTickInput[]): Promise<{ ticks: IndexValue[]; candles: Candle[] }> {
    const recorded = await this.#db.transaction().execute(async (trx) => {
      await repo.upsertIndexPrices(
        trx,
        ticks.map((t) => ({
          symbol: t.symbol,
          price: t.price,
          source: t.source,
          updated_at: toMillis(t.at),
          constituents: constituentsToJson(t.constituents ?? []),
        })),
      );
      const inserted = await repo.insertIndexTicks(
        trx,
        ticks.map((t) => ({
          symbol: t.symbol,
          at: toMillis(t.at),
          price: t.price,
          source: t.source,
          constituents: constituentsToJson(t.constituents ?? []),
        })),
      );
      const candles = await repo.upsertIndexCandles(
        trx,
        inserted.flatMap((tick) =>
          KLINE_INTERVALS.map((interval) => ({
            symbol: tick.symbol,
            interval,
            t: toMillis(bucketOf(fromMillis(tick.at), interval)),
            o: tick.price,
            h: tick.price,
            l: tick.price,
            c: tick.price,
          })),
        ),
      );
      return { ticks: inserted.map(toIndexValue), candles: candles.map(toCandle) };
    });
    for (const tick of recorded.ticks) this.noteIndex(tick);
    return recorded;
  }

  /**
   * Recorded ticks of a listed market in [from, to], oldest first, the first `limit` of them (600
   * by default): `to` is `now` by default, `from` ten minutes before `to`.
   */
  async indexHistory(
    query: { symbol: string; from?: number; to?: number; limit?: number },
    now: number,
  ): Promise<IndexValue[]> {
    await this.#requireMarket(query.symbol);
    const to = query.to ?? now;
    const from = query.from ?? Math.max(0, to - HISTORY_WINDOW_MS);
    if (from > to) throw new AppError('PARAM_ERROR');
    const rows = await repo.listIndexTicks(
      this.#db,
      query.symbol,
      toMillis(from),
      toMillis(to),
      query.limit ?? HISTORY_DEFAULT_LIMIT,
    );
    return rows.map(toIndexValue);
  }

  /** Candles of a listed market opening before `before` (default: up to the current one), oldest first. */
  async klines(query: {
    symbol: string;
    interval: KlineInterval;
    before?: number;
    limit?: number;
  }): Promise<Candle[]> {
    await this.#requireMarket(query.symbol);
    const rows = await repo.listCandlesNewestFirst(
      this.#db,
      query.symbol,
      query.interval,
      query.before === undefined ? undefined : toMillis(query.before),
      query.limit ?? KLINE_DEFAULT_LIMIT,
    );
    return rows.reverse().map(toCandle);
  }

  /** The newest recorded candle of every market's symbol and every interval. */
  async latestCandles(): Promise<Candle[]> {
    const symbols = (await repo.listMarkets(this.#db)).map((m) => m.symbol);
    const rows = await repo.listLatestCandles(this.#db, symbols, KLINE_INTERVALS);
    return rows.map(toCandle);
  }

  /**
   * Rolls the index history up: deletes ticks older than the tick retention and candles of the
   * fine intervals older than theirs, in bounded slices; the coarse candles (1h, 4h, 1d) stay.
   */
  async pruneIndexHistory(now: number, onSlice?: (deleted: number) => void): Promise<PruneResult> {
    const slices = { sliceSize: this.sliceSize, onSlice };
    const tickCutoff = toMillis(now - this.tickRetentionMs);
    const results = [
      await pruneInSlices((limit) => repo.deleteTicksBefore(this.#db, tickCutoff, limit), slices),
    ];
    const candleCutoff = toMillis(now - this.fineCandleRetentionMs);
    // why: every listing, disabled ones too: their candles age like the rest.
    for (const market of await repo.listMarkets(this.#db)) {
      for (const interval of FINE_CANDLE_INTERVALS) {
        results.push(
          await pruneInSlices(
            (limit) => repo.deleteCandlesBefore(this.#db, market.symbol, interval, candleCutoff, limit),
            slices,
          ),
        );
      }
    }
    return addPrunes(...results);
  }

  async #requireMarket(symbol: string): Promise<void> {
    const market = await repo.findMarket(this.#db, symbol);
    if (market?.status !== 'active') throw new AppError('MARKET_NOT_OPEN');
  }
}

/** The open time of the `interval` bucket that `at` falls in (buckets are aligned to the epoch). */
export function bucketOf(at: number, interval: KlineInterval): number {
  const ms = KLINE_INTERVAL_MS[interval];
  return Math.floor(at / ms) * ms;
}

function isKlineInterval(value: string): value is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(value);
}

function toIndexValue(row: repo.TickRow): IndexValue {
  return {
    symbol: row.symbol,
    price: row.price,
    at: fromMillis(row.at),
    source: row.source,
    constituents: constituentsFromJson(row.constituents),
  };
}

function toCandle(row: repo.CandleRow): Candle {
  if (!isKlineInterval(row.interval)) throw new RangeError(`unknown candle interval: ${row.interval}`);
  return {
    symbol: row.symbol,
    interval: row.interval,
    t: fromMillis(row.t),
    o: row.o,
    h: row.h,
    l: row.l,
    c: row.c,
  };
}
