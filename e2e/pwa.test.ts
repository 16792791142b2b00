import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_FLAGS, CHROME_PATH, ROOT } from '../scripts/lib/platform.mjs';
import { type Platform, startPlatform } from './harness.ts';
import { webText } from './page-helpers.ts';

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

describe('the installable app', () => {
  let platform: Platform;
  let context: BrowserContext;
  let page: Page;
  // a real profile on disk, as a phone's browser has: Chromium never offers to install an app
  // from an incognito context, which is what a plain new browser context is
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-pwa-'));

  beforeAll(async () => {
    platform = await startPlatform();
    context = await chromium.launchPersistentContext(profile, {
      ...devices['iPhone 13'],
      viewport: { width: 390, height: 844 },
      locale: 'ja-JP',
      executablePath: CHROME_PATH,
      args: [...CHROME_FLAGS],
      headless: true,
    });
    page = await context.newPage();
    await page.goto(`${platform.url}/#/Trade/tradelist`);
  });
  afterAll(async () => {
    await context?.close();
    await platform?.stop();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  it('links a manifest with the name, standalone display, start URL, colours and icons that load', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const response = await fetch(new URL(href ?? '', platform.url));
    expect(response.headers.get('content-type')).toContain('application/manifest+json');
    const manifest = (await response.json()) as Manifest;
    expect(manifest).toMatchObject({
      name: 'Bourse',
      short_name: 'Bourse',
      start_url: '/#/Trade/tradelist',
      scope: '/',
      display: 'standalone',
      theme_color: '#0b0e14',
      background_color: '#0b0e14',
    });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, platform.url));
      expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
    }
  });

  it('passes Chromium’s installability check', async () => {
    const cdp = await page.context().newCDPSession(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
  });

  it('runs a service worker for the whole app that caches the shell and never API data', async () => {
    const scope = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const worker = registration.active;
      // "ready" means a worker is active; its precache is complete once it reports "activated"
      if (worker && worker.state !== 'activated')
        await new Promise((resolve) => worker.addEventListener('statechange', resolve));
      return { scope: registration.scope, active: registration.active?.state };
    });
    expect(scope).toEqual({ scope: `${platform.url}/`, active: 'activated' });
    const worker = await fetch(`${platform.url}/sw.js`);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // an API call made through the page goes to the network, and nothing of the API is cached
    await page.evaluate(() => fetch('/apiv/Login/config').then((r) => r.json()));
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.some((url) => url.startsWith('/assets/') && url.endsWith('.js'))).toBe(true);
    expect(cached.filter((url) => /^\/(apiv|ws|Upload|admin|por)\b/.test(url))).toEqual([]);
  });
});

describe('a new deployment', () => {
  let platform: Platform;
  let context: BrowserContext;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-pwa-update-'));
  // a copy of the built app that the test can redeploy
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-pwa-dist-'));

  beforeAll(async () => {
    fs.cpSync(path.join(ROOT, 'apps/web/dist'), dist, { recursive: true });
    platform = await startPlatform({ env: { WEB_DIST: dist } });
    context = await chromium.launchPersistentContext(profile, {
      ...devices['iPhone 13'],
      viewport: { width: 390, height: 844 },
      locale: 'ja-JP',
      executablePath: CHROME_PATH,
      args: [...CHROME_FLAGS],
      headless: true,
    });
  });
  afterAll(async () => {
    await context?.close();
    await platform?.stop();
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('is offered, not forced: the app asks, and switches to it only when the user accepts', async () => {
    const page = await context.newPage();
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    const first = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.scriptURL;
    });
    expect(first).toBe(`${platform.url}/sw.js`);
    // the page is controlled once it has been loaded under the worker
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // deploy: a worker that differs by one byte is a new version to the browser
    fs.appendFileSync(path.join(dist, 'sw.js'), '\n// next deployment\n');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByText(webText('pwa.updateReady'));
    await prompt.waitFor({ timeout: 15_000 });
    // until the user accepts, the new worker waits and the old one keeps the page
    expect(
      await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
    ).toBe(true);

    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: webText('pwa.update') }).click();
    await reloaded;
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { waiting: Boolean(registration?.waiting), active: registration?.active?.state };
      }),
    ).toEqual({ waiting: false, active: 'activated' });
  });
});
