import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientDevice, clientIp } from './http.ts';

/** Who a request comes from: the address and a short description of the device. */
export interface ClientInfo {
  ip: string;
  device: string;
}

/** The signed-in user and session of a request. */
export interface AuthContext {
  userId: bigint;
  sessionId: bigint;
}

/**
 * Resolves a session token to its live session. The module that owns sessions implements it;
 * it throws `AppError('SESSION_INVALID')` for an unknown, ended or expired session.
 */
export interface Authenticator {
  authenticate(token: string | undefined, client: ClientInfo): Promise<AuthContext>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a session: the hook resolves `request.auth` or answers code 100. */
    auth?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The session token of a request: `Authorization: Bearer`, else `token` in the query or body. */
export function readToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const fromBody = (request.body as Record<string, unknown> | undefined)?.token;
  if (typeof fromBody === 'string' && fromBody) return fromBody;
  return undefined;
}

export function registerAuthHook(app: FastifyInstance, auth: Authenticator): void {
  app.decorateRequest('auth', null);
  // why: preValidation sees the raw body and query, before schemas strip the `token` field.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
    if (!request.routeOptions.config.auth) return;
    request.auth = await auth.authenticate(readToken(request), {
      ip: clientIp(request),
      device: clientDevice(request),
    });
  });
}

/** The session of an authenticated route (the hook guarantees it). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route is missing config.auth');
  return request.auth;
}
