import type { FastifyInstance } from 'fastify';
import type { Limit } from '../../platform/rate-limit.ts';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import { reservesRoutes } from './routes.ts';
import { type ReservesDeps, ReservesService } from './service.ts';

/** The scheduled job (one node, a lease): today's 00:00 UTC snapshot, and retention. */
export const SNAPSHOT_JOB = 'por-snapshot';
const CHECK_INTERVAL_MS = 60_000;

export interface ReservesModule {
  service: ReservesService;
  /** Schedules the daily snapshot (in demo mode, with simulated reserves). */
  start(options?: { demo?: boolean }): void;
}

export function registerReservesModule(
  api: FastifyInstance,
  deps: ReservesDeps & { scheduler: Scheduler; proofLimit: Limit },
): ReservesModule {
  const service = new ReservesService(deps);
  api.register(reservesRoutes, { reserves: service, proofLimit: deps.proofLimit });
  let job: ScheduledJob | undefined;
  return {
    service,
    start(options = {}) {
      if (job) return;
      job = deps.scheduler.runEvery(SNAPSHOT_JOB, CHECK_INTERVAL_MS, () => service.runDaily(options), {
        lease: true,
      });
    },
  };
}
