import type { FastifyInstance } from 'fastify';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import { launchpadRoutes } from './routes.ts';
import { type LaunchpadDeps, LaunchpadService } from './service.ts';

/** The launchpad's minute job: distribution, release of locks, pending rewards (one node, a lease). */
export const LAUNCHPAD_JOB = 'launchpad';

export interface LaunchpadModule {
  service: LaunchpadService;
  /** Schedules the job; it continues from the store, so a restart just goes on. */
  start(): void;
}

/** The launchpad and referral rewards: `/apiv/Issue/*`, `/apiv/Agent/*`, the job, the staff service. */
export function registerLaunchpadModule(
  api: FastifyInstance,
  deps: LaunchpadDeps & { scheduler: Scheduler; intervalMs: number },
): LaunchpadModule {
  const service = new LaunchpadService(deps);
  api.register(launchpadRoutes, { launchpad: service });
  let _job: ScheduledJob | undefined;
  return {
    service,
    start() {
      _job ??= deps.scheduler.runEvery(LAUNCHPAD_JOB, deps.intervalMs, () => service.runJobs(), {
        lease: true,
      });
    },
  };
}
