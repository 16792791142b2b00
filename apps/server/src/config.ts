import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { toAtoms } from '@bourse/shared';
import { z } from 'zod';
import { isKnownVenue } from './modules/markets/venue-feed.ts';
import type { PasswordHashing } from './platform/crypto.ts';
import type { LimitRule, LimitStoreKind } from './platform/rate-limit.ts';
import { parseSecretKey } from './platform/secret-box.ts';

const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v === '' ? fallback : !['off', '0', 'false', 'no'].includes(v.toLowerCase()),
    );

/** `on`/`off` (also true/false, yes/no, 1/0); unset stays undefined so the caller picks the default. */
const explicitFlag = z
  .string()
  .optional()
  .transform((value, ctx): boolean | undefined => {
    const v = value?.trim().toLowerCase();
    if (v === undefined || v === '') return undefined;
    if (['on', 'true', 'yes', '1'].includes(v)) return true;
    if (['off', 'false', 'no', '0'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `expected on or off, got "${value}"` });
    return z.NEVER;
  });

/** Fastify's `trustProxy`: off, on (any hop), a hop count, or the proxies' addresses and CIDRs. */
export type TrustProxy = boolean | number | string[];

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxySetting = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const v = value?.trim() ?? '';
    if (v === '' || ['off', 'false', 'no', '0'].includes(v.toLowerCase())) return false;
    if (['on', 'true', 'yes'].includes(v.toLowerCase())) return true;
    if (/^\d+$/.test(v)) return Number(v);
    const entries = v
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.find((entry) => !isAddressOrCidr(entry));
    if (bad !== undefined || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `TRUST_PROXY: expected on, off, a hop count or addresses/CIDRs, got "${bad ?? value}"`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** `INDEX_SOURCES`: ccxt venue ids, comma-separated, each one ccxt knows; empty = none. */
const indexSourcesSetting = z
  .string()
  .optional()
  .transform((value, ctx): string[] => {
    const venues = (value ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    const unknown = venues.filter((venue) => !isKnownVenue(venue));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `INDEX_SOURCES: not a venue ccxt knows: ${unknown.join(', ')}`,
      });
      return z.NEVER;
    }
    if (new Set(venues).size !== venues.length) {
      ctx.addIssue({ code: 'custom', message: 'INDEX_SOURCES: a venue is listed twice' });
      return z.NEVER;
    }
    return venues;
  });

/** `INDEX_SOURCE_URLS`: `venue=http://host:port,…`, a venue's own address (a mirror, or a test's). */
const indexSourceUrlsSetting = z
  .string()
  .optional()
  .transform((value, ctx): Record<string, string> => {
    const urls: Record<string, string> = {};
    for (const entry of (value ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const match = /^([a-z0-9_]+)=(https?:\/\/\S+)$/i.exec(entry);
      if (!match || !URL.canParse(match[2]!)) {
        ctx.addIssue({
          code: 'custom',
          message: `INDEX_SOURCE_URLS: expected venue=http://host:port, got "${entry}"`,
        });
        return z.NEVER;
      }
      urls[match[1]!.toLowerCase()] = match[2]!;
    }
    return urls;
  });

/** One market's symbol on one venue; null leaves the venue out of that market. */
export interface IndexSymbolMapping {
  symbol: string;
  venue: string;
  venueSymbol: string | null;
}

/** `INDEX_SYMBOL_MAP`: `BTCUSDT:coinbase=BTC/USD;ETHUSDT:kraken=-` (`-` leaves the venue out). */
const indexSymbolMapSetting = z
  .string()
  .optional()
  .transform((value, ctx): IndexSymbolMapping[] => {
    const mappings: IndexSymbolMapping[] = [];
    for (const entry of (value ?? '')
      .split(';')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const match = /^([A-Z0-9]{2,20}):([a-z0-9_]+)=(-|[A-Z0-9]{1,20}\/[A-Z0-9]{1,20})$/.exec(entry);
      if (!match) {
        ctx.addIssue({
          code: 'custom',
          message: `INDEX_SYMBOL_MAP: expected SYMBOL:venue=BASE/QUOTE (or -), got "${entry}"`,
        });
        return z.NEVER;
      }
      mappings.push({
        symbol: match[1]!,
        venue: match[2]!,
        venueSymbol: match[3] === '-' ? null : match[3]!,
      });
    }
    return mappings;
  });

/** Default limits: `points` events per `durationSec` seconds. */
const DEFAULT_RULES = {
  loginPerAccountAndIp: { points: 5, durationSec: 15 * 60 },
  loginPerIp: { points: 30, durationSec: 15 * 60 },
  loginFailuresPerAccount: { points: 1000, durationSec: 60 * 60 },
  registrationsPerIp: { points: 10, durationSec: 60 * 60 },
  captchasPerIp: { points: 120, durationSec: 60 },
  passwordChecks: { points: 5, durationSec: 15 * 60 },
  supportMessages: { points: 20, durationSec: 60 },
  wsAuthPerIp: { points: 30, durationSec: 60 },
} satisfies Record<string, LimitRule>;

/** A limit written `points/seconds`, e.g. `10/3600`. */
function limitRule(fallback: LimitRule) {
  return z
    .string()
    .optional()
    .transform((value, ctx): LimitRule => {
      if (value === undefined || value === '') return fallback;
      const match = /^(\d+)\/(\d+)$/.exec(value.trim());
      if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
        ctx.addIssue({ code: 'custom', message: `expected points/seconds, e.g. 10/3600, got "${value}"` });
        return z.NEVER;
      }
      return { points: Number(match[1]), durationSec: Number(match[2]) };
    });
}

