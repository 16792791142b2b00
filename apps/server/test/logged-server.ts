import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/platform/clock.ts';

/** One parsed pino line. */
export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** Collects log lines in memory; pass `stream` as the logger's destination. */
export function captureLog() {
  const chunks: string[] = [];
  return {
    stream: { write: (line: string) => void chunks.push(line) },
    /** Everything written so far, as written. */
    text: () => chunks.join(''),
    lines: (): LogLine[] =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine),
  };
}

export interface LoggedServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  log: ReturnType<typeof captureLog>;
  close(): Promise<void>;
}

/**
 * The whole platform (SQLite in a temp folder) listening on a loopback port, its log captured in
 * memory at `trace`. `routes` may add test-only routes before it starts listening.
 */
export async function startLoggedServer(
  options: { env?: Record<string, string>; routes?: (app: FastifyInstance) => void } = {},
): Promise<LoggedServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-log-test-'));
  const config = loadConfig({
    CAPTCHA: 'off',
    DEMO: 'off',
    LOG_LEVEL: 'trace',
    DATA_DIR: dataDir,
    RATE_LIMIT_STORE: 'memory',
    ...options.env,
  });
  const log = captureLog();
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 8, 0, 0));
  const app = await buildApp({ config, clock, startFeed: false, logStream: log.stream });
  options.routes?.(app);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    config,
    log,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
