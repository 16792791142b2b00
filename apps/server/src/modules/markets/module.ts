import type { Ticker } from '@bourse/shared';
import { KLINE_INTERVALS } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { Bus, Subscription } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import type { AuditService } from '../audit/service.ts';
import { IndexSourcesBackOffice } from './back-office.ts';
import { IndexAggregator } from './index-price.ts';
import type { SimulatedPriceFeed } from './price-feed.ts';
import { marketsRoutes } from './routes.ts';
import { type Candle, type IndexValue, type Market, MarketsService } from './service.ts';
import type { VenueIndexFeed } from './venue-index-feed.ts';
import { toIndexTick, toKlineUpdate } from './wire.ts';

/** Bus subject of the index tickers: every node's `/ws` pushes what the feed's node publishes. */
export const TICKERS_SUBJECT = 'market.tickers';

/** Bus subject of recorded index ticks and the candles they moved (`IndexEvent`). */
export const INDEX_SUBJECT = 'market.index';

/** Bus subject telling every node that an index source mapping changed (no payload: re-read). */
export const INDEX_MAPPINGS_SUBJECT = 'market.index-mappings';

/**
 * The scheduled job that records the index (the real sources' median, or the simulated walk's
 * next step); it runs on one node (a database lease).
 */
export const FEED_JOB = 'index-feed';

/**
 * The hourly job that rolls the index history up: ticks and fine candles past their retention go,
 * coarse candles stay (one node, a database lease).
 */
export const PRUNE_JOB = 'index-tick-prune';
const PRUNE_INTERVAL_MS = 60 * 60_000;

/** What the feed's node publishes on `INDEX_SUBJECT` once a step is recorded. */
export interface IndexEvent {
  ticks: IndexValue[];
  candles: Candle[];
}

export const indexChannel = (symbol: string) => `index:${symbol}`;
export const klineChannel = (symbol: string, interval: string) => `kline:${symbol}:${interval}`;

export interface MarketsModule {
  service: MarketsService;
  /** The back office's view of the index sources and their per-market mappings. */
  backOffice: IndexSourcesBackOffice;
  /** The active markets this node loaded at start (those the index covers). */
  activeMarkets(): readonly Market[];
  /**
   * Loads the active markets and their last recorded prices into the feed, starts the fan-out
   * (feed → bus → `/ws`: `ticker`, `index:<symbol>`, `kline:<symbol>:<interval>`), and with
   * `runFeed` schedules the feed job and the pruning of old ticks. Call it after the seed, so the
   * markets it lists are there.
   */
  start(options: { runFeed: boolean }): Promise<void>;
  /** Ends the fan-out; the jobs end with the scheduler. */
  stop(): Promise<void>;
}

