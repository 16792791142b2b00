// Takes a desktop screenshot of the back office's index-sources panel into
// docs/screens/admin-index-sources.png, with the server following the loopback fixture venues
// (binance, okx, bybit) the tests use: no internet. okx quotes BTC far off the others, so the
// panel shows an outlier dropped; the venues quote again every second so the others stay fresh.
// Usage: node apps/admin/scripts/index-sources-screenshot.mjs (after building the back office;
// ADMIN_DIST may point at another build).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { freePort, launchChromium, ROOT } from '../../../scripts/lib/platform.mjs';
import { serverArgs } from '../../server/src/server-command.ts';
import { startVenues } from '../../server/test/venues/venue-server.ts';

const fixtures = await startVenues();
const PRICES = {
  binance: { 'BTC/USDT': '96500.12', 'ETH/USDT': '3450.55', 'SOL/USDT': '238.41' },
  okx: { 'BTC/USDT': '100020.5', 'ETH/USDT': '3450.61', 'SOL/USDT': '238.43' },
  bybit: { 'BTC/USDT': '96499.87', 'ETH/USDT': '3450.48' },
};
const quote = () => {
  for (const [venue, prices] of Object.entries(PRICES)) {
    for (const [symbol, price] of Object.entries(prices)) fixtures.venues[venue].setPrice(symbol, price);
  }
};
quote();
const quoting = setInterval(quote, 1000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-index-shots-'));
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
    INDEX_SOURCES: 'binance,okx,bybit',
    INDEX_SOURCE_URLS: fixtures.env,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
const stop = async () => {
  clearInterval(quoting);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await fixtures.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
};
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (i > 120) throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const browser = await launchChromium();
  try {
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
    await page.goto(`${url}/admin/#/index-sources`);
    // the outlier shows once the feed has aggregated with okx connected
    await page.getByText('Dropped: outlier').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(ROOT, 'docs/screens/admin-index-sources.png') });
  } finally {
    await browser.close();
  }
} finally {
  await stop();
}
