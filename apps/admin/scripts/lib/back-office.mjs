// The back office on a server of its own, signed in as its first owner, for the screenshot
// scripts beside this folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { freePort, launchChromium, ROOT } from '../../../../scripts/lib/platform.mjs';
import { serverArgs } from '../../../server/src/server-command.ts';

/**
 * Starts a demo server (not `npm start`, so no customer-app build is needed) with `env` added,
 * and a desktop-sized page signed in as the owner `owner` (TOTP enrolled on the way). Answers the
 * page, the server's URL and `stop()`, which ends both and removes the data folder.
 */
export async function openBackOffice(env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-admin-shots-'));
  const port = await freePort();
  const server = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USER: 'owner',
      ADMIN_PASSWORD: 'owner-pass-1',
      DEMO: 'on',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_STORE: 'memory',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stopServer = async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let browser;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        if (i > 120) throw new Error('the server did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    page.on('console', (m) => m.type() === 'error' && console.error('console:', m.text()));
    await page.goto(`${url}/admin/#/login`);
    await page.getByLabel(/User name/).fill('owner');
    await page.getByLabel(/Password/).fill('owner-pass-1');
    await page.getByRole('button', { name: 'Continue' }).click();
    const secret = (await page.locator('code').first().textContent())?.trim() ?? '';
    await page.getByLabel(/Six-digit code/).fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Ledger invariants').waitFor();
    return {
      page,
      url,
      stop: async () => {
        await browser.close();
        await stopServer();
      },
    };
  } catch (error) {
    await browser?.close();
    await stopServer();
    throw error;
  }
}

/** Where the screenshots go. */
export const SCREENS = path.join(ROOT, 'docs/screens');
