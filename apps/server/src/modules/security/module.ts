import type { FastifyInstance } from 'fastify';
import { securityRoutes } from './routes.ts';
import { type SecurityDeps, SecurityService } from './service.ts';

export function registerSecurityModule(api: FastifyInstance, deps: SecurityDeps): SecurityService {
  const security = new SecurityService(deps);
  api.register(securityRoutes, { security });
  return security;
}
