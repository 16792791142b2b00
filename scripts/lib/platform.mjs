// What the end-to-end tests, `npm run bench:web` and the screenshot script share: Debian's
// Chromium with the flags this kind of machine needs, a phone-sized context, and the platform started the way an
// operator starts it (`npm start`) on a free loopback port with a fresh data folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, devices } from 'playwright-core';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium() {
  if (!fs.existsSync(CHROME_PATH)) {
    throw new Error(
      `No Chromium at ${CHROME_PATH}: apt-get install -y chromium fonts-noto-cjk, or set CHROME_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS, headless: true });
}

/**
 * A phone: 390×844, touch, a mobile user agent, `locale` (default ja-JP) as the browser's language.
 * @param {import('playwright-core').Browser} browser
 * @param {{ locale?: string }} [options]
 */
export function newPhoneContext(browser, options = {}) {
  return browser.newContext({
    ...devices['iPhone 13'],
    viewport: { width: 390, height: 844 },
    locale: options.locale ?? 'ja-JP',
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `scripts/start.mjs` with captcha off and no demo data (unless `env` says otherwise) and
 * waits until /healthz answers. `stop()` ends the process and removes the data folder. With
 * `ownGroup`, the platform runs in a process group of its own and `stop()` ends the whole group,
 * the server `start.mjs` spawned included, even when `start.mjs` has to be killed.
 */
export async function startPlatform({
  env = {},
  timeoutMs = 120_000,
  stdout = 'inherit',
  ownGroup = false,
} = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-run-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CAPTCHA: 'off',
      DEMO: 'off',
      LOG_LEVEL: 'warn',
      // why: the suites create many accounts and logins from one address; the limits themselves
      // are proven by the server's integration tests, so the browser suites never depend on them.
      LIMIT_REGISTER_PER_IP: '100000/3600',
      LIMIT_LOGIN_PER_IP: '100000/900',
      LIMIT_CAPTCHA_PER_IP: '100000/60',
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
    detached: ownGroup,
  });
  const signal = (name) => {
    try {
      if (ownGroup && child.pid !== undefined) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // already gone
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signal('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) signal('SIGKILL');
    }
    // why: the server start.mjs spawned may outlive it; the group takes it along.
    if (ownGroup) signal('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (true) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the platform exited with ${child.exitCode}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the platform did not answer /healthz within ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, dataDir, stop };
}