/** A 32-byte secret given in base64 or hex; empty = unset (a key file beside the store is used). */
function secretKeySetting(name: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx): Buffer | undefined => {
      if (value === undefined || value.trim() === '') return undefined;
      const key = parseSecretKey(value);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: `${name}: expected 32 bytes in base64 or hex` });
        return z.NEVER;
      }
      return key;
    });
}

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  CAPTCHA: flag(true),
  REGISTER_MODE: z.enum(['1', '2']).default('1').transform(Number),
  NODE_ENV: z.string().optional(),
  DEMO: explicitFlag,
  TRUST_PROXY: trustProxySetting,
  METRICS_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(16, 'METRICS_TOKEN: use at least 16 characters').optional(),
  ),
  WS_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  WS_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).default(20),
  SUPPORT_URL: z.string().default('#/User/contactKehu'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  LEDGER_CHECK_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  BACKUP_DIR: z.string().optional(),
  BACKUP_EVERY_HOURS: z.coerce.number().int().min(0).max(8760).default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  FEED_SEED: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int('FEED_SEED: expected a whole number').optional(),
  ),
  FEED_SEED_UNSAFE: explicitFlag,
  PASSWORD_HASH: z.enum(['standard', 'test']).default('standard'),
  INDEX_SOURCES: indexSourcesSetting,
  INDEX_SOURCE_URLS: indexSourceUrlsSetting,
  INDEX_SOURCE_STALE_MS: z.coerce.number().int().min(1).default(10_000),
  INDEX_OUTLIER_BPS: z.coerce.number().int().min(1).max(10_000).default(300),
  INDEX_MIN_SOURCES: z.coerce.number().int().min(1).default(2),
  INDEX_SYMBOL_MAP: indexSymbolMapSetting,
  FEED_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  INDEX_STALE_MS: z.coerce.number().int().min(1).default(5000),
  INDEX_TICK_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  // why: retention of operational tables (README "Retention"); money records are never pruned.
  INDEX_FINE_CANDLE_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  BOT_ORDER_RETENTION_HOURS: z.coerce.number().int().min(1).default(6),
  // why: funding averages its own interval's premiums; a day's floor outlasts any interval.
  PERP_PREMIUM_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).default(30),
  LOGIN_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(180),
  NOTIFICATION_RETENTION_DAYS: z.coerce.number().int().min(1).default(180),
  MAIL_OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  POR_PROOF_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  RETENTION_SLICE_ROWS: z.coerce.number().int().min(1).max(100_000).default(500),
  DELIVERY_GRACE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  TRIAL_TURNOVER_MULTIPLE: z.coerce.number().min(1).max(1000).default(10),
  // why: a decimal USDT figure, kept exact (atoms) like every amount.
  ADJUSTMENT_APPROVAL_THRESHOLD: z
    .string()
    .optional()
    .transform((value, ctx): bigint => {
      const text = value?.trim() || '1000';
      if (!/^\d{1,10}(\.\d{1,8})?$/.test(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `ADJUSTMENT_APPROVAL_THRESHOLD: expected USDT like 1000, got "${value}"`,
        });
        return z.NEVER;
      }
      return toAtoms(text);
    }),
  MINING_JOB_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  MARKET_MAKER: flag(true),
  DEMO_IDLE_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
  NATS_URL: z
    .string()
    .optional()
    .refine(
      (v) => !v || v.split(',').every((url) => /^(nats|tls):\/\/\S+$/.test(url.trim())),
      'NATS_URL: expected nats://host:port (several separated by commas)',
    ),
  NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'NATS_PREFIX: letters, digits, _ and - only')
    .default('bourse'),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'NODE_ID: up to 64 letters, digits, ".", "_" and "-"')
    .optional(),
  MARKET_LEASE_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  WEB_DIST: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .default(3 * 24 * 60),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).default(30),
  STAFF_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(30),
  STAFF_SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  ADMIN_USER: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,32}$/, 'ADMIN_USER: 3–32 letters, digits, _ . or -')
    .optional()
    .or(z.literal('')),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD: use at least 8 characters').optional().or(z.literal('')),
  ADMIN_DIST: z.string().optional(),
  STAFF_SECRET_KEY: z
    .string()
    .optional()
    .transform((value, ctx): Buffer | undefined => {
      if (value === undefined || value.trim() === '') return undefined;
      const key = parseSecretKey(value);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: 'STAFF_SECRET_KEY: expected 32 bytes in base64 or hex' });
        return z.NEVER;
      }
      return key;
    }),
  POR_KEY: secretKeySetting('POR_KEY'),
  USER_SECRET_KEY: secretKeySetting('USER_SECRET_KEY'),
  SMTP_URL: z.string().optional().or(z.literal('')),
  MAIL_FROM: z.string().default('Bourse <no-reply@localhost>'),
  POR_SIGNING_KEY: secretKeySetting('POR_SIGNING_KEY'),
  RATE_LIMIT_STORE: z.enum(['memory', 'sqlite', 'postgres', 'redis']).optional(),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]{1,32}$/i)
    .default('bourse'),
  LIMIT_LOGIN_PER_ACCOUNT_IP: limitRule(DEFAULT_RULES.loginPerAccountAndIp),
  LIMIT_LOGIN_PER_IP: limitRule(DEFAULT_RULES.loginPerIp),
  LIMIT_LOGIN_FAILURES_PER_ACCOUNT: limitRule(DEFAULT_RULES.loginFailuresPerAccount),
  LIMIT_LOGIN_CAPTCHA_AFTER: z.coerce.number().int().min(1).default(10),
  LIMIT_REGISTER_PER_IP: limitRule(DEFAULT_RULES.registrationsPerIp),
  LIMIT_CAPTCHA_PER_IP: limitRule(DEFAULT_RULES.captchasPerIp),
  LIMIT_PASSWORD_CHECKS: limitRule(DEFAULT_RULES.passwordChecks),
  LIMIT_SUPPORT_MESSAGES: limitRule(DEFAULT_RULES.supportMessages),
  LIMIT_WS_AUTH_PER_IP: limitRule(DEFAULT_RULES.wsAuthPerIp),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` switches the store to PostgreSQL; unset means SQLite in dataDir. */
  databaseUrl: string | undefined;
  captcha: boolean;
  registerMode: 1 | 2;
  /** `NODE_ENV=production`. */
  production: boolean;
  /** Seed demo accounts (known passwords): on by default, off by default in production. */
  demo: boolean;
  /** Which proxies' `X-Forwarded-For` is believed for the client address; off ignores the header. */
  trustProxy: TrustProxy;
  /** Bearer token that opens `/metrics` from other addresses than loopback; unset = loopback only. */
  metricsToken: string | undefined;
  /** `/ws`: heartbeat period and the cap on open connections per client address. */
  ws: { heartbeatMs: number; connectionsPerIp: number };
  supportUrl: string;
  logLevel: string;
  /** Human-readable log lines (pino-pretty) instead of JSON: `LOG_FORMAT`, by default on a terminal only. */
  logPretty: boolean;
  /** How often each node checks the ledger's invariants for `/readyz` and the dashboard. */
  ledgerCheckMinutes: number;
  /**
   * Scheduled backups: the folder (`BACKUP_DIR`, default `DATA_DIR/backups`), the time between
   * them (0 = off) and how many are kept.
   */
  backup: { dir: string; everyMs: number; keep: number };
  /**
   * Tests only: replays the simulated feed's walk (`FEED_SEED`, refused unless `NODE_ENV=test` or
   * `FEED_SEED_UNSAFE=on`); unset = randomness from `node:crypto`, new at every start.
   */
  feedSeed: number | undefined;
  /** `FEED_SEED` was let through by `FEED_SEED_UNSAFE=on` outside tests: the start warns. */
  feedSeedUnsafe: boolean;
  /**
   * The cost of new password hashes (`PASSWORD_HASH`): `standard`, or `test` (cheap), which only
   * `NODE_ENV=test` may ask for and a production start refuses however it is given.
   */
  passwordHashing: PasswordHashing;
  feedIntervalMs: number;
  /**
   * The real index: ccxt venue ids whose prices make each market's index (their median); empty =
   * the simulated feed (refused in production).
   */
  indexSources: {
    venues: string[];
    /** A venue's own address (a mirror, or a test's loopback venue). */
    urls: Record<string, string>;
    /** A venue's price older than this is dropped as stale. */
    staleMs: number;
    /** A venue further than this from the median of the others is dropped as an outlier. */
    outlierBps: number;
    /** Fewer valid venues than this, no index tick: the index goes stale. */
    minSources: number;
    /** Initial per-market venue symbols (the back office's mappings, once set, take precedence). */
    symbolMap: IndexSymbolMapping[];
  };
  /** An index tick older than this is stale: new contracts are refused and settlements wait. */
  indexStaleMs: number;
  /** Recorded index ticks are kept this long (candles longer: `retention.fineCandleMs`, coarse ones for good). */
  indexTickRetentionMs: number;
  /** How long each operational table keeps its rows (README "Retention"), and the prune slice. */
  retention: {
    /** 1m, 5m and 15m index candles; the coarser ones are kept. */
    fineCandleMs: number;
    /** The bots' (spot and perpetual) orders that ended without a fill. */
    botOrderMs: number;
    perpPremiumMs: number;
    /** After a session's maximum age, when it has ended whatever happened to it. */
    sessionMs: number;
    loginLogMs: number;
    notificationMs: number;
    mailOutboxMs: number;
    /** Daily proof-of-reserves snapshots' proofs (monthly ones are kept). */
    porProofDays: number;
    /** Most rows one prune statement deletes. */
    sliceRows: number;
  };
  /** Run the market maker (and the demo traders in demo mode) on this node; staff switch them per market. */
  marketMaker: boolean;
  /**
   * Demo mode only: the market maker (its quotes withdrawn) and the demo traders pause once no
   * customer request or socket has been seen on any node for this long; 0 = they never pause.
   */
  demoIdleMs: number;
  /** A delivery contract whose expiry finds no index tick for this long is closed and refunded. */
  deliveryGraceSeconds: number;
  /**
   * Real turnover needed per unit of trial profit before it is released, until the back office
   * sets its own (never below 2 / (1 − the highest payout ratio); docs/trial-money.md).
   */
  trialTurnoverMultiple: number;
  /**
   * A manual adjustment worth more than this (USDT atoms at the index), or in an asset without a
   * price, waits for a second staff member's approval.
   */
  adjustmentApprovalThreshold: bigint;
  /** How often the mining job looks for whole UTC days to pay and output to release. */
  miningJobMs: number;
  /** `nats://…` switches the bus to NATS JetStream; unset means the in-process bus. */
  natsUrl: string | undefined;
  /** Subject prefix and JetStream stream of this installation's events. */
  natsPrefix: string;
  /** This node's name among several (market leases, logs); the host and process by default. */
  nodeId: string;
  /** A market's owner must renew its lease within this; another node takes it over after. */
  marketLeaseMs: number;
  /** Folder of the built customer app; served at `/` when it exists. */
  webDist: string;
  /** Sessions end after this long unused, and this long after login at most. */
  session: { idleTimeoutMs: number; maxAgeMs: number };
  /** Back-office sessions: shorter than customers'. */
  staffSession: { idleTimeoutMs: number; maxAgeMs: number };
  /** The first back-office owner, created at the first start; unset = `admin` with a one-time password. */
  firstOwner: { username?: string; password?: string };
  /** Folder of the built back office; served at `/admin/` when it exists. */
  adminDist: string;
  /** Encrypts staff TOTP secrets at rest; unset = a key file beside the store (see app.ts). */
  staffSecretKey: Buffer | undefined;
  /** The proof of reserves' salt and padding secret (32 bytes), given only to the auditor. */
  porKey: Buffer | undefined;
  /** Seals users' two-factor secrets at rest; unset = a key file beside the store. */
  userSecretKey: Buffer | undefined;
  /** SMTP server for mail (`smtps://user:pass@host`); unset = mail stays in the outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The seed of the Ed25519 key that signs proof-of-reserves headers (32 bytes). */
  porSigningKey: Buffer | undefined;
  /** Where limits count: memory (per process), sqlite (beside the store), postgres or redis. */
  limitStore: LimitStoreKind;
  redisUrl: string | undefined;
  /** Prefix of limit keys and tables, so installations sharing one Redis keep apart. */
  limitPrefix: string;
  limits: RateLimits;
}

