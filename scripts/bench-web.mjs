// `npm run bench:web`: page weight, and Lighthouse mobile performance and accessibility of the
// customer app.
//
// 1. Builds apps/web.
// 2. Starts the real server from the repo (fresh data dir, captcha off, demo markets) on a free
//    port, and registers a user for the pages that need a session.
// 3. Opens /#/Trade/tradelist in Chromium as a phone and sums the gzip size of every JS and CSS
//    file the page requests until the network is idle (zlib.gzipSync of the built file's bytes).
// 4. Runs Lighthouse (mobile, performance and accessibility) on every main page
//    (scripts/lib/main-pages.mjs), each in a fresh Chromium; signed-in pages get the session in
//    localStorage first, where the app keeps it.
// Ends with the line `web initial_kb=<n> lighthouse=<n> a11y=<n>`: `lighthouse` is the market
// list's performance score, `a11y` the lowest accessibility score of all main pages.
// Not part of `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { MAIN_PAGES, seedSession } from './lib/main-pages.mjs';
import { CHROME_FLAGS, CHROME_PATH, launchChromium, ROOT, startPlatform } from './lib/platform.mjs';

const dist = path.join(ROOT, 'apps/web/dist');
const ROUTE = '/#/Trade/tradelist';
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

function build() {
  console.log('building apps/web …');
  const result = spawnSync('npm', ['run', 'build', '-w', '@bourse/web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The bytes the browser received for `url`: the built file when it is one, else the response body. */
async function bytesOf(url, response) {
  const { pathname } = new URL(url);
  const file = path.join(dist, decodeURIComponent(pathname));
  if (file.startsWith(dist) && fs.existsSync(file) && fs.statSync(file).isFile())
    return fs.readFileSync(file);
  return response.body();
}

async function measureInitialLoad(base) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: PHONE_UA,
    });
    const page = await context.newPage();
    const assets = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      const url = response.url();
      if (type === 'script' || type === 'stylesheet' || /\.(m?js|css)(\?|$)/.test(url)) {
        assets.push(
          bytesOf(url, response).then((bytes) => ({
            url,
            type,
            raw: bytes.length,
            gzip: zlib.gzipSync(bytes).length,
          })),
        );
      }
    });
    await page.goto(`${base}${ROUTE}`, { waitUntil: 'networkidle' });
    await page.getByTestId('market-row-BTCUSDT').waitFor({ timeout: 15_000 });
    const files = await Promise.all(assets);
    await context.close();
    return files;
  } finally {
    await browser.close();
  }
}

/** Starts Chromium with a DevTools port for Lighthouse; resolves with the port and the process. */
function launchChromeForLighthouse() {
  return new Promise((resolve, reject) => {
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-lh-'));
    const chrome = spawn(
      CHROME_PATH,
      [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${stderr}`)), 30_000);
    chrome.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = stderr.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
      if (match) {
        clearTimeout(timer);
        resolve({ port: Number(match[1]), chrome, userDataDir });
      }
    });
    chrome.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${stderr}`)));
  });
}

/**
 * Puts the session into the fresh Chromium's localStorage for `base`, from a page of the same
 * origin that loads none of the app (so its files stay out of the cache Lighthouse measures).
 */
