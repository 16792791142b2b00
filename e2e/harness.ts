import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, devices } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Platform {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Runs the platform the way an operator does (`npm start`), on a free loopback port and a fresh
 * data folder, and waits until /healthz answers.
 */
export async function startPlatform(env: Record<string, string> = {}): Promise<Platform> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CAPTCHA: 'off',
      DEMO: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (true) {
    if (child.exitCode !== null) throw new Error(`the platform exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the platform did not answer /healthz within 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROME_PATH)) {
    throw new Error(
      `No Chromium at ${CHROME_PATH}: apt-get install -y chromium fonts-noto-cjk, or set CHROME_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS, headless: true });
}

/** A phone: 390×844, touch, a mobile user agent. */
export function newPhoneContext(
  browser: Browser,
  options: { locale?: string } = {},
): Promise<BrowserContext> {
  const iphone = devices['iPhone 13'];
  return browser.newContext({
    ...iphone,
    viewport: { width: 390, height: 844 },
    locale: options.locale ?? 'ja-JP',
  });
}

/** A desktop browser: a wide window and a desktop user agent. */
export function newDesktopContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ ...devices['Desktop Chrome'], viewport: { width: 1366, height: 900 } });
}

/** Registers through the API (the UI flow has its own test) and returns the credentials. */
export async function registerViaApi(url: string, username: string, password = 'secret123'): Promise<void> {
  const response = await fetch(`${url}/apiv/Login/upregister`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account: username, lpwd: password }).toString(),
  });
  const answer = (await response.json()) as { code: number };
  if (answer.code !== 1000) throw new Error(`register ${username}: ${JSON.stringify(answer)}`);
}

export async function loginViaApi(
  url: string,
  username: string,
  password = 'secret123',
): Promise<{ token: string; uid: number }> {
  const response = await fetch(`${url}/apiv/Login/loginsubmit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: username, lpwd: password }).toString(),
  });
  const answer = (await response.json()) as { code: number; data: { token: string; uid: number } };
  if (answer.code !== 1000) throw new Error(`login ${username}: ${JSON.stringify(answer)}`);
  return answer.data;
}
