import type { Config } from './config.ts';
import type { AuditService } from './modules/audit/service.ts';
import type { CaptchaTextSource } from './modules/auth/captcha.ts';
import type { BackupsModule } from './modules/backups/module.ts';
import type { DeliveryModule } from './modules/delivery/module.ts';
import type { IdentityService } from './modules/identity/service.ts';
import type { LaunchpadService } from './modules/launchpad/service.ts';
import type { LedgerService } from './modules/ledger/service.ts';
import type { PriceFeed } from './modules/markets/price-feed.ts';
import type { MarketsService } from './modules/markets/service.ts';
import type { MiningService } from './modules/mining/service.ts';
import type { MarketMakerModule } from './modules/mm/module.ts';
import type { PerpService } from './modules/perpetual/service.ts';
import type { ReservesModule } from './modules/reserves/module.ts';
import type { SpotService } from './modules/spot/service.ts';
import type { WalletService } from './modules/wallet/service.ts';
import type { Bus } from './platform/bus.ts';
import type { TimerClock } from './platform/clock.ts';
import type { DbHandle } from './platform/db.ts';
import type { LoggerSettings } from './platform/logging.ts';
import type { LimitStore } from './platform/rate-limit.ts';
import type { Scheduler } from './platform/scheduler.ts';
import type { WsGateway } from './platform/ws-gateway.ts';
import type { Readiness } from './readiness.ts';
import type { Retention } from './retention.ts';
import type { MarketsWarmUp } from './warm-up.ts';

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
  /** Schedule the hourly retention job (README "Retention"); by default with the settlement jobs. */
  startRetention?: boolean;
  logger?: boolean;
  /** Where log lines go (stdout when absent); tests capture them in memory. */
  logStream?: LoggerSettings['stream'];
  /**
   * Resolve before the markets' books are loaded; the caller starts `ctx.warmUp` (the server does
   * once it listens). Otherwise `buildApp` resolves once they are loaded.
   */
  serveWhileWarming?: boolean;
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
  /** Perpetual contracts (clearings, pricing; tests drive the mark and funding by hand). */
  perpetual?: PerpService;
  /** The market maker and the demo traders (their settings; tests run their rounds by hand). */
  marketMaker?: MarketMakerModule;
  /** Proof of reserves and liabilities (snapshots; tests take them by hand). */
  reserves?: ReservesModule;
  /** Scheduled backups and the last one's result. */
  backups?: BackupsModule;
  /** The retention job of the operational tables and its last run's result. */
  retention?: Retention;
  /** Loads the markets' books and market data (`buildApp` waits for it unless told not to). */
  warmUp?: MarketsWarmUp;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
