import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyInstance, FastifyLoggerOptions, FastifyRequest } from 'fastify';
import pino, { type LoggerOptions as PinoLoggerOptions } from 'pino';
import type pinoPretty from 'pino-pretty';

/** What a secret is replaced with in the log. */
export const REDACTED = '[Redacted]';

/**
 * Key paths pino blanks out wherever a log line carries them: the session token in a query or a
 * body, and the headers that carry credentials.
 */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'req.query.token',
  'req.body.token',
  'request.query.token',
  'request.body.token',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
];

// why: the spec sends the session token as `?token=` on GET calls and as a form field, so it ends
// up inside URLs and error texts that pino's key-based redaction cannot see.
const TOKEN_IN_TEXT = /\b(token=)[^&#\s"'<>]*/gi;
const TOKEN_IN_JSON = /("token"\s*:\s*")[^"]*(")/gi;
const BEARER_IN_TEXT = /\b(bearer\s+)[^\s"',;]+/gi;

/** Replaces session tokens and bearer credentials inside free text (URLs, messages, stacks). */
export function redactSecrets(text: string): string {
  if (!/token|bearer/i.test(text)) return text;
  return text
    .replace(TOKEN_IN_TEXT, `$1${REDACTED}`)
    .replace(TOKEN_IN_JSON, `$1${REDACTED}$2`)
    .replace(BEARER_IN_TEXT, `$1${REDACTED}`);
}

function redactTopLevelStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Error)
    return value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (typeof field !== 'string') continue;
    const clean = redactSecrets(field);
    if (clean === field) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = clean;
  }
  return copy ?? value;
}

export interface LoggerSettings {
  /** pino level (`silent` … `trace`). */
  level: string;
  /** Where lines go; stdout when absent. Tests pass an in-memory stream. */
  stream?: { write(line: string): void };
  /** Human-readable lines on stdout (pino-pretty) instead of JSON; ignored when `stream` is given. */
  pretty?: boolean;
}

/** why: loaded only for a terminal's lines; a JSON log (a service, the benchmarks) never needs it. */
function loadPinoPretty(): typeof pinoPretty {
  return createRequire(import.meta.url)('pino-pretty') as typeof pinoPretty;
}

/**
 * Fastify's logger options: pino at `level`, writing to `stream`, with every session token and
 * credential header kept out of the log — in request URLs (`?token=`), bodies, headers, error
 * messages and stacks, and free-text messages such as Fastify's "Route GET:/x?token=… not found".
 */
export function createLoggerOptions(settings: LoggerSettings): FastifyLoggerOptions & PinoLoggerOptions {
  // why: pino-pretty runs in-process on the already-redacted line, so a terminal shows exactly what
  // the JSON log would hold.
  const stream =
    settings.stream ??
    (settings.pretty
      ? loadPinoPretty()({
          translateTime: 'SYS:HH:MM:ss.l',
          // why: a request line's fields are all in its message; other lines keep their fields.
          ignore: 'pid,hostname,reqId,method,path,status,ms',
          messageFormat: '{if reqId}{reqId} {end}{msg}',
        })
      : undefined);
  return {
    level: settings.level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactSecrets(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      err: (error: Error) => {
        const serialized = pino.stdSerializers.err(error);
        serialized.message = redactSecrets(serialized.message ?? '');
        serialized.stack = redactSecrets(serialized.stack ?? '');
        return serialized;
      },
    },
    hooks: {
      logMethod(args: unknown[], method: (...args: unknown[]) => void) {
        // why: bound messages and one-level fields (e.g. `{ path: request.url }`) are free text.
        return method.apply(this, args.map(redactTopLevelStrings));
      },
    },
  };
}

/**
 * One log line per answered request — its id (`reqId`, bound by Fastify), method, path with any
 * session token redacted, status and time in milliseconds — in place of Fastify's two lines
 * (`incoming request`, `request completed`); start Fastify with `disableRequestLogging`. WebSocket
 * upgrades get their line when they arrive.
 */
/** Levels at which the per-request line is not written. */
const QUIET_LEVELS = new Set(['warn', 'error', 'fatal', 'silent']);

export function registerRequestLog(app: FastifyInstance): void {
  // why: a WebSocket upgrade is never "answered" through Fastify's reply, so it is logged as it arrives.
  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const path = redactSecrets(request.url);
    request.log.info(
      { method: request.method, path, upgrade: 'websocket' },
      `${request.method} ${path} upgrade`,
    );
  });
  app.addHook('onResponse', async (request, reply) => {
    // why: above `info` the line is dropped anyway; skip building it (every request pays for it).
    if (QUIET_LEVELS.has(request.log.level)) return;
    const path = redactSecrets(request.url);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    request.log.info(
      { method: request.method, path, status: reply.statusCode, ms },
      `${request.method} ${path} ${reply.statusCode} ${ms} ms`,
    );
  });
}

/**
 * States at start-up whether demo accounts (known passwords) are seeded: a warning when a
 * production start seeds them because `DEMO=on` was set, a note when a production start skips them.
 */
export function logDemoMode(
  log: FastifyBaseLogger,
  state: { demo: boolean; production: boolean; seeded: boolean },
): void {
  if (!state.production) return;
  if (state.demo) {
    log.warn(
      { demo: true, seeded: state.seeded },
      'DEMO=on in production: demo accounts with published passwords (demo / demo1234) exist; remove them before opening to customers',
    );
  } else {
    log.info({ demo: false }, 'production start: demo accounts are not created (set DEMO=on to create them)');
  }
}
