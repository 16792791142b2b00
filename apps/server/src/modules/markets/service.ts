import type { Db } from '../../platform/db.ts';
import { fromMillis, toMillis, toSafeNumber } from '../../platform/time.ts';
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

/** What a seed or the back office lists: coins first, then markets between them. */
export interface Listings {
  coins: { symbol: string; name: string; displayDecimals: number }[];
  markets: { symbol: string; base: string; quote: string; priceDecimals: number }[];
}

/** Coins, markets and recorded index prices (owner of `coins`, `markets`, `index_prices`). */
export class MarketsService {
  readonly #db: Db;

  constructor(deps: { db: Db }) {
    this.#db = deps.db;
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

  /** The last recorded index price of every symbol that has one. */
  async listRecordedPrices(db: Db = this.#db): Promise<RecordedPrice[]> {
    const rows = await repo.listIndexPrices(db);
    return rows.map((row) => ({ symbol: row.symbol, price: row.price, at: fromMillis(row.updated_at) }));
  }

  /** Records the latest index prices (one statement), so a restart continues from them. */
  async recordPrices(prices: readonly RecordedPrice[], source: string, db: Db = this.#db): Promise<void> {
    await repo.upsertIndexPrices(
      db,
      prices.map((p) => ({ symbol: p.symbol, price: p.price, source, updated_at: toMillis(p.at) })),
    );
  }
}