async function seedSessionInto(port, base, session) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${base}/healthz`);
    await page.evaluate(seedSession, session);
    await page.close();
  } finally {
    await browser.close();
  }
}

async function runLighthouse(url, { base, session } = {}) {
  const { port, chrome, userDataDir } = await launchChromeForLighthouse();
  try {
    if (session) await seedSessionInto(port, base, session);
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // why: a reset would drop the session seeded above; the profile is fresh anyway.
      disableStorageReset: Boolean(session),
    });
    const lhr = result.lhr;
    // why: a page that bounced (e.g. to /login for want of a session) would be scored instead.
    if (new URL(lhr.finalDisplayedUrl).hash !== new URL(url).hash)
      throw new Error(`${url} ended on ${lhr.finalDisplayedUrl}`);
    const metric = (id) => lhr.audits[id]?.displayValue ?? 'n/a';
    const a11yFailures = lhr.categories.accessibility.auditRefs
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => ref.id);
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      a11y: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      a11yFailures,
      metrics: {
        'First Contentful Paint': metric('first-contentful-paint'),
        'Largest Contentful Paint': metric('largest-contentful-paint'),
        'Total Blocking Time': metric('total-blocking-time'),
        'Cumulative Layout Shift': metric('cumulative-layout-shift'),
        'Speed Index': metric('speed-index'),
      },
    };
  } finally {
    const exited = new Promise((resolve) =>
      chrome.exitCode !== null ? resolve() : chrome.once('exit', resolve),
    );
    chrome.kill('SIGKILL');
    await exited;
    fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** Registers and logs in a throw-away user through the API; resolves with its session. */
async function signIn(base) {
  const call = async (pathname, form) => {
    const response = await fetch(`${base}/apiv${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    const body = await response.json();
    if (body.code !== 1000) throw new Error(`${pathname}: ${body.code} ${body.msg}`);
    return body.data;
  };
  // why: the demo publishes terms of service; accepted at sign-up, as the app does, so no sheet
  // asks for them on the pages measured.
  const terms = (await (await fetch(`${base}/apiv/Index/terms`)).json()).data.version;
  await call('/Login/upregister', {
    account: 'bench_web',
    lpwd: 'bench-pass-1',
    ...(terms > 0 ? { terms_version: String(terms) } : {}),
  });
  const { token, uid } = await call('/Login/loginsubmit', { email: 'bench_web', lpwd: 'bench-pass-1' });
  return { token, uid };
}

async function main() {
  build();
  // why: the markets are rows the demo seed lists.
  const platform = await startPlatform({ stdout: 'ignore', env: { DEMO: 'on' } });
  const base = platform.url;
  try {
    const files = await measureInitialLoad(base);
    files.sort((a, b) => b.gzip - a.gzip);
    console.log(`\ninitial load of ${ROUTE} (JS and CSS until network idle):`);
    for (const file of files) {
      const name = new URL(file.url).pathname;
      console.log(
        `  ${(file.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${(file.raw / 1024).toFixed(1).padStart(7)} KB raw  ${name}`,
      );
    }
    const totalGzip = files.reduce((sum, file) => sum + file.gzip, 0);
    const jsGzip = files.filter((f) => f.type === 'script').reduce((sum, file) => sum + file.gzip, 0);
    const initialKb = Math.round((totalGzip / 1024) * 10) / 10;
    console.log(
      `  total ${initialKb} KB gzip (${(jsGzip / 1024).toFixed(1)} KB JS, ${files.length} files; budget 150 KB)`,
    );

    const session = await signIn(base);
    console.log('\nLighthouse (mobile: performance, accessibility) on every main page …');
    const reports = [];
    for (const main of MAIN_PAGES) {
      const report = await runLighthouse(`${base}/#${main.path}`, {
        base,
        session: main.signedIn ? session : undefined,
      });
      reports.push({ main, report });
      const failures = report.a11yFailures.length ? `  failing: ${report.a11yFailures.join(', ')}` : '';
      console.log(
        `  ${main.path.padEnd(20)} performance ${String(report.score).padStart(3)}  accessibility ${String(report.a11y).padStart(3)}${failures}`,
      );
    }
    const markets = reports.find(({ main }) => `/#${main.path}` === ROUTE).report;
    console.log(`\n${ROUTE} in detail:`);
    for (const [name, value] of Object.entries(markets.metrics)) console.log(`  ${name}: ${value}`);
    console.log(`  performance score: ${markets.score}`);
    const a11y = Math.min(...reports.map(({ report }) => report.a11y));

    console.log(`web initial_kb=${initialKb} lighthouse=${markets.score} a11y=${a11y}`);
  } finally {
    await platform.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
