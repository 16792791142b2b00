import type { FastifyInstance } from 'fastify';
import { spotRoutes } from './routes.ts';
import { type SpotDeps, SpotService } from './service.ts';

/**
 * Spot trading: `/apiv/Trade/*` (order entry, the customer's orders and fills) and the spot
 * market data under `/apiv/Market/*`. Registers the funds its open orders hold with the ledger
 * as open reservations. `start()` rebuilds every market's book from the store.
 */
export function registerSpotModule(api: FastifyInstance, deps: SpotDeps): SpotService {
  const service = new SpotService(deps);
  api.register(spotRoutes, { spot: service });
  return service;
}
