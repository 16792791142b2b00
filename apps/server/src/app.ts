import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { registerAuditModule } from './modules/audit/module.ts';
import type { AuditService } from './modules/audit/service.ts';
import type { CaptchaTextSource } from './modules/auth/captcha.ts';
import { registerAuthModule } from './modules/auth/module.ts';
import type { AuthService } from './modules/auth/service.ts';
import { BackupsModule } from './modules/backups/module.ts';
import { contentAdminRoutes } from './modules/content/admin-routes.ts';
import { registerContentModule } from './modules/content/module.ts';
import type { ContentService } from './modules/content/service.ts';
import { deliveryAdminRoutes } from './modules/delivery/admin-routes.ts';
import { type DeliveryModule, registerDeliveryModule } from './modules/delivery/module.ts';
import { SAME_ADDRESS_WINDOW_MS } from './modules/delivery/service.ts';
import { identityAdminRoutes } from './modules/identity/admin-routes.ts';
import { registerIdentityModule } from './modules/identity/module.ts';
import type { IdentityService } from './modules/identity/service.ts';
import { launchpadAdminRoutes } from './modules/launchpad/admin-routes.ts';
import { type LaunchpadModule, registerLaunchpadModule } from './modules/launchpad/module.ts';
import type { LaunchpadService } from './modules/launchpad/service.ts';
import { registerLedgerModule } from './modules/ledger/module.ts';
import type { LedgerService } from './modules/ledger/service.ts';
import { mailAdminRoutes } from './modules/mail/admin-routes.ts';
import { MailService } from './modules/mail/service.ts';
import { SmtpMailer } from './modules/mail/smtp.ts';
import { indexSourcesAdminRoutes } from './modules/markets/admin-routes.ts';
import { IndexAggregator } from './modules/markets/index-price.ts';
import { type MarketsModule, registerMarketsModule, TICKERS_SUBJECT } from './modules/markets/module.ts';
import { type PriceFeed, SimulatedPriceFeed } from './modules/markets/price-feed.ts';
import type { MarketsService } from './modules/markets/service.ts';
import { VenuePriceFeed } from './modules/markets/venue-feed.ts';
import { VenueIndexFeed } from './modules/markets/venue-index-feed.ts';
import { miningAdminRoutes } from './modules/mining/admin-routes.ts';
import { type MiningModule, registerMiningModule } from './modules/mining/module.ts';
import type { MiningService } from './modules/mining/service.ts';
import { makerAdminRoutes } from './modules/mm/admin-routes.ts';
import { MakerBackOffice } from './modules/mm/back-office.ts';
import { type MarketMakerModule, registerMarketMakerModule } from './modules/mm/module.ts';
import { noticesAdminRoutes } from './modules/notices/admin-routes.ts';
import { type NoticesModule, registerNoticesModule } from './modules/notices/module.ts';
import { reservesAdminRoutes } from './modules/reserves/admin-routes.ts';
import { publicationKey } from './modules/reserves/keys.ts';
import { type ReservesModule, registerReservesModule } from './modules/reserves/module.ts';
import { registerSecurityModule } from './modules/security/module.ts';
import type { SecurityService } from './modules/security/service.ts';
import { EMAIL_CODE_RESEND_SECONDS } from './modules/security/service.ts';
import { registerSessionsModule } from './modules/sessions/module.ts';
import { registerSettingsModule } from './modules/settings/module.ts';
import { spotAdminRoutes } from './modules/spot/admin-routes.ts';
import { SpotBackOffice } from './modules/spot/back-office.ts';
import { startSpotMarketData } from './modules/spot/market-data.ts';
import { registerSpotModule } from './modules/spot/module.ts';
import type { SpotService } from './modules/spot/service.ts';
import { registerStaffHook } from './modules/staff/hook.ts';
import { registerStaffModule } from './modules/staff/module.ts';
import { staffRoutes } from './modules/staff/routes.ts';
import { supportAdminRoutes } from './modules/support/admin-routes.ts';
import { registerSupportModule, type SupportModule } from './modules/support/module.ts';
import { registerUsersModule } from './modules/users/module.ts';
import { walletAdminRoutes } from './modules/wallet/admin-routes.ts';
import { registerWalletModule } from './modules/wallet/module.ts';
import type { WalletService } from './modules/wallet/service.ts';
import { type Bus, MemoryBus } from './platform/bus.ts';
import { systemClock, type TimerClock } from './platform/clock.ts';
import { type DbHandle, openDb } from './platform/db.ts';
import { registerHttpPlatform, toTrustProxyOption } from './platform/http.ts';
import { DbLeaseStore } from './platform/job-leases.ts';
import { KeyedHash } from './platform/keyed-hash.ts';
import {
  createLoggerOptions,
  type LoggerSettings,
  logDemoMode,
  registerRequestLog,
} from './platform/logging.ts';
import { registerMetrics } from './platform/metrics.ts';
import { migrateToLatest } from './platform/migrate.ts';
import { NatsBus } from './platform/nats-bus.ts';
import { registerApiDocument } from './platform/openapi.ts';
import { type LimitStore, openLimitStore } from './platform/rate-limit.ts';
import { Scheduler } from './platform/scheduler.ts';
import { resolveSecretKey, SecretBox } from './platform/secret-box.ts';
import { DOCS_DIRECTIVES, registerSecurityHeaders } from './platform/security-headers.ts';
import {
  DEFAULT_UPLOAD_MAX_BYTES,
  ImageUploads,
  LocalFileStore,
  registerUploadParsing,
  registerUploadServing,
} from './platform/uploads.ts';
import { WsGateway } from './platform/ws-gateway.ts';
import { Readiness } from './readiness.ts';
import { DEMO_USERS, seedDemoCrowd, seedDemoData } from './seed.ts';

