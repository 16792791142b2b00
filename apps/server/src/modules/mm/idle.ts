import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';

/** What the bots ask before each round. */
export interface BotsIdle {
  /** True while the bots should neither quote nor trade. */
  isIdle(): Promise<boolean>;
}

export interface DemoIdleDeps {
  /** When a customer was last seen on any node (platform/customer-activity.ts). */
  activity: { lastSeen(): Promise<number | undefined> };
  clock: Clock;
  /** No customer for this long (ms, above 0): the bots pause. */
  afterMs: number;
  log: Pick<FastifyBaseLogger, 'info'>;
}

/**
 * Demo mode's pause of the bots (`DEMO_IDLE_MINUTES`): idle once no customer has been seen on any
 * node for `afterMs`, or ever. why: every round of the maker and the demo traders adds ledger
 * postings and trades, which are never pruned; around the clock that is about 1.4 GB a day for a
 * demo nobody looks at. Logs when the bots pause and when they resume, once each time.
 */
export class DemoIdle implements BotsIdle {
  readonly #deps: DemoIdleDeps;
  /** What the last round was told; undefined before the first. */
  #idle: boolean | undefined;

  constructor(deps: DemoIdleDeps) {
    this.#deps = deps;
  }

  async isIdle(): Promise<boolean> {
    const { activity, clock, afterMs, log } = this.#deps;
    const last = await activity.lastSeen();
    const idle = last === undefined || clock.now() - last >= afterMs;
    if (idle && this.#idle !== true) {
      log.info(
        {
          idleMinutes: afterMs / 60_000,
          lastSeenAt: last === undefined ? null : new Date(last).toISOString(),
        },
        'demo bots paused: no customer activity; the market maker withdraws its quotes',
      );
    } else if (!idle && this.#idle === true) {
      log.info({ lastSeenAt: new Date(last!).toISOString() }, 'demo bots resumed: a customer is active');
    }
    this.#idle = idle;
    return idle;
  }
}
