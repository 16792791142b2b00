import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface MetricsOptions {
  /** Bearer token that opens `/metrics` to other addresses than loopback; unset = loopback only. */
  token?: string | undefined;
}

/** True for 127.0.0.0/8, `::1` and IPv4-mapped loopback (`::ffff:127.x.y.z`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1]! : address;
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  return net.isIPv6(address) && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/i.test(address);
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * A request from this machine, not relayed: the socket's peer is loopback and no proxy header is
 * present. why: the socket, not `request.ip` — with TRUST_PROXY on, `request.ip` comes from a header
 * the client can write; and a proxy on the same machine connects from loopback on behalf of anyone,
 * so a forwarded request never counts as local.
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.socket?.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function hasBearer(request: FastifyRequest, expected: Buffer | undefined): boolean {
  if (!expected) return false;
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), expected);
}

/**
 * Prometheus metrics at `/metrics`: request latency by route and status, and process figures.
 * Answers a local, unrelayed request or one carrying `Authorization: Bearer <token>`; anyone else
 * gets the envelope's not-found answer, as for any unknown path.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions = {}): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // why: label by route pattern, not raw URL, so a flood of random paths cannot explode the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  const expected = options.token ? digest(options.token) : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!isLocalRequest(request) && !hasBearer(request, expected)) return reply.callNotFound();
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
