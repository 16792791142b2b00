import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import type { CaptchaTextSource } from './modules/auth/captcha.ts';
import { registerAuthModule } from './modules/auth/module.ts';
import { type MarketsModule, registerMarketsModule } from './modules/markets/module.ts';
import { type PriceFeed, SimulatedPriceFeed } from './modules/markets/price-feed.ts';
import { registerSessionsModule } from './modules/sessions/module.ts';
import { registerSettingsModule } from './modules/settings/module.ts';
import { registerUsersModule } from './modules/users/module.ts';
import { type Bus, MemoryBus } from './platform/bus.ts';
import { systemClock, type TimerClock } from './platform/clock.ts';
import { type DbHandle, openDb } from './platform/db.ts';
import { registerHttpPlatform, toTrustProxyOption } from './platform/http.ts';
import { DbLeaseStore } from './platform/job-leases.ts';
import { createLoggerOptions, type LoggerSettings, logDemoMode } from './platform/logging.ts';
import { registerMetrics } from './platform/metrics.ts';
import { migrateToLatest } from './platform/migrate.ts';
import { NatsBus } from './platform/nats-bus.ts';
import { type LimitStore, openLimitStore } from './platform/rate-limit.ts';
import { Scheduler } from './platform/scheduler.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { WsGateway } from './platform/ws-gateway.ts';
import { seedDemoData } from './seed.ts';

export interface BuildOptions {
  config: Config;
  /** Time and timers; tests pass a `ManualClock` and move it. */
  clock?: TimerClock;
  /** Text drawn in graphic codes; tests pass a known source, production draws random text. */
  captchaText?: CaptchaTextSource;
  /** Schedule the price feed's job (off in most tests, which tick it by hand). */
  startFeed?: boolean;
  logger?: boolean;
  /** Where log lines go (stdout when absent); tests capture them in memory. */
  logStream?: LoggerSettings['stream'];
}

export interface AppContext {
  config: Config;
  store: DbHandle;
  clock: TimerClock;
  bus: Bus;
  scheduler: Scheduler;
  limitStore: LimitStore;
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
  const limitStore = await openLimitStore({
    kind: config.limitStore,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    prefix: config.limitPrefix,
  });

  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : createLoggerOptions({ level: config.logLevel, stream: options.logStream }),
    trustProxy: toTrustProxyOption(config.trustProxy),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 64 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const feed = new SimulatedPriceFeed({ seed: config.feedSeed, intervalMs: config.feedIntervalMs, clock });
  const gateway = new WsGateway({
    heartbeatMs: config.ws.heartbeatMs,
    maxConnectionsPerAddress: config.ws.connectionsPerIp,
  });
  const onBusError = (error: unknown, event: { subject: string; seq: bigint }) =>
    app.log.error({ err: error, subject: event.subject, seq: String(event.seq) }, 'bus subscriber failed');
  // why: NATS_URL switches the bus to JetStream for several nodes; unset is the in-process bus.
  const bus: Bus = config.natsUrl
    ? await NatsBus.connect({ url: config.natsUrl, prefix: config.natsPrefix, clock, onError: onBusError })
    : new MemoryBus({ clock, onError: onBusError });
  const scheduler = new Scheduler({
    clock,
    leases: new DbLeaseStore(store.db),
    onError: (error, job) => app.log.error({ err: error, job }, 'scheduled job failed'),
  });
  const ctx: AppContext = { config, store, clock, bus, scheduler, limitStore, feed, gateway };
  app.decorate('ctx', ctx);

  registerHttpPlatform(app);
  await registerSecurityHeaders(app, { webDist: config.webDist });
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await gateway.register(app);
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
  registerMetrics(app, { token: config.metricsToken });

  const { db } = store;
  const { limits } = config;
  const limit = limitStore.limit.bind(limitStore);
  let users!: ReturnType<typeof registerUsersModule>;
  let settings!: ReturnType<typeof registerSettingsModule>;
  let markets!: MarketsModule;
  // why: one line per module; each registers its own routes and returns the service that later
  // modules call (never their repositories).
  await app.register(
    async (api) => {
      settings = registerSettingsModule({ db });
      const sessions = registerSessionsModule(api, { db, clock, policy: config.session });
      users = registerUsersModule(api, {
        db,
        clock,
        sessions,
        settings,
        supportUrl: config.supportUrl,
        loginPasswordChecks: limit('login_password_check', limits.passwordChecks),
        withdrawPasswordChecks: limit('withdraw_password_check', limits.passwordChecks),
      });
      registerAuthModule(api, {
        db,
        clock,
        users,
        sessions,
        captchaText: options.captchaText,
        captchaEnabled: config.captcha,
        registerMode: config.registerMode,
        limits: {
          loginPerAccountAndIp: limit('login_account_ip', limits.loginPerAccountAndIp),
          loginPerIp: limit('login_ip', limits.loginPerIp),
          loginFailuresPerAccount: limit('login_failures_account', limits.loginFailuresPerAccount),
          captchaAfter: limits.loginCaptchaAfter,
          registrationsPerIp: limit('register_ip', limits.registrationsPerIp),
          captchasPerIp: limit('captcha_ip', limits.captchasPerIp),
        },
        clientConfig: () => ({
          register_mode: config.registerMode,
          captcha: config.captcha,
          price_source: feed.source,
        }),
      });
      markets = registerMarketsModule(api, {
        db,
        bus,
        scheduler,
        gateway,
        feed,
        feedIntervalMs: config.feedIntervalMs,
        onError: (error, what) => app.log.error({ err: error, what }, 'markets failed'),
      });
    },
    { prefix: '/apiv' },
  );
  const seeded = config.demo
    ? await seedDemoData({ db, clock, users, settings, markets: markets.service })
    : false;
  logDemoMode(app.log, { demo: config.demo, production: config.production, seeded });

  await markets.start({ runFeed: options.startFeed !== false });

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

  app.addHook('onClose', async () => {
    await scheduler.stop();
    await markets.stop();
    await bus.close();
    await limitStore.close();
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
