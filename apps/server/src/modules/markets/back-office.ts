import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { IndexSourceRow, IndexSourcesPanel } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { Constituent } from './index-price.ts';
import type { SimulatedPriceFeed } from './price-feed.ts';
import * as repo from './repository.ts';
import type { Market, MarketsService } from './service.ts';
import type { VenueMarket } from './venue-feed.ts';
import type { VenueIndexFeed } from './venue-index-feed.ts';

/** A venue's symbol for a market: ccxt's unified spot `BASE/QUOTE` (only spot markets are loaded). */
const VENUE_SYMBOL = /^([A-Z0-9]{1,20})\/([A-Z0-9]{1,20})$/;

/** Quotes a venue pair may have instead of the market's own: only ever set by hand. */
const USD_QUOTES = new Set(['USD', 'USDC']);

interface Mapping {
  venueSymbol: string | null;
  origin: 'default' | 'config' | 'staff';
  updatedAt: number | null;
  updatedBy: string | null;
}

export interface IndexSourcesDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  service: MarketsService;
  feed: SimulatedPriceFeed | VenueIndexFeed;
  /** The configured venues and the aggregator's settings (`INDEX_*`). */
  sources: { venues: readonly string[]; minSources: number; outlierBps: number; staleMs: number };
  symbolMap: readonly { symbol: string; venue: string; venueSymbol: string | null }[];
  activeMarkets: () => readonly Market[];
  /** Tells every node a mapping changed (they re-read the mappings; the feed's node follows them). */
  onMappingChanged?: () => Promise<void>;
}

/** What `setMapping` can answer besides the codes every route can. */
export const SET_MAPPING_ERRORS = [
  'MARKET_NOT_OPEN',
  'INDEX_SOURCE_INVALID',
  'INDEX_SYMBOL_INVALID',
] as const satisfies readonly ResultKey[];

/**
 * The back office's side of the index sources: what each venue of each market is doing (as this
 * node's feed sees it) and which venue symbol it is followed under. A mapping is set by the owner,
 * audited with before and after in the same transaction, and handed to the feed at once.
 */
export class IndexSourcesBackOffice {
  readonly #deps: IndexSourcesDeps;

  constructor(deps: IndexSourcesDeps) {
    this.#deps = deps;
  }

  /** The venues the index is made of (none with the simulated feed). */
  get venues(): readonly string[] {
    return this.#deps.feed.source === 'venues' ? this.#deps.sources.venues : [];
  }

