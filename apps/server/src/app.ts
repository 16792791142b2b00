import path from 'node:path';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext, BuildOptions } from './app-context.ts';
import { registerAuditModule } from './modules/audit/module.ts';
import { registerAuthModule } from './modules/auth/module.ts';
import { BackupsModule } from './modules/backups/module.ts';
import { contentAdminRoutes } from './modules/content/admin-routes.ts';
import { registerContentModule } from './modules/content/module.ts';
import { deliveryAdminRoutes } from './modules/delivery/admin-routes.ts';
import { registerDeliveryModule } from './modules/delivery/module.ts';
import { SAME_ADDRESS_WINDOW_MS } from './modules/delivery/service.ts';
import { haltAdminRoutes } from './modules/halt/admin-routes.ts';
import { PlatformHaltService } from './modules/halt/service.ts';
import { identityAdminRoutes } from './modules/identity/admin-routes.ts';
import { registerIdentityModule } from './modules/identity/module.ts';
import { launchpadAdminRoutes } from './modules/launchpad/admin-routes.ts';
import { registerLaunchpadModule } from './modules/launchpad/module.ts';
import { registerLedgerModule } from './modules/ledger/module.ts';
import { mailAdminRoutes } from './modules/mail/admin-routes.ts';
import { MailService } from './modules/mail/service.ts';
import { SmtpMailer } from './modules/mail/smtp.ts';
import { indexSourcesAdminRoutes } from './modules/markets/admin-routes.ts';
import { createPriceFeed } from './modules/markets/feed.ts';
import { registerMarketsModule, TICKERS_SUBJECT } from './modules/markets/module.ts';
import { miningAdminRoutes } from './modules/mining/admin-routes.ts';
import { registerMiningModule } from './modules/mining/module.ts';
import { makerAdminRoutes } from './modules/mm/admin-routes.ts';
import { MakerBackOffice } from './modules/mm/back-office.ts';
import { registerMarketMakerModule } from './modules/mm/module.ts';
import { noticesAdminRoutes } from './modules/notices/admin-routes.ts';
import { registerNoticesModule } from './modules/notices/module.ts';
import { perpAdminRoutes } from './modules/perpetual/admin-routes.ts';
import { registerPerpModule } from './modules/perpetual/module.ts';
import type { PerpService } from './modules/perpetual/service.ts';
import { reservesAdminRoutes } from './modules/reserves/admin-routes.ts';
import { publicationKey } from './modules/reserves/keys.ts';
import { registerReservesModule } from './modules/reserves/module.ts';
import { registerSecurityModule } from './modules/security/module.ts';
import { SecondFactor } from './modules/security/second-factor.ts';
import { EMAIL_CODE_RESEND_SECONDS } from './modules/security/service.ts';
import { registerSessionsModule } from './modules/sessions/module.ts';
import { registerSettingsModule } from './modules/settings/module.ts';
import { spotAdminRoutes } from './modules/spot/admin-routes.ts';
import { SpotBackOffice } from './modules/spot/back-office.ts';
import { registerSpotModule } from './modules/spot/module.ts';
import { registerStaffHook } from './modules/staff/hook.ts';
import { registerStaffModule } from './modules/staff/module.ts';
import { staffRoutes } from './modules/staff/routes.ts';
import { supportAdminRoutes } from './modules/support/admin-routes.ts';
import { registerSupportModule } from './modules/support/module.ts';
import { registerUsersModule } from './modules/users/module.ts';
import { walletAdminRoutes } from './modules/wallet/admin-routes.ts';
import { registerWalletModule } from './modules/wallet/module.ts';
import { type Bus, MemoryBus } from './platform/bus.ts';
import { systemClock } from './platform/clock.ts';
import { usePasswordHashing } from './platform/crypto.ts';
import { openDb } from './platform/db.ts';
import { openFileStores } from './platform/db-file-store.ts';
import { registerHttpPlatform, registerScope, toTrustProxyOption } from './platform/http.ts';
import { DbLeaseStore } from './platform/job-leases.ts';
import { KeyedHash } from './platform/keyed-hash.ts';
import { createLoggerOptions, logDemoMode, registerRequestLog } from './platform/logging.ts';
import { registerMetrics } from './platform/metrics.ts';
import { migrateToLatest } from './platform/migrate.ts';
import { registerApiDocument } from './platform/openapi.ts';
import { openLimitStore } from './platform/rate-limit.ts';
import { Scheduler } from './platform/scheduler.ts';
import { resolveSecretKey, SecretBox } from './platform/secret-box.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { underStartLock } from './platform/start-lock.ts';
import { registerAdminApp, registerWebApp } from './platform/static-apps.ts';
import {
  DEFAULT_UPLOAD_MAX_BYTES,
  ImageUploads,
  registerUploadParsing,
  registerUploadServing,
} from './platform/uploads.ts';
import { WsGateway } from './platform/ws-gateway.ts';
import { Readiness, registerHealthRoutes } from './readiness.ts';
import { Retention } from './retention.ts';
import { seedDemo } from './seed.ts';
import { MarketsWarmUp } from './warm-up.ts';

