import type { FastifyInstance } from 'fastify';
import { CustomerActivity } from '../../platform/customer-activity.ts';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import { DemoTraders } from './demo-traders.ts';
import { type BotsIdle, DemoIdle } from './idle.ts';
import { type MarketMakerDeps, MarketMakerService } from './service.ts';

/** The scheduled jobs (one node each, a lease). */
export const MARKET_MAKER_JOB = 'market-maker';
export const DEMO_TRADERS_JOB = 'demo-traders';
export const PRUNE_BOT_ORDERS_JOB = 'market-maker.prune';
const PRUNE_INTERVAL_MS = 60 * 60_000;

export interface MarketMakerModule {
  service: MarketMakerService;
  demoTraders: DemoTraders;
  /** When a customer was last seen on any node; present while the bots pause when idle. */
  activity: CustomerActivity | undefined;
  /** The pause the bots ask before each round (the demo's perpetual maker asks it too). */
  idle: BotsIdle | undefined;
  /** Schedules the maker's job, the hourly pruning of the bots' orders and, in demo mode, the demo traders'. */
  start(options: { demoTraders: boolean }): void;
}

/**
 * The market maker and the demo traders: bots that trade through the spot service from
 * platform-owned customer accounts. No routes of its own; the back office reads and saves the
 * settings through the service. With `idle.afterMs` above 0 (demo mode's `DEMO_IDLE_MINUTES`),
 * every request to the customer app's API or socket on `app`, and its open sockets, count as
 * customer activity, kept for every node in the store, and the bots pause while there is none.
 */
export function registerMarketMakerModule(
  app: FastifyInstance,
  deps: Omit<MarketMakerDeps, 'idle'> & {
    scheduler: Scheduler;
    quoteIntervalMs: number;
    tradeIntervalMs: number;
    /** This node's customer sockets, and how long without a customer pauses the bots (0: never). */
    idle: { gateway: { readonly connectionCount: number }; afterMs: number };
    random?: () => number;
  },
): MarketMakerModule {
  const activity =
    deps.idle.afterMs > 0
      ? new CustomerActivity({
          db: deps.db,
          clock: deps.clock,
          onError: (error) => app.log.warn({ err: error }, 'customer activity not recorded'),
        })
      : undefined;
  activity?.register(app, () => deps.idle.gateway.connectionCount);
  const botDeps: MarketMakerDeps = {
    ...deps,
    onError: deps.onError ?? ((error, what) => app.log.error({ err: error, what }, 'market maker failed')),
    idle: activity
      ? new DemoIdle({ activity, clock: deps.clock, afterMs: deps.idle.afterMs, log: app.log })
      : undefined,
  };
  const service = new MarketMakerService(botDeps);
  const demoTraders = new DemoTraders(botDeps, service, deps.random);
  const jobs: ScheduledJob[] = [];
  return {
    service,
    demoTraders,
    activity,
    idle: botDeps.idle,
    start(options) {
      if (jobs.length > 0) return;
      jobs.push(
        deps.scheduler.runEvery(MARKET_MAKER_JOB, deps.quoteIntervalMs, () => service.runOnce(), {
          lease: true,
        }),
        deps.scheduler.runEvery(PRUNE_BOT_ORDERS_JOB, PRUNE_INTERVAL_MS, () => service.pruneBotOrders(), {
          lease: true,
        }),
      );
      if (options.demoTraders) {
        jobs.push(
          deps.scheduler.runEvery(DEMO_TRADERS_JOB, deps.tradeIntervalMs, () => demoTraders.runOnce(), {
            lease: true,
          }),
        );
      }
    },
  };
}