  /** Hands the feed every active market with its venues' symbols (stored mappings over the settings). */
  async applyMappings(db: Db = this.#deps.db): Promise<void> {
    const { feed } = this.#deps;
    if (feed.source !== 'venues') return;
    const mappings = await this.#mappings(db);
    const markets: VenueMarket[] = this.#deps.activeMarkets().map((market) => {
      const byVenue: Record<string, string | null> = {};
      for (const [key, mapping] of mappings) {
        const [symbol, venue] = key.split('|') as [string, string];
        if (symbol === market.symbol) byVenue[venue] = mapping.venueSymbol;
      }
      return { symbol: market.symbol, base: market.base, quote: market.quote, mappings: byVenue };
    });
    feed.setMarkets(markets);
  }

  /** Every active market with its index and each of its sources. */
  async panel(): Promise<IndexSourcesPanel> {
    const { feed, service, clock, sources: configured } = this.#deps;
    const now = clock.now();
    const mappings = await this.#mappings(this.#deps.db);
    const states = feed.source === 'venues' ? feed.states() : [];
    return {
      feed: feed.source,
      venues: [...this.venues],
      minSources: configured.minSources,
      outlierBps: configured.outlierBps,
      sourceStaleMs: configured.staleMs,
      indexStaleMs: service.indexStaleMs,
      now,
      markets: this.#deps.activeMarkets().map((market) => {
        const index = service.latestIndex(market.symbol);
        // why: the feed's node knows the latest aggregation even when it made no tick (too few
        // sources); other nodes show the constituents of the latest recorded tick.
        const constituents: Constituent[] =
          (feed.source === 'venues' ? feed.sampledConstituents(market.symbol) : undefined) ??
          index?.constituents ??
          [];
        const sources: IndexSourceRow[] = this.venues.map((venue) => {
          const state = states.find((s) => s.venue === venue && s.symbol === market.symbol);
          const part = constituents.find((c) => c.source === venue);
          const mapping = mappings.get(`${market.symbol}|${venue}`) ?? defaultMapping(market);
          return {
            venue,
            venueSymbol: mapping.venueSymbol,
            origin: mapping.origin,
            state: state?.state ?? 'connecting',
            transport: state?.transport ?? null,
            price: state?.price == null ? null : fromAtoms(state.price),
            at: state?.at ?? null,
            ageMs: state?.at == null ? null : Math.max(0, now - state.at),
            error: state?.error ?? null,
            used: part ? part.used : null,
            reason: part ? part.reason : null,
            updatedAt: mapping.updatedAt,
            updatedBy: mapping.updatedBy,
          };
        });
        return {
          symbol: market.symbol,
          base: market.base,
          quote: market.quote,
          index: index ? { price: fromAtoms(index.price), at: index.at, source: index.source } : null,
          stale: service.isIndexStale(market.symbol, now),
          sources,
        };
      }),
    };
  }

  /**
   * Sets the symbol `venue` follows `symbol` under: `default` (base/quote), a venue symbol, or
   * `off`. Refuses a venue the platform is not configured with (INDEX_SOURCE_INVALID) and a symbol
   * of another base coin, or quoted in anything but the market's quote or USD (INDEX_SYMBOL_INVALID).
   */
  async setMapping(
    staff: StaffActor,
    input: {
      symbol: string;
      venue: string;
      use: 'default' | 'symbol' | 'off';
      venueSymbol?: string;
      reason?: string;
    },
  ): Promise<void> {
    const { db, audit, clock } = this.#deps;
    const market = this.#deps.activeMarkets().find((m) => m.symbol === input.symbol);
    if (!market) throw new AppError('MARKET_NOT_OPEN');
    if (!this.venues.includes(input.venue)) throw new AppError('INDEX_SOURCE_INVALID');
    let venueSymbol: string | null = null;
    if (input.use === 'symbol') {
      const match = VENUE_SYMBOL.exec(input.venueSymbol ?? '');
      const quote = match?.[2];
      if (!match || match[1] !== market.base || (quote !== market.quote && !USD_QUOTES.has(quote ?? ''))) {
        throw new AppError('INDEX_SYMBOL_INVALID');
      }
      venueSymbol = match[0];
    }
    await db.transaction().execute(async (trx) => {
      const before =
        (await this.#mappings(trx)).get(`${market.symbol}|${input.venue}`) ?? defaultMapping(market);
      if (input.use === 'default') {
        await repo.deleteSourceMapping(trx, market.symbol, input.venue);
      } else {
        await repo.upsertSourceMapping(trx, {
          symbol: market.symbol,
          venue: input.venue,
          venue_symbol: venueSymbol,
          updated_at: toMillis(clock.now()),
          updated_by: staff.staffId,
        });
      }
      const after =
        (await this.#mappings(trx)).get(`${market.symbol}|${input.venue}`) ?? defaultMapping(market);
      await audit.record(trx, {
        actor: staff.actor,
        action: 'index.mapping.set',
        target: `index:${market.symbol}:${input.venue}`,
        before: { venueSymbol: before.venueSymbol, origin: before.origin },
        after: { venueSymbol: after.venueSymbol, origin: after.origin },
        reason: input.reason || undefined,
        ip: staff.ip,
      });
    });
    await this.applyMappings();
    await this.#deps.onMappingChanged?.();
  }

  /** `symbol|venue` → mapping: the settings' initial map, with the stored ones over it. */
  async #mappings(db: Db): Promise<Map<string, Mapping>> {
    const result = new Map<string, Mapping>();
    for (const entry of this.#deps.symbolMap) {
      result.set(`${entry.symbol}|${entry.venue}`, {
        venueSymbol: entry.venueSymbol,
        origin: 'config',
        updatedAt: null,
        updatedBy: null,
      });
    }
    for (const row of await repo.listSourceMappings(db)) {
      result.set(`${row.symbol}|${row.venue}`, {
        venueSymbol: row.venue_symbol,
        origin: 'staff',
        updatedAt: fromMillis(row.updated_at),
        updatedBy: `staff:${row.updated_by}`,
      });
    }
    return result;
  }
}

function defaultMapping(market: Market): Mapping {
  return {
    venueSymbol: `${market.base}/${market.quote}`,
    origin: 'default',
    updatedAt: null,
    updatedBy: null,
  };
}
