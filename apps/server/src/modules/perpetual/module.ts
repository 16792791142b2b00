import type { FastifyInstance } from 'fastify';
import { perpRoutes } from './routes.ts';
import { type PerpDeps, PerpService } from './service.ts';

/**
 * Perpetual contracts: `/apiv/Perp/*` and the `perp:<symbol>` channels. Registers the funds its
 * orders hold and its positions' margins with the ledger as open reservations. `start()` takes
 * the markets (rebuilding each clearing) and starts their pricing.
 */
export function registerPerpModule(api: FastifyInstance, deps: PerpDeps): PerpService {
  const service = new PerpService(deps);
  api.register(perpRoutes, { perp: service });
  return service;
}