export interface BuildOptions {
  config: Config;
  /** Time and timers; tests pass a `ManualClock` and move it. */
  clock?: TimerClock;
  /** Text drawn in graphic codes; tests pass a known source, production draws random text. */
  captchaText?: CaptchaTextSource;
  /** Schedule the price feed's job (off in most tests, which tick it by hand). */
  startFeed?: boolean;
  /** Schedule the delivery settlement job; by default it runs when the feed does. */
  startSettlement?: boolean;
  /** Schedule the backup job (`BACKUP_EVERY_HOURS`); by default with the settlement jobs. */
  startBackups?: boolean;
  /** Schedule the market maker (and, in demo mode, the demo traders); by default with the feed. */
  startMarketMaker?: boolean;
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
  /** The books: tests and the back office check their invariants through it. */
  ledger: LedgerService;
  audit: AuditService;
  /** `/readyz` and the dashboard's health: set once the modules have started. */
  readiness?: Readiness;
  /** The wallet's service, set once the API is registered (the back office and tests call it). */
  wallet?: WalletService;
  /** Delivery contracts and trial money (customer service and back-office side). */
  delivery?: DeliveryModule;
  /** Real-name verification (the demo seed and tests approve identities through it). */
  identity?: IdentityService;
  /** The launchpad, referral rewards and agents (tests run its job by hand). */
  launchpad?: LaunchpadService;
  /** The mining market (tests run its midnight job by hand). */
  mining?: MiningService;
  /** The markets' service (index, candles, staleness), set once the API is registered. */
  markets?: MarketsService;
  /** Spot trading (sequencers, orders, market data), set once the API is registered. */
  spot?: SpotService;
  /** The market maker and the demo traders (their settings; tests run their rounds by hand). */
  marketMaker?: MarketMakerModule;
  /** Proof of reserves and liabilities (snapshots; tests take them by hand). */
  reserves?: ReservesModule;
  /** Scheduled backups and the last one's result. */
  backups?: BackupsModule;
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
        : createLoggerOptions({
            level: config.logLevel,
            stream: options.logStream,
            pretty: config.logPretty,
          }),
    // why: registerRequestLog writes one line per request in place of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: toTrustProxyOption(config.trustProxy),
    // why: the HTTP platform answers requests that arrive while stopping with its own 503 envelope.
    return503OnClosing: false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 64 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestLog(app);

