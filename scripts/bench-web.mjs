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
//    localStorage first, where the app keeps it. The market list runs three times; every other
//    page once, and twice more when it scores under 90. A page's score is the median of its runs.
// Ends with the line `web initial_kb=<n> lighthouse=<n> perf_min=<n> a11y=<n>`: `lighthouse` is
// the market list's median performance score, `perf_min` the lowest page's median, `a11y` the
// lowest accessibility score of all runs.
// `BENCH_WEB_PAGES=markets,spot-trade` limits the Lighthouse runs to those pages (names as in
// main-pages.mjs), for a quick look at one page while working on it.
// A phase or a page that fails (a Lighthouse protocol timeout under load, a page that bounced) is
// recorded and the run goes on; the summary lists every failure and the exit code is then 1.
// Whatever happens (a failure, Ctrl-C, SIGTERM) the platform's process group and every Chromium
// the bench started are ended before it exits.
// Not part of `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { FIRST_LOAD_BUDGET_KB, measureFirstLoad, FIRST_SCREEN as ROUTE } from './lib/first-load.mjs';
import { MAIN_PAGES, seedSession } from './lib/main-pages.mjs';
import { CHROME_FLAGS, CHROME_PATH, launchChromium, ROOT, startPlatform } from './lib/platform.mjs';

/** Runs of the market list (the first screen); other pages run once, or this many under PAGE_TARGET. */
const RUNS = 3;
const PAGE_TARGET = 90;

