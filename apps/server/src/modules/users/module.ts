import type { FastifyInstance } from 'fastify';
import { usersRoutes } from './routes.ts';
import { type UsersDeps, UsersService } from './service.ts';

/** Accounts: `/apiv/User/*` profile and password routes over the `users` table. */
export function registerUsersModule(api: FastifyInstance, deps: UsersDeps): UsersService {
  const users = new UsersService(deps);
  api.register(usersRoutes, { users });
  return users;
}
