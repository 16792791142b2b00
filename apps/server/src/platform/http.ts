import { type Locale, normalizeLocale } from '@bourse/i18n';
import { translateServer } from '@bourse/i18n/server';
import { AppError, RESULT_CODES, type ResultKey, SUCCESS_CODE, type SuccessKey } from '@bourse/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

/** The `{code, msg, data}` envelope of a success, with `msg` in the request's language. */
export function ok<T>(request: FastifyRequest, data: T, message: SuccessKey = 'OK') {
  return { code: SUCCESS_CODE, msg: translateServer(request.locale, `success.${message}`), data };
}

/**
 * The query of a back-office GET: the staff token may come in the query string (image links and
 * downloads cannot set a header).
 */
export const TokenQuery = z.object({ token: z.string().max(200).optional() });

/** Zod schema of an envelope carrying `data` (nullable, since errors carry `data: null`). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data: data.nullable() });
}

function isResultKey(value: unknown): value is ResultKey {
  return typeof value === 'string' && Object.hasOwn(RESULT_CODES, value);
}

function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  key: ResultKey,
  status?: number,
  params?: Record<string, string | number>,
) {
  const entry = RESULT_CODES[key];
  return reply
    .status(status ?? entry.status)
    .send({ code: entry.code, msg: translateServer(request.locale, `errors.${key}`, params), data: null });
}

/**
 * Sets the request's language from the `Lang` header (fallback ja-JP) and turns every error into
 * the envelope: business errors keep their code; bad input becomes a translated parameter error;
 * only a fault of our own is a 500.
 */
export function registerHttpPlatform(app: FastifyInstance): void {
  app.decorateRequest('locale', 'ja-JP');
  // why: a request that reaches a stopping node (on a keep-alive connection) gets the envelope
  // with 503, so clients and load balancers retry elsewhere; Fastify's own 503 has another shape
  // (the app turns it off with `return503OnClosing: false`).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.lang;
    request.locale = normalizeLocale(Array.isArray(header) ? header[0] : header);
    if (closing) {
      reply.header('connection', 'close');
      return sendError(request, reply, 'SERVICE_UNAVAILABLE');
    }
  });
  // why: a request accepted before the stop is answered, and its keep-alive connection must then
  // end; the server closes only the connections idle when it stops, and waits for the others
  // (the keep-alive timeout is 72 s), so without this the stop hangs on them.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) return sendError(request, reply, error.key, undefined, error.params);
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const first = fastifyError.validation[0];
      const message = first?.message;
      if (isResultKey(message)) return sendError(request, reply, message);
      const missing = first?.keyword === 'required' || /received undefined/i.test(message ?? '');
      return sendError(request, reply, missing ? 'PARAM_MISSING' : 'PARAM_ERROR');
    }
    // why: the upload parser may report an oversized file after the route's file handler gave up
    // on it; it is the same refusal either way.
    if (fastifyError.code === 'FST_REQ_FILE_TOO_LARGE') return sendError(request, reply, 'UPLOAD_TOO_LARGE');
    const status = fastifyError.statusCode ?? 500;
    if (status === 429) return sendError(request, reply, 'TOO_MANY_REQUESTS');
    if (status >= 400 && status < 500) return sendError(request, reply, 'PARAM_ERROR', status);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 'INTERNAL_ERROR');
  });

  app.setNotFoundHandler((request, reply) => sendError(request, reply, 'NOT_FOUND'));
}

/** Who sent the request: address and device, as stored in sessions and the login log. */
export function clientOf(request: FastifyRequest): { ip: string; device: string } {
  return { ip: clientIp(request), device: clientDevice(request) };
}

/**
 * Fastify's `trustProxy` from the `TRUST_PROXY` setting. A hop count `n` believes the `n` nearest
 * addresses of the chain (the socket's peer and the proxies before it). why: Fastify itself treats a
 * number as "trust nothing", so the count is turned into a trust function here.
 */
export function toTrustProxyOption(
  setting: boolean | number | string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  if (setting <= 0) return false;
  return (_address, hop) => hop < setting;
}

/** Longest client address kept (an IPv6 address with a zone fits; anything longer is not an address). */
export const MAX_CLIENT_IP_LENGTH = 64;
/** Longest User-Agent kept. */
export const MAX_CLIENT_DEVICE_LENGTH = 255;

/**
 * The client address as Fastify sees it: the socket's peer, or with `TRUST_PROXY` the address the
 * trusted proxies forwarded. Capped at {@link MAX_CLIENT_IP_LENGTH} characters, since a forwarded
 * header is text the client may have written and the address is stored and shown in the back office.
 */
export function clientIp(request: FastifyRequest): string {
  return (request.ip || '').slice(0, MAX_CLIENT_IP_LENGTH);
}

/** A short description of the client device from its User-Agent, capped at {@link MAX_CLIENT_DEVICE_LENGTH}. */
export function clientDevice(request: FastifyRequest): string {
  const ua = request.headers['user-agent'] ?? '';
  return ua.slice(0, MAX_CLIENT_DEVICE_LENGTH);
}

/**
 * Registers `build` as an encapsulated plugin under `prefix` (its hooks stay inside) and answers
 * what it returned, so the caller composes with the modules it created there.
 */
export async function registerScope<T>(
  app: FastifyInstance,
  prefix: string,
  build: (scope: FastifyInstance) => Promise<T>,
): Promise<T> {
  const built: T[] = [];
  await app.register(
    async (scope) => {
      built.push(await build(scope));
    },
    { prefix },
  );
  const [value] = built;
  if (built.length !== 1) throw new Error(`the ${prefix} scope did not register`);
  return value as T;
}
