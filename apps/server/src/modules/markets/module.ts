import type { Ticker } from '@bourse/shared';
import { KLINE_INTERVALS } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { Bus, Subscription } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import { IndexAggregator } from './index-price.ts';
import type { SimulatedPriceFeed } from './price-feed.ts';
import { marketsRoutes } from './routes.ts';
import { type Candle, type IndexValue, MarketsService } from './service.ts';
import { toIndexTick, toKlineUpdate } from './wire.ts';

/** Bus subject of the index tickers: every node's `/ws` pushes what the feed's node publishes. */
export const TICKERS_SUBJECT = 'market.tickers';

/** Bus subject of recorded index ticks and the candles they moved (`IndexEvent`). */
export const INDEX_SUBJECT = 'market.index';

/** The scheduled job that moves the simulated index; it runs on one node (a database lease). */
export const FEED_JOB = 'index-feed';

/** The hourly job that deletes ticks older than the retention (one node, a database lease). */
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
    feed: SimulatedPriceFeed;
    feedIntervalMs: number;
    indexStaleMs: number;
    tickRetentionMs: number;
    onError: (error: unknown, what: string) => void;
  },
): MarketsModule {
  const { bus, clock, feed, gateway } = deps;
  const service = new MarketsService({
    db: deps.db,
    indexStaleMs: deps.indexStaleMs,
    tickRetentionMs: deps.tickRetentionMs,
  });
  const aggregator = new IndexAggregator({ staleMs: deps.indexStaleMs });
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

  /** The feed's prices through the aggregator: the feed is today's one source. */
  const indexOfFeed = (): IndexValue[] =>
    feed.prices().flatMap((quote) => {
      const index = aggregator.aggregate(
        [{ source: feed.source, price: quote.price, at: quote.at }],
        clock.now(),
      );
      return index ? [{ symbol: quote.symbol, ...index }] : [];
    });

  return {
    service,
    async start({ runFeed }) {
      const markets = await service.listMarkets({ activeOnly: true });
      feed.load(markets, await service.listRecordedPrices());
      latest = feed.tickers();
      for (const recorded of await service.listRecordedIndex()) service.noteIndex(recorded);
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
        await bus.subscribe<IndexEvent>(INDEX_SUBJECT, (event) => {
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
        deps.scheduler.runEvery(
          FEED_JOB,
          deps.feedIntervalMs,
          async (run) => {
            // why: while another node held the lease it moved the prices; go on from what it recorded.
            if (run.isNewHolder) feed.resume(await service.listRecordedPrices());
            feed.step();
            // why: persist, then publish: a tick anyone is shown is one settlement can look up.
            const recorded = await service.recordIndex(indexOfFeed());
            for (const candle of recorded.candles) noteCandle(candle);
            bus
              .publish<IndexEvent>(INDEX_SUBJECT, recorded)
              .catch((error) => deps.onError(error, INDEX_SUBJECT));
            feed.notify();
          },
          { lease: true },
        ),
        deps.scheduler.runEvery(PRUNE_JOB, PRUNE_INTERVAL_MS, () => service.pruneTicks(clock.now()), {
          lease: true,
        }),
      );
    },
    async stop() {
      for (const job of jobs.splice(0)) job.cancel();
      stopListening?.();
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
    },
  };
}
