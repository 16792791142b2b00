import type { Ticker } from '@bourse/shared';
import type { FastifyInstance } from 'fastify';
import type { Bus, Subscription } from '../../platform/bus.ts';
import type { Db } from '../../platform/db.ts';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import type { SimulatedPriceFeed } from './price-feed.ts';
import { marketsRoutes } from './routes.ts';
import { MarketsService } from './service.ts';

/** Bus subject of the index tickers: every node's `/ws` pushes what the feed's node publishes. */
export const TICKERS_SUBJECT = 'market.tickers';

/** The scheduled job that moves the simulated index; it runs on one node (a database lease). */
export const FEED_JOB = 'index-feed';

export interface MarketsModule {
  service: MarketsService;
  /**
   * Loads the active markets and their last recorded prices into the feed, starts the ticker
   * fan-out (feed → bus → `/ws`), and with `runFeed` schedules the feed job. Call it after the
   * seed, so the markets it lists are there.
   */
  start(options: { runFeed: boolean }): Promise<void>;
  /** Ends the fan-out; the feed job ends with the scheduler. */
  stop(): Promise<void>;
}

/** Coins, markets and index prices: `/apiv/Market/*` and the `ticker` channel. */
export function registerMarketsModule(
  api: FastifyInstance,
  deps: {
    db: Db;
    bus: Bus;
    scheduler: Scheduler;
    gateway: WsGateway;
    feed: SimulatedPriceFeed;
    feedIntervalMs: number;
    onError: (error: unknown, what: string) => void;
  },
): MarketsModule {
  const { bus, feed, gateway } = deps;
  const service = new MarketsService({ db: deps.db });
  let latest: Ticker[] = [];
  const isNewer = (tickers: Ticker[]) => (tickers[0]?.ts ?? 0) >= (latest[0]?.ts ?? 0);
  api.register(marketsRoutes, { tickers: () => latest });

  let subscription: Subscription | undefined;
  let job: ScheduledJob | undefined;
  let stopListening: (() => void) | undefined;

  return {
    service,
    async start({ runFeed }) {
      const markets = await service.listMarkets({ activeOnly: true });
      feed.load(markets, await service.listRecordedPrices());
      latest = feed.tickers();
      // why: this node's REST answers move with its own feed at once; `/ws` takes the bus's copy,
      // so every node pushes the same tickers whichever node moves the feed.
      stopListening = feed.onUpdate((tickers) => {
        if (isNewer(tickers)) latest = tickers;
        bus.publish(TICKERS_SUBJECT, tickers).catch((error) => deps.onError(error, TICKERS_SUBJECT));
      });
      subscription = await bus.subscribe<Ticker[]>(TICKERS_SUBJECT, (event) => {
        if (isNewer(event.data)) latest = event.data;
        gateway.broadcast('ticker', event.data);
      });
      gateway.addChannel('ticker', { snapshot: () => latest });
      if (!runFeed) return;
      job = deps.scheduler.runEvery(
        FEED_JOB,
        deps.feedIntervalMs,
        async (run) => {
          // why: while another node held the lease it moved the prices; go on from what it recorded.
          if (run.isNewHolder) feed.resume(await service.listRecordedPrices());
          feed.step();
          await service.recordPrices(feed.prices(), feed.source);
          feed.notify();
        },
        { lease: true },
      );
    },
    async stop() {
      job?.cancel();
      stopListening?.();
      await subscription?.unsubscribe();
    },
  };
}