  const sources = config.indexSources;
  // why: with INDEX_SOURCES the index is the median of real venues; without, the demo's
  // simulated walk (refused in production by the config), random from node:crypto at each start.
  const feed =
    sources.venues.length > 0
      ? new VenueIndexFeed({
          venues: new VenuePriceFeed({
            venues: sources.venues,
            urls: sources.urls,
            clock,
            log: (level, msg, data) => app.log[level](data ?? {}, msg),
          }),
          aggregator: new IndexAggregator({
            staleMs: sources.staleMs,
            outlierBps: sources.outlierBps,
            minSources: sources.minSources,
          }),
          clock,
        })
      : new SimulatedPriceFeed({ seed: config.feedSeed, intervalMs: config.feedIntervalMs, clock });
  const gateway = new WsGateway({
    heartbeatMs: config.ws.heartbeatMs,
    maxConnectionsPerAddress: config.ws.connectionsPerIp,
    // why: measured with bench/ws-fanout: gathering 25 ms of frames per write lowered both the
    // median and the tail delivery latency against a write per event-loop turn.
    flushMs: 25,
    authLimit: limitStore.limit('ws_auth_ip', config.limits.wsAuthPerIp),
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
  const ledger = registerLedgerModule({
    db: store.db,
    clock,
    lockRows: store.dialect === 'postgres',
    // why: tests refuse a posting out of the lock order, so a use case that breaks it fails there;
    // a running platform logs it (PostgreSQL's deadlock detection and the retry still hold).
    onLockOrderBroken:
      process.env.NODE_ENV === 'test'
        ? 'refuse'
        : (message) => app.log.error({ lockOrder: message }, 'ledger: lock order broken'),
  });
  const audit = registerAuditModule({ db: store.db, clock });
  const ctx: AppContext = { config, store, clock, bus, scheduler, limitStore, feed, gateway, ledger, audit };
  app.decorate('ctx', ctx);

  registerHttpPlatform(app);
  await registerSecurityHeaders(app, {
    webDist: config.webDist,
    pages: { '/por/verify.html': path.join(config.webDist, 'por', 'verify.html') },
  });
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // why: on the root, before the API, so a multipart form's token is in the body for the auth hook.
  await registerUploadParsing(app, { maxBytes: DEFAULT_UPLOAD_MAX_BYTES });
  const files = new LocalFileStore({ dir: path.join(config.dataDir, 'uploads') });
  registerUploadServing(app, { store: files });
  await gateway.register(app);
  await registerApiDocument(app, { version: '0.1.0' });
  registerMetrics(app, { token: config.metricsToken });

  const { db } = store;
  const { limits } = config;
  const limit = limitStore.limit.bind(limitStore);
  let users!: ReturnType<typeof registerUsersModule>;
  let settings!: ReturnType<typeof registerSettingsModule>;
  let markets!: MarketsModule;
  let auth!: AuthService;
  let wallet!: WalletService;
  let delivery!: DeliveryModule;
  let reserves!: ReservesModule;
  // why: both keys live outside the database (setting, else a file beside the store); nodes
  // sharing a PostgreSQL store must be given the same ones in production.
  const mayCreateKeys = !(config.production && config.databaseUrl);
  const porKey = resolveSecretKey({
    setting: config.porKey,
    settingName: 'POR_KEY',
    file: path.join(config.dataDir, 'por.key'),
    mayCreate: mayCreateKeys,
  });
  const porSigning = await publicationKey(
    resolveSecretKey({
      setting: config.porSigningKey,
      settingName: 'POR_SIGNING_KEY',
      file: path.join(config.dataDir, 'por-signing.key'),
      mayCreate: mayCreateKeys,
    }),
  );
  let spot!: SpotService;
  let notices!: NoticesModule;
  let security!: SecurityService;
  let identity!: IdentityService;
  let support!: SupportModule;
  let content!: ContentService;
  let launchpad!: LaunchpadModule;
  let mining!: MiningModule;
  // why: the content module (registered last) keeps the terms of service; the services that trade,
  // subscribe and pay out ask it whether the customer accepted the version in force.
  const termsGate = { requireAccepted: (userId: bigint) => content.requireAccepted(userId) };
  // why: chat pictures are private to their conversation; nothing serves this folder.
  const chatFiles = new LocalFileStore({ dir: path.join(config.dataDir, 'chat') });
  const mail = new MailService({
    db,
    clock,
    mailer: config.smtpUrl ? new SmtpMailer({ url: config.smtpUrl, from: config.mailFrom }) : undefined,
    // why: without SMTP the outbox is the delivery; the log shows each message so a developer or a
    // demo user can read their code.
    onKept: (m) =>
      app.log.info(
        { mail: String(m.id), to: m.to, subject: m.subject, text: m.text },
        'mail kept in the outbox',
      ),
    onError: (error) => app.log.error({ err: error }, 'mail failed'),
  });
  const userSecretKey = resolveSecretKey({
    setting: config.userSecretKey,
    settingName: 'USER_SECRET_KEY',
    file: path.join(config.dataDir, 'user-secret.key'),
    mayCreate: mayCreateKeys,
  });
  const userSecrets = new SecretBox(userSecretKey);
  // why: identity images are kept apart from public uploads; nothing serves this folder.
  const identityFiles = new LocalFileStore({ dir: path.join(config.dataDir, 'identity') });
  // why: one line per module; each registers its own routes and returns the service that later
  // modules call (never their repositories).
  await app.register(
    async (api) => {
      settings = registerSettingsModule({ db });
      const sessions = registerSessionsModule(api, { db, clock, policy: config.session });
      gateway.useAuthenticator(sessions);
      notices = registerNoticesModule(api, {
        db,
        clock,
        bus,
        gateway,
        onError: (error) => app.log.error({ err: error }, 'notices failed'),
      });
      users = registerUsersModule(api, {
        db,
        clock,
        sessions,
        settings,
        supportUrl: config.supportUrl,
        loginPasswordChecks: limit('login_password_check', limits.passwordChecks),
        withdrawPasswordChecks: limit('withdraw_password_check', limits.passwordChecks),
        withdrawAddresses: { hasWithdrawAddress: (userId) => wallet.hasWithdrawAddress(userId) },
      });
      auth = registerAuthModule(api, {
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
        secondFactor: { verifySecondFactor: (userId, code) => security.verifySecondFactor(userId, code) },
        terms: {
          acceptAtRegistration: (trx, userId, version, ip) =>
            content.acceptAtRegistration(trx, userId, version, ip),
        },
        notices: notices.service,
        clientConfig: () => ({
          register_mode: config.registerMode,
          captcha: config.captcha,
          price_source: feed.source,
        }),
      });
      security = registerSecurityModule(api, {
        db,
        clock,
        users,
        sessions,
        auth,
        mail,
        notices: notices.service,
        captcha: { check: (key, code) => auth.checkCaptcha(key, code) },
        secrets: userSecrets,
        totpIssuer: 'Bourse',
        limits: {
          totpChecks: limit('user_totp', limits.passwordChecks),
          emailCodesPerAddress: limit('email_code_address', {
            points: 1,
            durationSec: EMAIL_CODE_RESEND_SECONDS,
          }),
          emailCodesPerIp: limit('email_code_ip', { points: 20, durationSec: 3600 }),
          emailCodeChecks: limit('email_code_check', limits.passwordChecks),
        },
      });
      identity = registerIdentityModule(api, {
        db,
        clock,
        users,
        audit,
        settings,
        notices: notices.service,
        uploads: new ImageUploads({ store: identityFiles, maxBytes: DEFAULT_UPLOAD_MAX_BYTES }),
        store: identityFiles,
        uploadsPerUser: limit('identity_upload', { points: 20, durationSec: 3600 }),
        documentHash: new KeyedHash(userSecretKey, 'identity-document'),
        // why: trial money waits for a verified identity and is given once per identity, in the
        // transaction that approves it (docs/trial-money.md).
        onApproved: (trx, userId, identityHash) =>
          delivery.service.grantVerifiedTrials(trx, userId, identityHash),
      });
      markets = registerMarketsModule(api, {
        db,
        clock,
        bus,
        scheduler,
        gateway,
        audit,
        feed,
        symbolMap: sources.symbolMap,
        sources,
        feedIntervalMs: config.feedIntervalMs,
        indexStaleMs: config.indexStaleMs,
        tickRetentionMs: config.indexTickRetentionMs,
        onError: (error, what) => app.log.error({ err: error, what }, 'markets failed'),
      });
      wallet = registerWalletModule(api, {
        db,
        clock,
        ledger,
        audit,
        markets: markets.service,
        users,
        uploads: new ImageUploads({ store: files, maxBytes: DEFAULT_UPLOAD_MAX_BYTES }),
        livePrices: () => feed.prices(),
        notices: notices.service,
        secondFactor: security,
        identityGate: identity,
        termsGate,
      });
      delivery = registerDeliveryModule(api, {
        db,
        clock,
        ledger,
        audit,
        index: markets.service,
        markets: markets.service,
        users,
        bus,
        scheduler,
        identityGate: identity,
        termsGate,
        identities: identity,
        accountLinks: {
          linkedAccounts: async (trx, userId) => [
            ...(await users.linkedAccounts(trx, userId, SAME_ADDRESS_WINDOW_MS)),
            ...(await identity.sameIdentityAccounts(trx, userId)),
          ],
        },
        settings,
        trialTurnoverMultiple: config.trialTurnoverMultiple,
        graceSeconds: config.deliveryGraceSeconds,
        settleIntervalMs: config.feedIntervalMs,
        onError: (error, what) => app.log.error({ err: error, what }, 'delivery failed'),
      });
      spot = registerSpotModule(api, {
        db,
        clock,
        ledger,
        index: markets.service,
        users,
        bus,
        identityGate: identity,
        termsGate,
        onError: (error, what) => app.log.error({ err: error, what }, 'spot failed'),
      });
      support = registerSupportModule(api, {
        db,
        clock,
        bus,
        gateway,
        audit,
        uploads: new ImageUploads({ store: chatFiles, maxBytes: DEFAULT_UPLOAD_MAX_BYTES }),
        store: chatFiles,
        messagesPerUser: limit('support_message', limits.supportMessages),
        wallet: { recentActivity: (userId) => wallet.recentActivity(userId) },
        onError: (error) => app.log.error({ err: error }, 'support failed'),
      });
      reserves = registerReservesModule(api, {
        db,
        clock,
        ledger,
        audit,
        porKey,
        key: porSigning,
        scheduler,
        proofLimit: limit('por_proof', { points: 30, durationSec: 600 }),
      });
      launchpad = registerLaunchpadModule(api, {
        db,
        clock,
        ledger,
        audit,
        settings,
        users,
        identityGate: identity,
        termsGate,
        coins: markets.service,
        scheduler,
        // why: products rule 6: a per-minute job releases locks (and distributes, settles rewards).
        intervalMs: 60_000,
      });
      mining = registerMiningModule(api, {
        db,
        clock,
        ledger,
        audit,
        index: markets.service,
        users,
        settings,
        scheduler,
        termsGate,
        intervalMs: config.miningJobMs,
      });
      content = registerContentModule(api, {
        db,
        clock,
        audit,
        settings,
        reserveEvidence: async () => (await reserves.service.headers(1)).length > 0,
        // why: no market offers leverage yet, so a leverage claim is withheld; the perpetual
        // contracts' module (issue 39) answers here with its open markets' highest leverage.
        leverageOffered: async () => 0,
      });
    },
    { prefix: '/apiv' },
  );
  ctx.wallet = wallet;
  ctx.delivery = delivery;
  ctx.identity = identity;
  ctx.launchpad = launchpad.service;
  ctx.mining = mining.service;
  ctx.markets = markets.service;
  ctx.spot = spot;
  const spotBackOffice = new SpotBackOffice({ db, clock, audit, markets: markets.service }, spot);
  const marketMaker = registerMarketMakerModule({
    db,
    clock,
    spot,
    index: markets.service,
    ledger,
    users,
    settings,
    scheduler,
    quoteIntervalMs: 2 * config.feedIntervalMs,
    tradeIntervalMs: 4 * config.feedIntervalMs,
    onError: (error, what) => app.log.error({ err: error, what }, 'market maker failed'),
  });
  ctx.marketMaker = marketMaker;
  const seeded = config.demo
    ? await seedDemoData({
        db,
        clock,
        users,
        settings,
        markets: markets.service,
        wallet,
        delivery: delivery.service,
        identity,
        spot,
        marketMaker: marketMaker.service,
      })
    : false;
  // why: before the demo's first reserves snapshot, so the snapshot covers the launchpad's money too.
  if (config.demo) {
    await launchpad.service.seedDemo(await seedDemoCrowd({ db, users, wallet }));
    await mining.service.seedDemo();
  }
  logDemoMode(app.log, { demo: config.demo, production: config.production, seeded });
  ctx.reserves = reserves;
  // why: a demo shows a snapshot and a proof at once, after its money is credited.
  if (config.demo && (await reserves.service.headers(1)).length === 0) {
    const now = clock.now();
    await reserves.service.takeDemoSnapshot(now - (now % 1000));
  }
  if (config.demo) {
    // why: the demo's own customers have accepted the demo terms, so they trade at once.
    const demoUsers = await Promise.all(DEMO_USERS.map((u) => users.findLoginCandidate(u.username)));
    await content.seedDemo(demoUsers.flatMap((u) => (u ? [u.id] : [])));
  }

  const staff = await registerStaffModule({
    db,
    clock,
    audit,
    ledger,
    users,
    auth,
    policy: config.staffSession,
    limits: {
      loginPerAccountAndIp: limit('staff_login_account_ip', limits.loginPerAccountAndIp),
      loginPerIp: limit('staff_login_ip', limits.loginPerIp),
      totpChecks: limit('staff_totp', limits.passwordChecks),
    },
    totpIssuer: 'Bourse',
    secrets: new SecretBox(
      resolveSecretKey({
        setting: config.staffSecretKey,
        settingName: 'STAFF_SECRET_KEY',
        file: path.join(config.dataDir, 'staff-secret.key'),
        // why: nodes sharing a PostgreSQL store need one key; a production start there must be given it.
        mayCreate: !(config.production && config.databaseUrl),
      }),
    ),
    listAssets: async () => (await markets.service.listCoins()).map((coin) => coin.symbol),
    usdtValue: (asset, amount) => wallet.usdtValue(asset, amount),
    adjustmentApprovalThreshold: config.adjustmentApprovalThreshold,
    reviewFigures: (since) => wallet.reviewFigures(since),
    // why: the dashboard shows what `/readyz` reports; readiness starts below, before any request.
    health: () => readiness.report(),
    ledgerCheck: {
      last: () => readiness.lastLedgerCheck(),
      now: async () => {
        await readiness.checkLedger();
        return readiness.lastLedgerCheck();
      },
    },
    firstOwner: config.firstOwner,
    log: app.log,
  });
  // why: the back office, apart from `/apiv`: the staff hook first (every route declares its
  // permission), then the staff's own routes, then each domain's admin routes.
  await app.register(
    async (admin) => {
      registerStaffHook(admin, staff.service);
      await admin.register(staffRoutes, { staff: staff.service, backOffice: staff.backOffice });
      await admin.register(walletAdminRoutes, { wallet });
      await admin.register(deliveryAdminRoutes, { delivery: delivery.backOffice });
      await admin.register(spotAdminRoutes, { spot: spotBackOffice });
      await admin.register(makerAdminRoutes, {
        maker: new MakerBackOffice({ db, audit, maker: marketMaker.service }),
      });
      await admin.register(reservesAdminRoutes, { reserves: reserves.service });
      await admin.register(identityAdminRoutes, { identity });
      await admin.register(noticesAdminRoutes, { db, audit, notices: notices.service });
      await admin.register(mailAdminRoutes, { db, audit, mail });
      await admin.register(supportAdminRoutes, { support: support.service });
      await admin.register(contentAdminRoutes, { content });
      await admin.register(launchpadAdminRoutes, { launchpad: launchpad.service });
      await admin.register(miningAdminRoutes, { mining: mining.service });
      await admin.register(indexSourcesAdminRoutes, { indexSources: markets.backOffice });
    },
    { prefix: '/admin-api' },
  );

  // why: the books are rebuilt from the open orders before the first request can reach them.
  await spot.start();
  await notices.start();
  await support.start();
  const spotMarketData = await startSpotMarketData({
    service: spot,
    bus,
    gateway,
    onError: (error, what) => app.log.error({ err: error, what }, 'spot market data failed'),
  });
  await markets.start({ runFeed: options.startFeed !== false });
  if (options.startSettlement ?? options.startFeed !== false) {
    delivery.start();
    reserves.start();
    launchpad.start();
    mining.start();
  }
  const backups = new BackupsModule({
    scheduler,
    clock,
    source: { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
    backupDir: config.backup.dir,
    everyMs: config.backup.everyMs,
    keep: config.backup.keep,
    log: app.log,
  });
  ctx.backups = backups;
  if (options.startBackups ?? options.startSettlement ?? options.startFeed !== false) backups.start();
  if (config.marketMaker && (options.startMarketMaker ?? options.startFeed !== false)) {
    marketMaker.start({ demoTraders: config.demo });
  }
  const readiness = new Readiness({
    db: store.db,
    bus,
    clock,
    ledger,
    indexSubject: TICKERS_SUBJECT,
    feedIntervalMs: config.feedIntervalMs,
    ledgerCheckEveryMs: config.ledgerCheckMinutes * 60_000,
    sources: () =>
      feed.source === 'venues'
        ? feed.states().map((s) => ({ venue: s.venue, symbol: s.symbol, state: s.state }))
        : [],
    backup: () => backups.check(),
    staleSymbols: () => {
      const now = clock.now();
      return markets
        .activeMarkets()
        .map((m) => m.symbol)
        .filter((symbol) => markets.service.isIndexStale(symbol, now));
    },
  });
  await readiness.start();
  ctx.readiness = readiness;
  // why: for load balancers and orchestrators: 503 only when this node cannot serve (database or
  // bus down); a stale index (down: contracts refused, settlements held), a source down or a
  // failed ledger check is reported with 200, since the node still serves everything else.
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const report = await readiness.report();
    return reply.code(Readiness.isUnavailable(report) ? 503 : 200).send(report);
  });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    await sql`select 1`.execute(store.db);
    return reply.send({
      status: 'ok',
      store: store.dialect,
      feed: feed.source,
      node: process.version,
    });
  });

  registerAdminApp(app, config.adminDist);
  registerWebApp(app, config.webDist);

  app.addHook('onClose', async () => {
    // why: requests still waiting on a batch were drained with the HTTP server; a batch queued
    // by other work (e.g. a job) still commits before the store closes.
    await spot.stop();
    await spotMarketData.stop();
    await scheduler.stop();
    await readiness.stop();
    await markets.stop();
    await bus.close();
    await limitStore.close();
    await store.close();
  });
  return app;
}

/** Serves the built back office at `/admin/` (hash routes, so every page is its index.html). */
function registerAdminApp(app: FastifyInstance, adminDist: string): void {
  if (!fs.existsSync(path.join(adminDist, 'index.html'))) {
    app.get('/admin/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/plain').send('The back office is not built yet: run `npm run build`.'),
    );
    return;
  }
  // why: antd writes its styles as <style> elements at run time, which the customer app's
  // hash-only policy refuses; the back office gets the docs' policy (inline styles, scripts 'self').
  const policy = Object.entries(DOCS_DIRECTIVES)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/admin/')) reply.header('content-security-policy', policy);
  });
  // why: with ignoreTrailingSlash, `/admin/` is routed as `/admin`, which the static wildcard
  // (`/admin/*`) does not match; the entry page is answered here.
  const indexHtml = fs.readFileSync(path.join(adminDist, 'index.html'), 'utf8');
  app.get('/admin', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml),
  );
  app.register(fastifyStatic, {
    root: adminDist,
    prefix: '/admin/',
    decorateReply: false,
    index: false,
    setHeaders(reply, filePath) {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
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