export type { BuildOptions };

/**
 * Builds the whole platform as one Fastify instance: store (migrated, seeded when DEMO is on),
 * `/apiv`, `/ws`, `/docs`, `/metrics`, `/healthz` and the built customer app at `/`.
 * Only `server.ts` calls `listen`.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  usePasswordHashing(config.passwordHashing);
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
  // why: INDEX_SOURCES switches the index from the demo's simulated walk to real venues.
  const feed = createPriceFeed({
    sources,
    seed: config.feedSeed,
    intervalMs: config.feedIntervalMs,
    clock,
    log: (level, msg, data) => app.log[level](data ?? {}, msg),
  });
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
  // why: NATS_URL switches the bus to JetStream for several nodes (its client is loaded only then);
  // unset is the in-process bus.
  const nats = { url: config.natsUrl ?? '', prefix: config.natsPrefix, clock, onError: onBusError };
  const bus: Bus = config.natsUrl
    ? await (await import('./platform/nats-bus.ts')).NatsBus.connect(nats)
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
  // why: one switch for every file store: in the database on PostgreSQL (nodes share it), folders on SQLite.
  const fileStore = await openFileStores({ handle: store, dataDir: config.dataDir, clock });
  const files = fileStore('uploads');
  registerUploadServing(app, { store: files });
  await gateway.register(app);
  await registerApiDocument(app, { version: '0.1.0' });
  registerMetrics(app, { token: config.metricsToken });

  const { db } = store;
  const { limits } = config;
  const limit = limitStore.limit.bind(limitStore);
  // why: the keys live outside the database (setting, else a file beside the store); nodes
  // sharing a PostgreSQL store must be given the same ones, so a production start there must be given them.
  const secretKey = (setting: Buffer | undefined, settingName: string, file: string) =>
    resolveSecretKey({
      setting,
      settingName,
      file: path.join(config.dataDir, file),
      mayCreate: !(config.production && config.databaseUrl),
    });
  const porKey = secretKey(config.porKey, 'POR_KEY', 'por.key');
  const porSigning = await publicationKey(
    secretKey(config.porSigningKey, 'POR_SIGNING_KEY', 'por-signing.key'),
  );
  // why: chat pictures are private to their conversation; nothing serves this store.
  const chatFiles = fileStore('chat');
  const mail = new MailService({
    db,
    clock,
    audit,
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
  // why: a failed ledger check halts order entry, withdrawals and conversions on every node until
  // staff clear it; the clear runs the check again through readiness (created below, after the
  // modules whose figures it reports), so the dashboard shows the check that allowed it.
  const halt = new PlatformHaltService({
    db,
    clock,
    audit,
    verifyLedger: async (): Promise<{ ok: boolean; problems: string[] }> => {
      await readiness.checkLedger();
      return readiness.lastLedgerCheck();
    },
  });
  const userSecretKey = secretKey(config.userSecretKey, 'USER_SECRET_KEY', 'user-secret.key');
  const userSecrets = new SecretBox(userSecretKey);
  // why: identity images are kept apart from public uploads; nothing serves this store.
  const identityFiles = fileStore('identity');
  // why: one line per module; each registers its own routes and returns the service that later
  // modules call (never their repositories). The scope answers them as one object, so the list
  // of modules is written once, in its return.
  let perpetual: PerpService | undefined;
  // why: NATS_URL lets nodes reach each other's markets; without it this node owns every market.
  const node = {
    id: config.nodeId,
    leaseMs: config.marketLeaseMs,
    cluster: config.natsUrl !== undefined,
    log: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) =>
      app.log[level]({ ...detail, node: config.nodeId }, message),
  };
  const modules = await registerScope(app, '/apiv', async (api) => {
    const settings = registerSettingsModule({ db });
    const sessions = registerSessionsModule(api, { db, clock, policy: config.session });
    gateway.useAuthenticator(sessions);
    const notices = registerNoticesModule(api, {
      db,
      clock,
      bus,
      audit,
      gateway,
      onError: (error) => app.log.error({ err: error }, 'notices failed'),
    });
    const reserves = registerReservesModule(api, {
      db,
      clock,
      ledger,
      audit,
      porKey,
      key: porSigning,
      scheduler,
      proofLimit: limit('por_proof', { points: 30, durationSec: 600 }),
      retention: config.retention,
    });
    // why: content keeps the terms of service; sign-up records the version accepted, and the
    // services that trade, subscribe and pay out ask it whether the customer accepted the one in force.
    const content = registerContentModule(api, {
      db,
      clock,
      audit,
      settings,
      files,
      // why: a reserve claim is shown only while the latest published snapshot's reserves cover it.
      latestReserves: () => reserves.service.latestReserves(),
      // why: a leverage claim is shown only while an open perpetual market (registered below) offers it.
      leverageOffered: async () => (perpetual ? perpetual.leverageOffered() : 0),
    });
    const termsGate = content.service;
    const users = registerUsersModule(api, {
      db,
      clock,
      sessions,
      settings,
      supportUrl: config.supportUrl,
      loginPasswordChecks: limit('login_password_check', limits.passwordChecks),
      withdrawPasswordChecks: limit('withdraw_password_check', limits.passwordChecks),
    });
    const totpChecks = limit('user_totp', limits.passwordChecks);
    const secondFactor = new SecondFactor({ db, clock, secrets: userSecrets, totpChecks });
    const auth = registerAuthModule(api, {
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
      secondFactor,
      terms: content.service,
      notices: notices.service,
      clientConfig: () => ({
        register_mode: config.registerMode,
        captcha: config.captcha,
        price_source: feed.source,
      }),
    });
    const security = registerSecurityModule(api, {
      db,
      clock,
      users,
      sessions,
      auth,
      mail,
      notices: notices.service,
      captcha: { check: (key, code) => auth.checkCaptcha(key, code) },
      secrets: userSecrets,
      secondFactor,
      totpIssuer: 'Bourse',
      limits: {
        totpChecks,
        emailCodesPerAddress: limit('email_code_address', {
          points: 1,
          durationSec: EMAIL_CODE_RESEND_SECONDS,
        }),
        emailCodesPerIp: limit('email_code_ip', { points: 20, durationSec: 3600 }),
        emailCodeChecks: limit('email_code_check', limits.passwordChecks),
      },
    });
    const identity = registerIdentityModule(api, {
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
    });
    const markets = registerMarketsModule(api, {
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
      retention: config.retention,
      onError: (error, what) => app.log.error({ err: error, what }, 'markets failed'),
    });
    const wallet = registerWalletModule(api, {
      db,
      clock,
      ledger,
      audit,
      markets: markets.service,
      users,
      uploads: new ImageUploads({ store: files, maxBytes: DEFAULT_UPLOAD_MAX_BYTES }),
      livePrices: () => feed.prices(),
      notices: notices.service,
      secondFactor,
      identityGate: identity,
      termsGate,
      platformHalt: halt,
    });
    const delivery = registerDeliveryModule(api, {
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
    // why: trial money waits for a verified identity and is given once per identity, in the
    // transaction that approves it (docs/trial-money.md).
    identity.addApprovalHook((trx, userId, identityHash) =>
      delivery.service.grantVerifiedTrials(trx, userId, identityHash),
    );
    // why: spot and perpetual markets trade on the same terms: the same gates, users and nodes.
    const trading = {
      db,
      clock,
      ledger,
      index: markets.service,
      users,
      bus,
      identityGate: identity,
      termsGate,
      platformHalt: halt,
      node,
      scheduler,
    };
    const spot = registerSpotModule(api, {
      ...trading,
      onError: (error, what) => app.log.error({ err: error, what }, 'spot failed'),
    });
    perpetual = registerPerpModule(api, {
      ...trading,
      audit,
      gateway,
      demo: { users, scheduler },
      onError: (error, what) => app.log.error({ err: error, what }, 'perpetual failed'),
    });
    const support = registerSupportModule(api, {
      db,
      clock,
      bus,
      gateway,
      audit,
      uploads: new ImageUploads({ store: chatFiles, maxBytes: DEFAULT_UPLOAD_MAX_BYTES }),
      store: chatFiles,
      messagesPerUser: limit('support_message', limits.supportMessages),
      wallet,
      onError: (error) => app.log.error({ err: error }, 'support failed'),
    });
    const launchpad = registerLaunchpadModule(api, {
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
    const mining = registerMiningModule(api, {
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
    return {
      settings,
      notices,
      users,
      auth,
      identity,
      markets,
      wallet,
      delivery,
      spot,
      perpetual,
      support,
      reserves,
      content,
      launchpad,
      mining,
      sessions,
      security,
    };
  });
  ctx.wallet = modules.wallet;
  ctx.delivery = modules.delivery;
  ctx.identity = modules.identity;
  ctx.launchpad = modules.launchpad.service;
  ctx.mining = modules.mining.service;
  ctx.markets = modules.markets.service;
  ctx.spot = modules.spot;
  ctx.perpetual = modules.perpetual;
  const spotBackOffice = new SpotBackOffice(
    { db, clock, audit, markets: modules.markets.service },
    modules.spot,
  );
  const marketMaker = registerMarketMakerModule(app, {
    db,
    clock,
    spot: modules.spot,
    index: modules.markets.service,
    ledger,
    users: modules.users,
    settings: modules.settings,
    scheduler,
    quoteIntervalMs: 2 * config.feedIntervalMs,
    tradeIntervalMs: 4 * config.feedIntervalMs,
    idle: { gateway, afterMs: config.demo ? config.demoIdleMs : 0 },
    retention: config.retention,
  });
  ctx.marketMaker = marketMaker;
  // why: nodes starting at once on an empty store would each seed the demo (and trip over the
  // other's accounts); under the store-wide lock the first seeds and the next find it seeded.
  const seeded = config.demo
    ? await underStartLock(store, 'demo-seed', () =>
        seedDemo({
          db,
          clock,
          users: modules.users,
          settings: modules.settings,
          markets: modules.markets.service,
          wallet: modules.wallet,
          delivery: modules.delivery.service,
          identity: modules.identity,
          spot: modules.spot,
          marketMaker: marketMaker.service,
          launchpad: modules.launchpad.service,
          mining: modules.mining.service,
          reserves: modules.reserves.service,
          content: modules.content.service,
          perpetual: modules.perpetual,
        }),
      )
    : false;
  logDemoMode(app.log, { demo: config.demo, production: config.production, seeded });
  ctx.reserves = modules.reserves;

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
  const warmUp = new MarketsWarmUp({
    spot: modules.spot,
    perpetual: modules.perpetual,
    bus,
    gateway,
    clock,
    pricing: options.startFeed !== false,
    thenStart: () => {
      if (!config.marketMaker || !(options.startMarketMaker ?? options.startFeed !== false)) return;
      marketMaker.start({ demoTraders: config.demo });
      if (config.demo) modules.perpetual.startMaker(2 * config.feedIntervalMs, marketMaker.idle);
    },
    onError: (error, what) => app.log.error({ err: error, what }, 'spot market data failed'),
  });
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
    markets: () => warmUp.check(),
    halt,
    staleSymbols: () => {
      const now = clock.now();
      return modules.markets
        .activeMarkets()
        .map((m) => m.symbol)
        .filter((symbol) => modules.markets.service.isIndexStale(symbol, now));
    },
  });
  const staff = await registerStaffModule({
    db,
    clock,
    audit,
    ledger,
    users: modules.users,
    auth: modules.auth,
    policy: config.staffSession,
    limits: {
      loginPerAccountAndIp: limit('staff_login_account_ip', limits.loginPerAccountAndIp),
      loginPerIp: limit('staff_login_ip', limits.loginPerIp),
      totpChecks: limit('staff_totp', limits.passwordChecks),
    },
    totpIssuer: 'Bourse',
    secrets: new SecretBox(secretKey(config.staffSecretKey, 'STAFF_SECRET_KEY', 'staff-secret.key')),
    listAssets: async () => (await modules.markets.service.listCoins()).map((coin) => coin.symbol),
    usdtValue: (asset, amount) => modules.wallet.usdtValue(asset, amount),
    adjustmentApprovalThreshold: config.adjustmentApprovalThreshold,
    reviewFigures: (since) => modules.wallet.reviewFigures(since),
    // why: the dashboard shows what `/readyz` reports.
    health: () => readiness.report(),
    ledgerCheck: {
      last: () => readiness.lastLedgerCheck(),
      now: async () => {
        await readiness.checkLedger();
        return readiness.lastLedgerCheck();
      },
    },
    halt: () => halt.current(),
    firstOwner: config.firstOwner,
    log: app.log,
  });
  ctx.retention = new Retention(ctx, { ...modules, staff, notices: modules.notices.service, mail });
  // why: the back office, apart from `/apiv`: the staff hook first (every route declares its
  // permission), then the staff's own routes, then each domain's admin routes.
  await app.register(
    async (admin) => {
      registerStaffHook(admin, staff.service);
      await admin.register(staffRoutes, { staff: staff.service, backOffice: staff.backOffice });
      await admin.register(walletAdminRoutes, { wallet: modules.wallet });
      await admin.register(deliveryAdminRoutes, { delivery: modules.delivery.backOffice });
      await admin.register(spotAdminRoutes, { spot: spotBackOffice });
      await admin.register(makerAdminRoutes, {
        maker: new MakerBackOffice({ db, audit, maker: marketMaker.service }),
      });
      await admin.register(reservesAdminRoutes, { reserves: modules.reserves.service });
      await admin.register(identityAdminRoutes, { identity: modules.identity });
      await admin.register(noticesAdminRoutes, { notices: modules.notices.service });
      await admin.register(mailAdminRoutes, { mail });
      await admin.register(haltAdminRoutes, { halt });
      await admin.register(supportAdminRoutes, { support: modules.support.service });
      await admin.register(contentAdminRoutes, { content: modules.content });
      await admin.register(launchpadAdminRoutes, { launchpad: modules.launchpad.service });
      await admin.register(miningAdminRoutes, { mining: modules.mining.service });
      await admin.register(indexSourcesAdminRoutes, { indexSources: modules.markets.backOffice });
      await admin.register(perpAdminRoutes, { perp: modules.perpetual.backOffice });
    },
    { prefix: '/admin-api' },
  );

  await modules.notices.start();
  await modules.support.start();
  await modules.markets.start({ runFeed: options.startFeed !== false });
  if (options.startSettlement ?? options.startFeed !== false) {
    modules.delivery.start();
    modules.spot.startCandles();
    modules.reserves.start({ demo: config.demo });
    modules.launchpad.start();
    modules.mining.start();
  }
  if (options.startBackups ?? options.startSettlement ?? options.startFeed !== false) backups.start();
  if (options.startRetention ?? options.startSettlement ?? options.startFeed !== false) ctx.retention.start();
  await readiness.start({ firstCheckAfter: warmUp.ended });
  ctx.readiness = readiness;
  registerHealthRoutes(app, readiness, { db: store.db, store: store.dialect, feed: feed.source });

  registerAdminApp(app, config.adminDist);
  registerWebApp(app, config.webDist);
  // why: the books are rebuilt from the open orders before the markets run; the server does it
  // once it listens, so its first answer does not wait for them (`serveWhileWarming`).
  ctx.warmUp = warmUp;
  if (!options.serveWhileWarming) await warmUp.start();

  app.addHook('onClose', async () => {
    // why: requests still waiting on a batch were drained with the HTTP server; a batch queued
    // by other work (e.g. a job) still commits before the store closes.
    await warmUp.stop();
    await modules.spot.stop();
    await modules.perpetual.stop();
    await scheduler.stop();
    await readiness.stop();
    await modules.markets.stop();
    await bus.close();
    await limitStore.close();
    await store.close();
  });
  return app;
}
