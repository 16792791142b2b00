import type { ClientConfig } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { CaptchaService, type CaptchaTextSource } from './captcha.ts';
import { authRoutes } from './routes.ts';
import { type AuthDeps, AuthService } from './service.ts';

/** Sign-up, login, graphic codes and the login log: `/apiv/Login/*`. */
export function registerAuthModule(
  api: FastifyInstance,
  deps: Omit<AuthDeps, 'captcha'> & {
    captchaText?: CaptchaTextSource;
    clientConfig: () => z.infer<typeof ClientConfig>;
  },
): AuthService {
  const captcha = new CaptchaService(deps.db, deps.clock, deps.captchaText);
  const auth = new AuthService({ ...deps, captcha });
  api.register(authRoutes, { auth, clientConfig: deps.clientConfig });
  return auth;
}
