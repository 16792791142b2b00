// The OpenAPI document exactly as `/docs/json` serves it, built without a network or a running
// server: the app on a throwaway SQLite store, asked for its document, then closed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

export async function buildApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-api-document-'));
  try {
    // why: a fixed environment, so a DATABASE_URL or NATS_URL of the shell never changes the document.
    const config = loadConfig({ DATA_DIR: dataDir, DEMO: 'off', CAPTCHA: 'off', RATE_LIMIT_STORE: 'memory' });
    const app = await buildApp({ config, startFeed: false, logger: false });
    try {
      await app.ready();
      return app.swagger() as unknown as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