function build() {
  console.log('building apps/web …');
  const result = spawnSync('npm', ['run', 'build', '-w', '@bourse/web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The least any first screen built on the app's libraries loads: React with React DOM, React
 * Router, i18next with react-i18next and TanStack Query, as the market list imports them,
 * minified and gzipped together (built by Vite from apps/web, so the same versions and settings).
 */
async function measureLibraryFloor() {
  const { build: viteBuild } = await import('vite');
  const entry = `
    import { createRoot } from 'react-dom/client';
    import { createElement, lazy, Suspense, useState, startTransition } from 'react';
    import { HashRouter, Routes, Route, Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
    import i18next from 'i18next';
    import { initReactI18next, useTranslation } from 'react-i18next';
    import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
    window.floor = { createRoot, createElement, lazy, Suspense, useState, startTransition, HashRouter, Routes,
      Route, Link, Navigate, Outlet, useLocation, useNavigate, i18next, initReactI18next, useTranslation,
      QueryClient, QueryClientProvider, useQuery };`;
  const output = await viteBuild({
    configFile: false,
    logLevel: 'silent',
    root: path.join(ROOT, 'apps/web'),
    mode: 'production',
    plugins: [
      {
        name: 'floor-entry',
        resolveId: (id) => (id === 'floor-entry' ? '\0floor-entry' : undefined),
        load: (id) => (id === '\0floor-entry' ? entry : undefined),
      },
    ],
    build: { write: false, minify: true, target: 'es2022', rollupOptions: { input: 'floor-entry' } },
  });
  const result = Array.isArray(output) ? output[0] : output;
  const code = result.output.map((chunk) => chunk.code ?? '').join('');
  return Math.round((zlib.gzipSync(code).length / 1024) * 10) / 10;
}

/** What the bench started and must end, whatever happens: stop functions, newest last. */
const started = new Set();

/** Runs `stop` once, now or at the latest when the bench exits. */
function owned(stop) {
  let done;
  const once = () => {
    done ??= Promise.resolve().then(stop);
    started.delete(once);
    return done;
  };
  started.add(once);
  return once;
}

async function stopEverything() {
  await Promise.allSettled([...started].reverse().map((stop) => stop()));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping what the bench started …`);
    void stopEverything().finally(() => process.exit(130));
  });
}

/** Ends a Chromium and every process it started (its own group), and removes its profile. */
async function endChrome(chrome, userDataDir) {
  // why: a Chromium that never started (no pid) has nothing to end and sends no exit.
  const isRunning = chrome.pid !== undefined && chrome.exitCode === null && chrome.signalCode === null;
  const exited = new Promise((resolve) => (isRunning ? chrome.once('exit', resolve) : resolve()));
  try {
    process.kill(-chrome.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  await exited;
  fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/**
 * Starts Chromium with a DevTools port for Lighthouse, in a process group of its own; resolves with
 * the port and `end`, which ends it (also when the bench is interrupted).
 */
function launchChromeForLighthouse() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-lh-'));
  const chrome = spawn(
    CHROME_PATH,
    [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const end = owned(() => endChrome(chrome, userDataDir));
  return new Promise((resolve, reject) => {
    let stderr = '';
    const fail = (error) => {
      clearTimeout(timer);
      void end().finally(() => reject(error));
    };
    const timer = setTimeout(() => fail(new Error(`Chromium did not start: ${stderr}`)), 30_000);
    chrome.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = stderr.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
      if (match) {
        clearTimeout(timer);
        resolve({ port: Number(match[1]), end });
      }
    });
    chrome.once('exit', (code) => fail(new Error(`Chromium exited (${code}): ${stderr}`)));
    chrome.once('error', (error) => fail(new Error(`Chromium did not start: ${error.message}`)));
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

/** The selector of the largest contentful paint's element, as Lighthouse reports it. */
function lcpElementOf(lhr) {
  const items = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const node = items.flatMap((item) => item.items ?? [item]).find((item) => item.node)?.node;
  return node ? `${node.selector} "${(node.snippet ?? '').slice(0, 80)}"` : 'n/a';
}

async function runLighthouse(url, { base, session } = {}) {
  const { port, end } = await launchChromeForLighthouse();
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
      lcpElement: lcpElementOf(lhr),
      longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).map(
        (task) =>
          `${Math.round(task.startTime)}+${Math.round(task.duration)} ms ${new URL(task.url, 'http://x').pathname}`,
      ),
      metrics: {
        'First Contentful Paint': metric('first-contentful-paint'),
        'Largest Contentful Paint': metric('largest-contentful-paint'),
        'Total Blocking Time': metric('total-blocking-time'),
        'Cumulative Layout Shift': metric('cumulative-layout-shift'),
        'Speed Index': metric('speed-index'),
      },
    };
  } finally {
    await end();
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

/** A phase's or a page's failure: recorded, printed in the summary, and the run goes on. */
const failures = [];

/** Runs one phase; a failure is recorded (with what it was doing) and answers undefined. */
async function phase(name, work) {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    failures.push(`${name}: ${message}`);
    console.log(`  ${name} FAILED: ${message}`);
    return undefined;
  }
}

async function main() {
  // why: BENCH_WEB_SKIP_BUILD=1 measures the build already in apps/web/dist (while iterating).
  if (process.env.BENCH_WEB_SKIP_BUILD !== '1') build();
  // why: the markets are rows the demo seed lists; its own process group, so that stopping it
  // also ends the server start.mjs runs.
  const platform = await startPlatform({ stdout: 'ignore', env: { DEMO: 'on' }, ownGroup: true });
  const stopPlatform = owned(() => platform.stop());
  const base = platform.url;
  try {
    const firstLoad = await phase('first load', async () => {
      const browser = await launchChromium();
      const closeBrowser = owned(() => browser.close());
      return measureFirstLoad(browser, base).finally(closeBrowser);
    });
    if (firstLoad) {
      const { files, totalKb } = firstLoad;
      console.log(`\ninitial load of ${ROUTE} (JS and CSS until network idle):`);
      for (const file of files) {
        console.log(
          `  ${(file.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${(file.raw / 1024).toFixed(1).padStart(7)} KB raw  ${file.path}`,
        );
      }
      const jsGzip = files.filter((f) => f.type === 'script').reduce((sum, file) => sum + file.gzip, 0);
      console.log(
        `  total ${totalKb} KB gzip (${(jsGzip / 1024).toFixed(1)} KB JS, ${files.length} files; budget ${FIRST_LOAD_BUDGET_KB} KB)`,
      );
    }
    const floor = await phase('library floor', measureLibraryFloor);
    if (floor !== undefined) {
      console.log(
        `  the libraries alone (React, React DOM, React Router, i18next, react-i18next, TanStack Query): ${floor} KB gzip`,
      );
    }

    const session = await phase('sign-in', () => signIn(base));
    const only = process.env.BENCH_WEB_PAGES?.split(',').map((name) => name.trim());
    const pages = only ? MAIN_PAGES.filter((main) => only.includes(main.name)) : MAIN_PAGES;
    console.log('\nLighthouse (mobile: performance, accessibility) on every main page …');
    const results = [];
    for (const main of pages) {
      const url = `${base}/#${main.path}`;
      const isFirstScreen = `/#${main.path}` === ROUTE;
      if (main.signedIn && !session) {
        failures.push(`${main.path}: not measured, no session (the sign-in failed)`);
        continue;
      }
      const runs = [];
      let attempts = 0;
      const runOnce = () =>
        phase(`${main.path} (run ${++attempts})`, async () => {
          runs.push(await runLighthouse(url, { base, session: main.signedIn ? session : undefined }));
        });
      await runOnce();
      if (isFirstScreen || (runs[0] && runs[0].score < PAGE_TARGET)) while (attempts < RUNS) await runOnce();
      if (runs.length === 0) continue;
      const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
      results.push({ main, median, runs });
      const pageFailures = runs.flatMap((run) => run.a11yFailures);
      const m = median.metrics;
      console.log(
        `  ${main.path.padEnd(24)} performance ${String(median.score).padStart(3)} (${runs.map((run) => run.score).join(' ')})  accessibility ${String(Math.min(...runs.map((run) => run.a11y))).padStart(3)}  FCP ${m['First Contentful Paint']}  LCP ${m['Largest Contentful Paint']}  TBT ${m['Total Blocking Time']}  CLS ${m['Cumulative Layout Shift']}${process.env.BENCH_WEB_PAGES ? `\n    LCP element ${median.lcpElement}\n    long tasks: ${median.longTasks.join(', ') || 'none'}` : ''}${pageFailures.length ? `  failing: ${[...new Set(pageFailures)].join(', ')}` : ''}`,
      );
    }
    const markets = results.find(({ main }) => `/#${main.path}` === ROUTE)?.median;
    if (markets) {
      console.log(`\n${ROUTE} in detail (the median run):`);
      for (const [name, value] of Object.entries(markets.metrics)) console.log(`  ${name}: ${value}`);
      console.log(`  largest contentful paint element: ${markets.lcpElement}`);
      console.log(`  performance score: ${markets.score}`);
    }
    const perfMin = results.length ? Math.min(...results.map(({ median }) => median.score)) : 'n/a';
    const a11y = results.length
      ? Math.min(...results.flatMap(({ runs }) => runs.map((run) => run.a11y)))
      : 'n/a';
    if (failures.length) {
      console.log(`\n${failures.length} failure(s), the rest measured:`);
      for (const failure of failures) console.log(`  ${failure}`);
    }
    console.log(
      `web initial_kb=${firstLoad?.totalKb ?? 'n/a'} lighthouse=${markets?.score ?? 'n/a'} perf_min=${perfMin} a11y=${a11y} failures=${failures.length}`,
    );
  } finally {
    await stopPlatform();
    await stopEverything();
  }
  if (failures.length) process.exitCode = 1;
}

main().catch(async (error) => {
  console.error(error);
  await stopEverything();
  process.exit(1);
});