/** Coins, markets and the index: `/apiv/Market/*` and the `ticker`, `index:*`, `kline:*` channels. */
export function registerMarketsModule(
  api: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    bus: Bus;
    scheduler: Scheduler;
    gateway: WsGateway;
    audit: AuditService;
    /** The simulated walk (demo), or the real index from the venues. */
    feed: SimulatedPriceFeed | VenueIndexFeed;
    /** Initial per-market venue symbols (`INDEX_SYMBOL_MAP`); the back office's mappings override them. */
    symbolMap?: readonly { symbol: string; venue: string; venueSymbol: string | null }[];
    /** The configured venues and the aggregator's settings, as the back office shows them. */
    sources?: { venues: readonly string[]; minSources: number; outlierBps: number; staleMs: number };
    feedIntervalMs: number;
    indexStaleMs: number;
    tickRetentionMs: number;
    /** How long fine candles are kept, and the most rows one prune statement deletes. */
    retention: { fineCandleMs: number; sliceRows: number };
    onError: (error: unknown, what: string) => void;
  },
): MarketsModule {
  const { bus, clock, feed, gateway } = deps;
  const service = new MarketsService({
    db: deps.db,
    indexStaleMs: deps.indexStaleMs,
    tickRetentionMs: deps.tickRetentionMs,
    fineCandleRetentionMs: deps.retention.fineCandleMs,
    sliceSize: deps.retention.sliceRows,
  });
  // why: the simulated walk is its own one source; the real sources are aggregated by the feed.
  const simulatedAggregator = new IndexAggregator({
    staleMs: deps.indexStaleMs,
    outlierBps: 300,
    minSources: 1,
  });
  let markets: Market[] = [];
  const backOffice = new IndexSourcesBackOffice({
    db: deps.db,
    clock,
    audit: deps.audit,
    service,
    feed,
    symbolMap: deps.symbolMap ?? [],
    sources: deps.sources ?? { venues: [], minSources: 1, outlierBps: 300, staleMs: deps.indexStaleMs },
    activeMarkets: () => markets,
    // why: the node whose feed follows the venues may not be the one the owner's request reached.
    // A failed publish does not undo the committed, audited change: the feed's node also takes
    // the mappings up when it gains the lease.
    onMappingChanged: async () => {
      await bus
        .publish(INDEX_MAPPINGS_SUBJECT, {})
        .catch((error) => deps.onError(error, INDEX_MAPPINGS_SUBJECT));
    },
  });
  let latest: Ticker[] = [];
  const isNewer = (tickers: Ticker[]) => (tickers[0]?.ts ?? 0) >= (latest[0]?.ts ?? 0);
  /** The newest candle of each `kline:` channel, as this node last saw it. */
  const candles = new Map<string, Candle>();
  const noteCandle = (candle: Candle) => {
    const channel = klineChannel(candle.symbol, candle.interval);
    const known = candles.get(channel);
    if (!known || candle.t >= known.t) candles.set(channel, candle);
  };
  api.register(marketsRoutes, { tickers: () => latest, service, clock });

  const subscriptions: Subscription[] = [];
  const jobs: ScheduledJob[] = [];
  let stopListening: (() => void) | undefined;

  /** The simulated walk's prices through the aggregator, as its one source. */
  const indexOfSimulated = (simulated: SimulatedPriceFeed): IndexValue[] =>
    simulated.prices().flatMap((quote) => {
      const { index } = simulatedAggregator.aggregate(
        [{ source: simulated.source, price: quote.price, at: quote.at }],
        clock.now(),
      );
      return index ? [{ symbol: quote.symbol, ...index }] : [];
    });

  /** One run of the feed job: the index of every active market that has one, recorded, then published. */
  const recordTick = async (isNewHolder: boolean) => {
    let ticks: IndexValue[];
    if (feed.source === 'simulated') {
      // why: while another node held the lease it moved the prices; go on from what it recorded.
      if (isNewHolder) feed.resume(await service.listRecordedPrices());
      feed.step();
      ticks = indexOfSimulated(feed);
    } else {
      // why: only the node holding the feed's lease follows the venues (one set of connections,
      // not one per node); it takes up the mappings as they stand now, in case it missed a change.
      if (isNewHolder) {
        await backOffice.applyMappings();
        await feed.venues.start();
      }
      // why: a market with fewer valid sources than the minimum gets no tick, so its index goes
      // stale: new contracts are refused and settlements wait, rather than trusting one venue.
      ticks = feed.sample();
    }
    // why: persist, then publish: a tick anyone is shown is one settlement can look up.
    const recorded = await service.recordIndex(ticks);
    for (const candle of recorded.candles) noteCandle(candle);
    if (feed.source === 'venues') feed.note(recorded.ticks, recorded.candles);
    bus.publish<IndexEvent>(INDEX_SUBJECT, recorded).catch((error) => deps.onError(error, INDEX_SUBJECT));
    feed.notify();
  };

  return {
    service,
    backOffice,
    activeMarkets: () => markets,
    async start({ runFeed }) {
      markets = await service.listMarkets({ activeOnly: true });
      const recordedIndex = await service.listRecordedIndex();
      if (feed.source === 'simulated') {
        feed.load(markets, await service.listRecordedPrices());
      } else {
        const now = clock.now();
        // why: the 24h ticker of the real index is built from its own recorded 1m candles.
        const minuteCandles = (
          await Promise.all(
            markets.map((m) =>
              service.klines({ symbol: m.symbol, interval: '1m', before: now + 60_000, limit: 1441 }),
            ),
          )
        ).flat();
        feed.load(markets, recordedIndex, minuteCandles);
        await backOffice.applyMappings();
      }
      latest = feed.tickers();
      for (const recorded of recordedIndex) service.noteIndex(recorded);
      for (const candle of await service.latestCandles()) noteCandle(candle);
      // why: this node's REST answers move with its own feed at once; `/ws` takes the bus's copy,
      // so every node pushes the same tickers whichever node moves the feed.
      stopListening = feed.onUpdate((tickers) => {
        if (isNewer(tickers)) latest = tickers;
        bus.publish(TICKERS_SUBJECT, tickers).catch((error) => deps.onError(error, TICKERS_SUBJECT));
      });
      subscriptions.push(
        await bus.subscribe<Ticker[]>(TICKERS_SUBJECT, (event) => {
          if (isNewer(event.data)) latest = event.data;
          gateway.broadcast('ticker', event.data);
        }),
        await bus.subscribe(INDEX_MAPPINGS_SUBJECT, () =>
          backOffice.applyMappings().catch((error) => deps.onError(error, INDEX_MAPPINGS_SUBJECT)),
        ),
        await bus.subscribe<IndexEvent>(INDEX_SUBJECT, (event) => {
          if (feed.source === 'venues') feed.note(event.data.ticks, event.data.candles);
          for (const tick of event.data.ticks) {
            service.noteIndex(tick);
            gateway.broadcast(indexChannel(tick.symbol), toIndexTick(tick));
          }
          for (const candle of event.data.candles) {
            noteCandle(candle);
            gateway.broadcast(klineChannel(candle.symbol, candle.interval), toKlineUpdate(candle));
          }
        }),
      );
      gateway.addChannel('ticker', { snapshot: () => latest });
      for (const { symbol } of markets) {
        gateway.addChannel(indexChannel(symbol), {
          snapshot: () => {
            const value = service.latestIndex(symbol);
            return value ? toIndexTick(value) : null;
          },
        });
        for (const interval of KLINE_INTERVALS) {
          const channel = klineChannel(symbol, interval);
          gateway.addChannel(channel, {
            snapshot: () => {
              const candle = candles.get(channel);
              return candle ? toKlineUpdate(candle) : null;
            },
          });
        }
      }
      if (!runFeed) return;
      jobs.push(
        deps.scheduler.runEvery(FEED_JOB, deps.feedIntervalMs, (run) => recordTick(run.isNewHolder), {
          lease: true,
        }),
        deps.scheduler.runEvery(PRUNE_JOB, PRUNE_INTERVAL_MS, () => service.pruneIndexHistory(clock.now()), {
          lease: true,
        }),
      );
    },
    async stop() {
      for (const job of jobs.splice(0)) job.cancel();
      stopListening?.();
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
      if (feed.source === 'venues') await feed.venues.close();
    },
  };
}
