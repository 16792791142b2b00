import { RESULT_CODES, type ResultKey } from '@bourse/shared';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The business errors the route can answer besides the generic ones (bad input, session), for
     * the API document. They travel in the envelope, most with HTTP 200 (see RESULT_CODES).
     */
    errors?: readonly ResultKey[];
  }
}

export interface ApiDocumentOptions {
  version: string;
}

type SecurityRequirement = Record<string, string[]>;
const CUSTOMER_SECURITY: SecurityRequirement[] = [{ customerToken: [] }, { customerBearer: [] }];
const STAFF_SECURITY: SecurityRequirement[] = [{ staffBearer: [] }];
/** Answers that are not HTTP 200, each a shared response of the document. */
const STATUS_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'The request could not be read (malformed JSON or form): code 1001 `PARAM_ERROR`. A body too ' +
      'large (413) or of an unsupported type (415) is answered the same way with that status.',
  },
  404: { name: 'NotFound', description: 'No such route or resource: code 1005 `NOT_FOUND`.' },
  429: {
    name: 'TooManyRequests',
    description: 'A rate limit was reached; try again later: code 1004 `TOO_MANY_REQUESTS`.',
  },
  500: { name: 'InternalError', description: 'A fault of the server: code 1006 `INTERNAL_ERROR`.' },
};

type RouteConfig = { auth?: boolean; staff?: string; errors?: readonly ResultKey[] } | undefined;

/** Who may call a route: customers (`config.auth`), staff (`config.staff` under /admin-api), anyone. */
function accessOf(url: string, config: RouteConfig): 'public' | 'customer' | 'staff' | 'staff-permission' {
  if (config?.auth) return 'customer';
  // why: the staff module declares `config.staff`; platform/ imports no module, so it reads the value.
  const staff = url.startsWith('/admin-api') ? config?.staff : undefined;
  if (staff === undefined || staff === 'public') return 'public';
  return staff === 'session' ? 'staff' : 'staff-permission';
}

/** Every result key the route can answer: the generic ones of its kind, then its own, by code. */
export function errorsOf(url: string, config: RouteConfig): ResultKey[] {
  const access = accessOf(url, config);
  const keys = new Set<ResultKey>(['PARAM_ERROR', 'PARAM_MISSING']);
  if (access !== 'public') keys.add('SESSION_INVALID');
  if (access === 'staff-permission') keys.add('STAFF_FORBIDDEN');
  for (const key of config?.errors ?? []) keys.add(key);
  keys.add('INTERNAL_ERROR');
  return [...keys].sort((a, b) => RESULT_CODES[a].code - RESULT_CODES[b].code);
}

function securityOf(url: string, config: RouteConfig): SecurityRequirement[] {
  const access = accessOf(url, config);
  if (access === 'customer') return CUSTOMER_SECURITY;
  if (access === 'staff' || access === 'staff-permission') return STAFF_SECURITY;
  return [];
}

type Operation = {
  responses: Record<string, { description?: string; $ref?: string }>;
  'x-error-codes'?: { key: ResultKey; code: number }[];
};

/** Adds each operation's error answers: the codes in the 200 description, the other statuses as shared responses. */
function addErrorResponses(document: { paths?: Record<string, Record<string, Operation>> }) {
  for (const path of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(path)) {
      const codes = operation['x-error-codes'] ?? [];
      const inEnvelope = codes.filter(({ key }) => RESULT_CODES[key].status === 200);
      const success = operation.responses['200'];
      if (success) {
        success.description =
          'The envelope: code 1000 with `data` on success; otherwise, with HTTP 200 and `data: null`, ' +
          `one of: ${inEnvelope.map(({ key, code }) => `${code} \`${key}\``).join(', ')}.`;
      }
      const statuses = new Set([400, 500, ...codes.map(({ key }) => RESULT_CODES[key].status)]);
      for (const status of [...statuses].sort((a, b) => a - b)) {
        const shared = STATUS_RESPONSES[status];
        if (shared) operation.responses[String(status)] = { $ref: `#/components/responses/${shared.name}` };
      }
    }
  }
}

const ERROR_ENVELOPE = {
  type: 'object' as const,
  required: ['code', 'msg', 'data'],
  properties: {
    code: {
      type: 'integer' as const,
      description: 'The result code (see each operation’s `x-error-codes`).',
    },
    msg: { type: 'string' as const, description: 'The message, in the language of the `Lang` header.' },
    data: { type: 'null' as const },
  },
};

/**
 * The OpenAPI document at `/docs` (`/docs/json`): every `/apiv` and `/admin-api` operation with its
 * use-case `operationId`, its security (public operations `security: []`), its envelope and the
 * result codes it can answer (`x-error-codes`). `npm run lint` checks it with redocly.
 */
export async function registerApiDocument(app: FastifyInstance, options: ApiDocumentOptions): Promise<void> {
  const documentOptions: FastifyDynamicSwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bourse API',
        version: options.version,
        description:
          'Every answer is the envelope `{code, msg, data}`: code 1000 is success, 100 an invalid ' +
          'session (sign in again). Business errors travel with HTTP 200 in the envelope; each ' +
          'operation lists the codes it can answer in `x-error-codes`. Send `Lang` for the language of `msg`.',
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      },
      servers: [{ url: '/', description: 'This installation' }],
      tags: [
        { name: 'auth', description: 'Registration, login, graphic codes and client configuration' },
        { name: 'users', description: 'The signed-in user’s profile and passwords' },
        { name: 'markets', description: 'Markets, index prices and candles' },
        { name: 'wallet', description: 'Balances, deposits, withdrawals, conversion, addresses, bills' },
        { name: 'delivery', description: 'Delivery contracts and trial money' },
        { name: 'spot', description: 'Spot orders and fills; markets, tickers, depth, trades, candles' },
        { name: 'staff', description: 'Back office: sign-in, users, finance reviews, configuration, audit' },
        { name: 'staff-delivery', description: 'Back office: delivery products, trial money, exposure' },
        { name: 'staff-spot', description: 'Back office: spot markets, halts, books, trades, user orders' },
      ],
      components: {
        securitySchemes: {
          customerToken: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description:
              'The session token from login: in the query on GET, as the `token` form field on POST.',
          },
          customerBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The same session token as `Authorization: Bearer <token>`.',
          },
          staffBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The staff session token from `/admin-api/totp/verify` (also accepted as `token`).',
          },
        },
        responses: Object.fromEntries(
          Object.values(STATUS_RESPONSES).map(({ name, description }) => [
            name,
            { description, content: { 'application/json': { schema: ERROR_ENVELOPE } } },
          ]),
        ),
      },
    },
    transform: (input) => {
      const result = jsonSchemaTransform(input);
      if (result.schema.hide) return result;
      const config = input.route.config as RouteConfig;
      const errors = errorsOf(input.url, config).map((key) => ({ key, code: RESULT_CODES[key].code }));
      return {
        ...result,
        schema: { ...result.schema, security: securityOf(input.url, config), 'x-error-codes': errors },
      };
    },
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      addErrorResponses(document.openapiObject as Parameters<typeof addErrorResponses>[0]);
      return document.openapiObject;
    },
  };
  await app.register(swagger, documentOptions);
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
