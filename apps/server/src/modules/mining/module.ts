import type { FastifyInstance } from 'fastify';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import { miningRoutes } from './routes.ts';
import { type MiningDeps, MiningService } from './service.ts';

/** The mining market's job: each whole UTC day's output once, then the releases that are due. */
export const MINING_JOB = 'mining';

export interface MiningModule {
  service: MiningService;
  start(): void;
}

export function registerMiningModule(
  api: FastifyInstance,
  deps: MiningDeps & { scheduler: Scheduler; intervalMs: number },
): MiningModule {
  const service = new MiningService(deps);
  api.register(miningRoutes, { mining: service });
  let _job: ScheduledJob | undefined;
  return {
    service,
    start() {
      _job ??= deps.scheduler.runEvery(MINING_JOB, deps.intervalMs, () => service.runJobs(), { lease: true });
    },
  };
}
