import path from 'node:path';
import { z } from 'zod';

const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v === '' ? fallback : !['off', '0', 'false', 'no'].includes(v.toLowerCase()),
    );

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  CAPTCHA: flag(true),
  REGISTER_MODE: z.enum(['1', '2']).default('1').transform(Number),
  DEMO: flag(true),
  SUPPORT_URL: z.string().default('#/User/contactKehu'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  FEED_SEED: z.coerce.number().int().default(20261122),
  FEED_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  WEB_DIST: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` switches the store to PostgreSQL; unset means SQLite in dataDir. */
  databaseUrl: string | undefined;
  captcha: boolean;
  registerMode: 1 | 2;
  demo: boolean;
  supportUrl: string;
  logLevel: string;
  feedSeed: number;
  feedIntervalMs: number;
  /** Folder of the built customer app; served at `/` when it exists. */
  webDist: string;
  limits: RateLimits;
}

/** Brute-force limits: at most `max` events per `windowMs`. */
export interface RateLimits {
  loginFailuresPerIp: { max: number; windowMs: number };
  loginFailuresPerAccount: { max: number; windowMs: number };
  registrationsPerIp: { max: number; windowMs: number };
  captchasPerIp: { max: number; windowMs: number };
}

export const DEFAULT_LIMITS: RateLimits = {
  loginFailuresPerIp: { max: 30, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { max: 5, windowMs: 15 * 60_000 },
  registrationsPerIp: { max: 10, windowMs: 60 * 60_000 },
  captchasPerIp: { max: 120, windowMs: 60_000 },
};

/** Reads configuration from environment variables (see the README's table). Throws on invalid values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = ConfigSchema.parse(env);
  const root = path.resolve(import.meta.dirname, '../../..');
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL || undefined,
    captcha: parsed.CAPTCHA,
    registerMode: parsed.REGISTER_MODE as 1 | 2,
    demo: parsed.DEMO,
    supportUrl: parsed.SUPPORT_URL,
    logLevel: parsed.LOG_LEVEL,
    feedSeed: parsed.FEED_SEED,
    feedIntervalMs: parsed.FEED_INTERVAL_MS,
    webDist: parsed.WEB_DIST ? path.resolve(parsed.WEB_DIST) : path.join(root, 'apps/web/dist'),
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}
