// Takes desktop screenshots of the back office (dashboard, deposits queue) into docs/screens/.
// Usage: node apps/admin/scripts/screenshots.mjs (after `npm run build -w @bourse/admin`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { freePort, launchChromium, ROOT } from '../../../scripts/lib/platform.mjs';
import { serverArgs } from '../../server/src/server-command.ts';

// why: runs the server on its own (not `npm start`), so a customer-app build is not needed here.
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
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const platform = {
  url: `http://127.0.0.1:${port}`,
  stop: async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
};
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${platform.url}/healthz`)).ok) break;
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
  await page.goto(`${platform.url}/admin/#/login`);
  await page.getByLabel(/User name/).fill('owner');
  await page.getByLabel(/Password/).fill('owner-pass-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.locator('code').first().textContent())?.trim() ?? '';
  await page.getByLabel(/Six-digit code/).fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Ledger invariants').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(ROOT, 'docs/screens/admin-dashboard.png') });
  await page.goto(`${platform.url}/admin/#/deposits`);
  await page.locator('.ant-table').waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(ROOT, 'docs/screens/admin-deposits.png') });
} finally {
  await browser.close();
  await platform.stop();
}
