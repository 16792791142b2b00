import type { FastifyInstance } from 'fastify';
import { identityRoutes } from './routes.ts';
import { type IdentityDeps, IdentityService } from './service.ts';

export function registerIdentityModule(api: FastifyInstance, deps: IdentityDeps): IdentityService {
  const identity = new IdentityService(deps);
  api.register(identityRoutes, { identity });
  return identity;
}
