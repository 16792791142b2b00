import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { CaptchaService, type CaptchaTextSource } from './modules/auth/captcha.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { AuthService } from './modules/auth/service.ts';
import { type PriceFeed, SimulatedPriceFeed } from './modules/markets/price-feed.ts';
import { marketsRoutes } from './modules/markets/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { UsersService } from './modules/users/service.ts';
import { registerAuthHook } from './platform/auth-hook.ts';
import { type Bus, MemoryBus } from './platform/bus.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { type DbHandle, openDb } from './platform/db.ts';
import { registerHttpPlatform } from './platform/http.ts';
import { registerMetrics } from './platform/metrics.ts';
import { migrateToLatest } from './platform/migrate.ts';
import { MemoryRateLimiter, type RateLimiter } from './platform/rate-limiter.ts';
import { WsGateway } from './platform/ws-gateway.ts';
import { seedDemoData } from './seed.ts';

export interface BuildOptions {
  config: Config;
  clock?: Clock;
  /** Text drawn in graphic codes; tests pass a known source, production draws random text. */
  captchaText?: CaptchaTextSource;
  /** Start the price feed's timer (off in most tests, which tick it by hand). */
  startFeed?: boolean;
  logger?: boolean;
}

export interface AppContext {
  config: Config;
  store: DbHandle;
  clock: Clock;
  bus: Bus;
  limiter: RateLimiter;
  feed: PriceFeed;
  gateway: WsGateway;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/**
 * Builds the whole platform as one Fastify instance: store (migrated, seeded when DEMO is on),
 * `/apiv`, `/ws`, `/docs`, `/metrics`, `/healthz` and the built customer app at `/`.
 * Only `server.ts` calls `listen`.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const store = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(store.db);
  if (config.demo) await seedDemoData(store.db, clock);

  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 64 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const limiter = new MemoryRateLimiter(clock);
  const feed = new SimulatedPriceFeed({ seed: config.feedSeed, intervalMs: config.feedIntervalMs, clock });
  const gateway = new WsGateway();
  const ctx: AppContext = { config, store, clock, bus: new MemoryBus(), limiter, feed, gateway };
  app.decorate('ctx', ctx);

  registerHttpPlatform(app);
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Bourse API',
        version: '0.1.0',
        description: 'Envelope {code, msg, data}; code 1000 is success, 100 an invalid session.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  registerMetrics(app);

  const captcha = new CaptchaService(store.db, clock, options.captchaText);
  const auth = new AuthService({
    db: store.db,
    clock,
    limiter,
    limits: config.limits,
    captcha,
    captchaEnabled: config.captcha,
    registerMode: config.registerMode,
  });
  const users = new UsersService({ db: store.db, clock, supportUrl: config.supportUrl });

  await app.register(
    async (api) => {
      registerAuthHook(api, auth);
      await api.register(authRoutes, {
        auth,
        clientConfig: () => ({
          register_mode: config.registerMode,
          captcha: config.captcha,
          price_source: feed.source,
        }),
      });
      await api.register(usersRoutes, { users });
      await api.register(marketsRoutes, { feed });
    },
    { prefix: '/apiv' },
  );

  gateway.addChannel('ticker', { snapshot: () => feed.tickers() });
  const stopTickerFanout = feed.onUpdate((tickers) => gateway.broadcast('ticker', tickers));
  gateway.register(app);

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    await sql`select 1`.execute(store.db);
    return reply.send({
      status: 'ok',
      store: store.dialect,
      feed: feed.source,
      node: process.version,
    });
  });

  registerWebApp(app, config.webDist);

  if (options.startFeed !== false) feed.start();
  app.addHook('onClose', async () => {
    stopTickerFanout();
    feed.stop();
    await store.close();
  });
  return app;
}

/** Serves the built customer app: hashed assets cached for a year, index.html always revalidated. */
function registerWebApp(app: FastifyInstance, webDist: string): void {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/plain').send('The customer app is not built yet: run `npm run build`.'),
    );
    return;
  }
  app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    setHeaders(reply, filePath) {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
