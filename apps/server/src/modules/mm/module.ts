import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import { DemoTraders } from './demo-traders.ts';
import { type MarketMakerDeps, MarketMakerService } from './service.ts';

/** The scheduled jobs (one node each, a lease). */
export const MARKET_MAKER_JOB = 'market-maker';
export const DEMO_TRADERS_JOB = 'demo-traders';
export const PRUNE_BOT_ORDERS_JOB = 'market-maker.prune';
const PRUNE_INTERVAL_MS = 60 * 60_000;

export interface MarketMakerModule {
  service: MarketMakerService;
  demoTraders: DemoTraders;
  /** Schedules the maker's job, the hourly pruning of the bots' orders and, in demo mode, the demo traders'. */
  start(options: { demoTraders: boolean }): void;
}

/**
 * The market maker and the demo traders: bots that trade through the spot service from
 * platform-owned customer accounts. No routes of its own; the back office reads and saves the
 * settings through the service.
 */
export function registerMarketMakerModule(
  deps: MarketMakerDeps & {
    scheduler: Scheduler;
    quoteIntervalMs: number;
    tradeIntervalMs: number;
    random?: () => number;
  },
): MarketMakerModule {
  const service = new MarketMakerService(deps);
  const demoTraders = new DemoTraders(deps, service, deps.random);
  const jobs: ScheduledJob[] = [];
  return {
    service,
    demoTraders,
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