/** Brute-force limits (README: `LIMIT_*`). */
export interface RateLimits {
  loginPerAccountAndIp: LimitRule;
  loginPerIp: LimitRule;
  loginFailuresPerAccount: LimitRule;
  /** Wrong passwords of one account, from any address, after which the graphic code is required. */
  loginCaptchaAfter: number;
  registrationsPerIp: LimitRule;
  captchasPerIp: LimitRule;
  /** Support-chat messages per user. */
  supportMessages: LimitRule;
  /** Failed `auth` operations on `/ws` per client address. */
  wsAuthPerIp: LimitRule;
  /** Checks of a current password (login or withdrawal) per account. */
  passwordChecks: LimitRule;
}

function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * The settings `npm run backup` and `npm run restore` need (the store, the data folder, where
 * backups go), read as the server reads them, without the checks that only a start needs.
 */
export function loadBackupConfig(env: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  databaseUrl: string | undefined;
  backupDir: string;
} {
  const parsed = ConfigSchema.pick({ DATA_DIR: true, DATABASE_URL: true, BACKUP_DIR: true }).parse(env);
  return {
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL || undefined,
    backupDir: path.resolve(parsed.BACKUP_DIR || path.join(parsed.DATA_DIR, 'backups')),
  };
}

/** Reads configuration from environment variables (see the README's table). Throws on invalid values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = ConfigSchema.parse(env);
  const root = path.resolve(import.meta.dirname, '../../..');
  const production = parsed.NODE_ENV === 'production';
  // why: a production index must not be the simulated walk: nothing a customer sees decides an
  // outcome unless it comes from real markets.
  if (production && parsed.INDEX_SOURCES.length === 0 && overrides.indexSources === undefined) {
    throw new Error(
      'INDEX_SOURCES: a production start (NODE_ENV=production) needs real index sources, e.g. ' +
        'INDEX_SOURCES=binance,okx,bybit; the simulated feed is for demos only',
    );
  }
  const venueCount = parsed.INDEX_SOURCES.length;
  if (venueCount > 0 && parsed.INDEX_MIN_SOURCES > venueCount) {
    throw new Error(
      `INDEX_MIN_SOURCES: ${parsed.INDEX_MIN_SOURCES} valid sources are required but INDEX_SOURCES lists ${venueCount}`,
    );
  }
  // why: a seeded walk can be replayed by whoever learns the seed, and with it every contract's
  // outcome; only tests (or an operator who says so, warned) may fix it.
  const isTest = parsed.NODE_ENV === 'test';
  if (parsed.FEED_SEED !== undefined && !isTest && parsed.FEED_SEED_UNSAFE !== true) {
    throw new Error(
      'FEED_SEED: a seeded feed can be replayed, so it is for tests only (NODE_ENV=test); ' +
        'set FEED_SEED_UNSAFE=on to use it anyway',
    );
  }
  // why: a cheap hash is for suites that create users by the hundred; a stolen store of them
  // would give up its passwords at once.
  if (parsed.PASSWORD_HASH !== 'standard' && !isTest) {
    throw new Error('PASSWORD_HASH: lowered password hashing is for tests only (NODE_ENV=test)');
  }
  const config: Config = {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL || undefined,
    captcha: parsed.CAPTCHA,
    registerMode: parsed.REGISTER_MODE as 1 | 2,
    production,
    // why: demo accounts have published passwords; a production start must ask for them explicitly.
    demo: parsed.DEMO ?? !production,
    trustProxy: parsed.TRUST_PROXY,
    metricsToken: parsed.METRICS_TOKEN || undefined,
    ws: { heartbeatMs: parsed.WS_HEARTBEAT_SECONDS * 1000, connectionsPerIp: parsed.WS_CONNECTIONS_PER_IP },
    supportUrl: parsed.SUPPORT_URL,
    logLevel: parsed.LOG_LEVEL,
    ledgerCheckMinutes: parsed.LEDGER_CHECK_MINUTES,
    backup: {
      dir: path.resolve(parsed.BACKUP_DIR || path.join(parsed.DATA_DIR, 'backups')),
      everyMs: parsed.BACKUP_EVERY_HOURS * 60 * 60_000,
      keep: parsed.BACKUP_KEEP,
    },
    logPretty:
      parsed.LOG_FORMAT === 'pretty' || (parsed.LOG_FORMAT === 'auto' && process.stdout.isTTY === true),
    feedSeed: parsed.FEED_SEED,
    feedSeedUnsafe: parsed.FEED_SEED !== undefined && !isTest,
    passwordHashing: parsed.PASSWORD_HASH,
    indexSources: {
      venues: parsed.INDEX_SOURCES,
      urls: parsed.INDEX_SOURCE_URLS,
      staleMs: parsed.INDEX_SOURCE_STALE_MS,
      outlierBps: parsed.INDEX_OUTLIER_BPS,
      minSources: parsed.INDEX_MIN_SOURCES,
      symbolMap: parsed.INDEX_SYMBOL_MAP,
    },
    feedIntervalMs: parsed.FEED_INTERVAL_MS,
    indexStaleMs: parsed.INDEX_STALE_MS,
    indexTickRetentionMs: parsed.INDEX_TICK_RETENTION_DAYS * 24 * 60 * 60_000,
    retention: {
      fineCandleMs: parsed.INDEX_FINE_CANDLE_RETENTION_DAYS * 24 * 60 * 60_000,
      botOrderMs: parsed.BOT_ORDER_RETENTION_HOURS * 60 * 60_000,
      perpPremiumMs: parsed.PERP_PREMIUM_RETENTION_DAYS * 24 * 60 * 60_000,
      sessionMs: parsed.SESSION_RETENTION_DAYS * 24 * 60 * 60_000,
      loginLogMs: parsed.LOGIN_LOG_RETENTION_DAYS * 24 * 60 * 60_000,
      notificationMs: parsed.NOTIFICATION_RETENTION_DAYS * 24 * 60 * 60_000,
      mailOutboxMs: parsed.MAIL_OUTBOX_RETENTION_DAYS * 24 * 60 * 60_000,
      porProofDays: parsed.POR_PROOF_RETENTION_DAYS,
      sliceRows: parsed.RETENTION_SLICE_ROWS,
    },
    deliveryGraceSeconds: parsed.DELIVERY_GRACE_SECONDS,
    trialTurnoverMultiple: parsed.TRIAL_TURNOVER_MULTIPLE,
    adjustmentApprovalThreshold: parsed.ADJUSTMENT_APPROVAL_THRESHOLD,
    miningJobMs: parsed.MINING_JOB_SECONDS * 1000,
    marketMaker: parsed.MARKET_MAKER,
    demoIdleMs: parsed.DEMO_IDLE_MINUTES * 60_000,
    natsUrl: parsed.NATS_URL || undefined,
    natsPrefix: parsed.NATS_PREFIX,
    nodeId: parsed.NODE_ID ?? `${os.hostname()}-${process.pid}`,
    marketLeaseMs: parsed.MARKET_LEASE_SECONDS * 1000,
    webDist: parsed.WEB_DIST ? path.resolve(parsed.WEB_DIST) : path.join(root, 'apps/web/dist'),
    session: {
      idleTimeoutMs: parsed.SESSION_IDLE_MINUTES * 60_000,
      maxAgeMs: parsed.SESSION_MAX_DAYS * 24 * 60 * 60_000,
    },
    staffSession: {
      idleTimeoutMs: parsed.STAFF_SESSION_IDLE_MINUTES * 60_000,
      maxAgeMs: parsed.STAFF_SESSION_MAX_HOURS * 60 * 60_000,
    },
    firstOwner: { username: parsed.ADMIN_USER || undefined, password: parsed.ADMIN_PASSWORD || undefined },
    adminDist: parsed.ADMIN_DIST ? path.resolve(parsed.ADMIN_DIST) : path.join(root, 'apps/admin/dist'),
    staffSecretKey: parsed.STAFF_SECRET_KEY,
    porKey: parsed.POR_KEY,
    userSecretKey: parsed.USER_SECRET_KEY,
    smtpUrl: parsed.SMTP_URL || undefined,
    mailFrom: parsed.MAIL_FROM,
    porSigningKey: parsed.POR_SIGNING_KEY,
    // why: limits count in a store that survives a restart by default: the PostgreSQL store when
    // the ledger is on PostgreSQL, a SQLite file beside the embedded store otherwise.
    limitStore: parsed.RATE_LIMIT_STORE ?? (isPostgresUrl(parsed.DATABASE_URL) ? 'postgres' : 'sqlite'),
    redisUrl: parsed.REDIS_URL || undefined,
    limitPrefix: parsed.RATE_LIMIT_PREFIX,
    limits: {
      loginPerAccountAndIp: parsed.LIMIT_LOGIN_PER_ACCOUNT_IP,
      loginPerIp: parsed.LIMIT_LOGIN_PER_IP,
      loginFailuresPerAccount: parsed.LIMIT_LOGIN_FAILURES_PER_ACCOUNT,
      loginCaptchaAfter: parsed.LIMIT_LOGIN_CAPTCHA_AFTER,
      registrationsPerIp: parsed.LIMIT_REGISTER_PER_IP,
      captchasPerIp: parsed.LIMIT_CAPTCHA_PER_IP,
      passwordChecks: parsed.LIMIT_PASSWORD_CHECKS,
      supportMessages: parsed.LIMIT_SUPPORT_MESSAGES,
      wsAuthPerIp: parsed.LIMIT_WS_AUTH_PER_IP,
    },
    ...overrides,
  };
  if (config.production && config.passwordHashing !== 'standard') {
    throw new Error('PASSWORD_HASH: a production start (NODE_ENV=production) hashes passwords at full cost');
  }
  return config;
}
