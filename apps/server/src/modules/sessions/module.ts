import type { FastifyInstance } from 'fastify';
import { registerAuthHook } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { type SessionPolicy, SessionsService } from './service.ts';

/** Sessions: the `/apiv` auth hook resolves every route marked `config.auth` through this module. */
export function registerSessionsModule(
  api: FastifyInstance,
  deps: { db: Db; clock: Clock; policy: SessionPolicy },
): SessionsService {
  const sessions = new SessionsService(deps);
  registerAuthHook(api, sessions);
  return sessions;
}
