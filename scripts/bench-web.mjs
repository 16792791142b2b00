// `npm run bench:web`: page weight and Lighthouse mobile performance of the customer app.
//
// 1. Builds apps/web.
// 2. Starts the real server from the repo (fresh data dir, captcha off) on a free port.
// 3. Opens /#/Trade/tradelist in Chromium as a phone and sums the gzip size of every JS and CSS
//    file the page requests until the network is idle (zlib.gzipSync of the built file's bytes).
// 4. Runs Lighthouse (mobile, performance only) on the same URL.
// Ends with the line `web initial_kb=<n> lighthouse=<n>`. Not part of `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
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

async function runLighthouse(url) {
  const { port, chrome, userDataDir } = await launchChromeForLighthouse();
  try {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result.lhr;
    const metric = (id) => lhr.audits[id]?.displayValue ?? 'n/a';
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
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

async function main() {
  build();
  const platform = await startPlatform({ stdout: 'ignore' });
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

    console.log('\nLighthouse (mobile, performance) …');
    const report = await runLighthouse(`${base}${ROUTE}`);
    for (const [name, value] of Object.entries(report.metrics)) console.log(`  ${name}: ${value}`);
    console.log(`  performance score: ${report.score}`);

    console.log(`web initial_kb=${initialKb} lighthouse=${report.score}`);
  } finally {
    await platform.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
