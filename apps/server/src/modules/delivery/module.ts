import type { FastifyInstance } from 'fastify';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import { DeliveryBackOffice } from './back-office.ts';
import { deliveryRoutes } from './routes.ts';
import { type DeliveryDeps, DeliveryService } from './service.ts';

/** The scheduled job that settles due contracts and expires trial grants (one node, a lease). */
export const SETTLEMENT_JOB = 'delivery-settlement';

export interface DeliveryModule {
  service: DeliveryService;
  backOffice: DeliveryBackOffice;
  /** Schedules the settlement job; it continues from the store, so a restart just goes on. */
  start(): void;
}

/**
 * Delivery contracts and trial money: `/apiv/Contract/*`, the settlement job, and the service the
 * back office and user registration call. Registers its open contracts and trial grants with the
 * ledger as open reservations.
 */
export function registerDeliveryModule(
  api: FastifyInstance,
  deps: DeliveryDeps & { scheduler: Scheduler; settleIntervalMs: number },
): DeliveryModule {
  const service = new DeliveryService(deps);
  const backOffice = new DeliveryBackOffice(deps, service);
  api.register(deliveryRoutes, { delivery: service });
  let _job: ScheduledJob | undefined;
  return {
    service,
    backOffice,
    start() {
      _job ??= deps.scheduler.runEvery(SETTLEMENT_JOB, deps.settleIntervalMs, () => service.runSettlement(), {
        lease: true,
      });
    },
  };
}
