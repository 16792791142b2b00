import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedSession } from '../scripts/lib/main-pages.mjs';
import {
  launchChromium,
  loginViaApi,
  newPhoneContext,
  type Platform,
  registerViaApi,
  startPlatform,
} from './harness.ts';

// What the browser suites share to read the apps' texts and drive their controls.

type Tree = { [key: string]: string | Tree };
export const ROOT = path.resolve(import.meta.dirname, '..');
export const SCREENS = path.join(ROOT, 'docs/screens');

/** The text at a dotted `key` of a locale file under the repository root. */
export function lookup(file: string, key: string): string {
  let node: string | Tree = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Tree;
  for (const part of key.split('.')) node = (node as Tree)[part]!;
  if (typeof node !== 'string') throw new Error(`no text at ${key} in ${file}`);
  return node;
}

/** A customer-app text in ja-JP (the default locale), with its placeholders filled. */
export const webText = (key: string, values: Record<string, string> = {}) =>
  lookup('packages/i18n/resources/web/ja-JP.json', key).replace(/\{\{(\w+)\}\}/g, (_, name) => values[name]!);

/** A server message in ja-JP. */
export const serverText = (key: string) => lookup('packages/i18n/resources/server/ja-JP.json', key);

/** The input of a field by its test id (on the input itself or on its wrapper). */
export function input(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
}

/** Waits until the location hash is `hash`, or matches it when it is a RegExp. */
export async function waitForHash(page: Page, hash: string | RegExp) {
  await page.waitForFunction(
    (expected) =>
      expected.startsWith('^') ? new RegExp(expected).test(location.hash) : location.hash === expected,
    typeof hash === 'string' ? hash : hash.source,
    { timeout: 15_000 },
  );
}

/** Resolves once no customer-app message is on screen. */
export async function waitForNoToast(page: Page) {
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll('.adm-toast-main')).every(
        (el) => el.getClientRects().length === 0,
      ),
    null,
    { timeout: 10_000 },
  );
}

/**
 * Runs `action` once no earlier message is on screen, then returns the text of the message it
 * brings up. Waiting first matters: a message stays about two seconds, and reading too early
 * would return the previous one.
 */
export async function toastAfter(
  page: Page,
  action: () => Promise<unknown>,
  watch?: { report(): Promise<string> },
): Promise<string> {
  await waitForNoToast(page);
  await action();
  const toast = page.locator('.adm-toast-main').last();
  await toast.waitFor({ state: 'visible', timeout: 10_000 }).catch(async (error: Error) => {
    // why: with a watch, a message that never came says why (a field refused, a request unanswered).
    throw watch ? new Error(`${error.message}\n${await watch.report()}`) : error;
  });
  return ((await toast.textContent()) ?? '').trim();
}

/** Picks `name` in the open bottom sheet of choices. */
export async function pickInSheet(page: Page, name: string) {
  await page.locator('.adm-action-sheet-button-item-name', { hasText: new RegExp(`^${name}$`) }).click();
  await page.locator('.adm-action-sheet').waitFor({ state: 'hidden' });
}

/** A ja-JP grouped amount with every decimal, as the app shows it: `10000` → `10,000.00000000`. */
export function shown(amount: string, decimals = 8): string {
  const [intPart, frac = ''] = amount.split('.');
  const grouped = intPart!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return decimals ? `${grouped}.${frac.padEnd(decimals, '0').slice(0, decimals)}` : grouped;
}

/**
 * Starts the demo platform and a browser, and registers and signs in a new customer `username`
 * through the API: where the suites that open their own pages per test begin.
 */
export async function startDemoWithCustomer(username: string): Promise<{
  platform: Platform;
  browser: Browser;
  session: { token: string; uid: number };
}> {
  const [platform, browser] = await Promise.all([startPlatform({ env: { DEMO: 'on' } }), launchChromium()]);
  await registerViaApi(platform.url, username);
  const session = await loginViaApi(platform.url, username);
  return { platform, browser, session };
}

/**
 * Starts the demo platform and a browser, and opens a phone page signed in as the demo user:
 * where the phone suites begin. Screenshots go to SCREENS.
 */
export async function openDemoPhone(env: Record<string, string> = {}): Promise<{
  platform: Platform;
  browser: Browser;
  session: { token: string; uid: number };
  context: BrowserContext;
  page: Page;
}> {
  const [platform, browser] = await Promise.all([
    startPlatform({ env: { DEMO: 'on', ...env } }),
    launchChromium(),
  ]);
  const session = await loginViaApi(platform.url, 'demo', 'demo1234');
  const context = await newPhoneContext(browser);
  await context.addInitScript(seedSession, session);
  const page = await context.newPage();
  fs.mkdirSync(SCREENS, { recursive: true });
  return { platform, browser, session, context, page };
}

/**
 * Calls the customer API as `session` the way the app does (GET with a query, POST with a
 * form) and returns its `data`; any answer but success throws.
 */
export async function callApi<T>(
  url: string,
  session: { token: string },
  method: 'GET' | 'POST',
  route: string,
  params: Record<string, string> = {},
): Promise<T> {
  const query = new URLSearchParams({ ...params, token: session.token }).toString();
  const response =
    method === 'GET'
      ? await fetch(`${url}/apiv${route}?${query}`)
      : await fetch(`${url}/apiv${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: query,
        });
  const body = (await response.json()) as { code: number; data: T };
  if (body.code !== 1000) throw new Error(`${route}: ${JSON.stringify(body)}`);
  return body.data;
}

/** A back-office text in en-US (a desktop Chromium's language), with its placeholders filled. */
export const adminText = (key: string, values: Record<string, string> = {}) =>
  lookup('apps/admin/src/i18n/en-US.json', key).replace(/\{\{(\w+)\}\}/g, (_, name) => values[name]!);

/**
 * Signs the first owner in to the back office for the first time: password, then TOTP enrolment
 * with a code computed from the secret the page shows; resolves on the dashboard.
 */
export async function enrolOwnerInBackOffice(page: Page, url: string, username: string, password: string) {
  const { generate } = await import('otplib');
  await page.goto(`${url}/admin/`);
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.getByRole('button', { name: adminText('login.submit') }).click();
  await page.getByText(adminText('login.enrolTitle')).waitFor({ state: 'visible' });
  const secret = ((await page.locator('.ant-card code').textContent()) ?? '').trim();
  await page.locator('#code').fill(await generate({ secret }));
  await page.getByRole('button', { name: adminText('login.verify') }).click();
  await page.waitForFunction(() => location.hash === '#/dashboard', null, { timeout: 15_000 });
}

/**
 * Waits until nothing on the page moves (a drawer opening, a message fading), for a screenshot.
 * Animations that never end (a spinner, a pulsing status dot) are not waited for.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
        ),
    null,
    { timeout: 10_000 },
  );
}

/** A phone signed in as `member` (a session token seeded before the app loads), in a new context. */
export async function phoneSignedIn(
  browser: Browser,
  member: { token: string; uid: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newPhoneContext(browser);
  await context.addInitScript(seedSession, { token: member.token, uid: member.uid });
  return { context, page: await context.newPage() };
}

/**
 * Records what happens on a page from now on, so a step that times out can say why: `report()`
 * gives where the page is, the requests still unanswered (with how long they have waited), and in
 * order the page's navigations, failed requests, error statuses, API answers other than success,
 * and its errors.
 */
export function watchPage(page: Page): { report(): Promise<string> } {
  const started = new Map<object, { url: string; at: number }>();
  const events: string[] = [];
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/token=[^&]+/, 'token=…');
  page.on('request', (request) => started.set(request, { url: short(request.url()), at: Date.now() }));
  page.on('requestfinished', async (request) => {
    started.delete(request);
    // why: a request can finish as its test closes the page; its response is then unreadable, and
    // an unhandled rejection here failed a run whose tests had all passed.
    const response = await request.response().catch(() => null);
    const status = response?.status() ?? 0;
    if (status >= 400) events.push(`${status} ${short(request.url())}`);
  });
  page.on('requestfailed', (request) => {
    started.delete(request);
    events.push(`failed ${short(request.url())}: ${request.failure()?.errorText ?? '?'}`);
  });
  page.on('response', async (response) => {
    if (!response.url().includes('/apiv/')) return;
    const body = (await response.json().catch(() => null)) as { code?: number; msg?: string } | null;
    if (body && body.code !== 1000 && body.code !== 200)
      events.push(`code ${body.code} (${body.msg}) ${short(response.url())}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) events.push(`navigated to ${short(frame.url())}`);
  });
  page.on('pageerror', (error) => events.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') events.push(`console: ${message.text().slice(0, 200)}`);
  });
  return {
    async report() {
      const now = Date.now();
      const seen = await page
        .evaluate(() => ({
          hash: location.hash,
          controlled: navigator.serviceWorker?.controller !== null,
          signedIn: localStorage.getItem('token') !== null,
          text: document.body.innerText.slice(0, 300),
          alerts: Array.from(document.querySelectorAll('[role="alert"]'), (el) => el.textContent),
        }))
        .catch((error: Error) => ({ unreadable: error.message }));
      const pending = [...started.values()].map(({ url, at }) => `${url} (${now - at} ms)`);
      return JSON.stringify({ page: seen, pending, events: events.slice(-20) }, null, 1);
    },
  };
}

/** Waits for `text` to be visible; on a timeout the error carries `watch`'s report. */
export async function waitForText(
  page: Page,
  text: string,
  watch: { report(): Promise<string> },
): Promise<void> {
  await page
    .getByText(text)
    .first()
    .waitFor({ state: 'visible' })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await watch.report()}`);
    });
}

/** The WCAG 2.0–2.2 A and AA rules axe knows, as the accessibility suites run them. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Serious and critical axe violations on the page as it is, as `rule: selector — summary` lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_AA_TAGS).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary}`),
    );
}

/** A decimal without trailing zeros (`"0.01000000"` → `"0.01"`). */
export const plain = (text: string) =>
  text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;

/** The Content-Security-Policy refusals the browser writes to `page`'s console, as they come. */
export function cspConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (entry) => {
    if (entry.type() === 'error' && /Content Security Policy/i.test(entry.text())) errors.push(entry.text());
  });
  return errors;
}

/**
 * A new page of `context` watched for Content-Security-Policy refusals from its first script:
 * `refused()` lists the console's and the document's `securitypolicyviolation` events.
 */
export async function newCspWatchedPage(
  context: BrowserContext,
): Promise<{ page: Page; refused: () => Promise<string[]> }> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const page = await context.newPage();
  const consoleErrors = cspConsoleErrors(page);
  return {
    page,
    refused: async () => [
      ...consoleErrors,
      ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)),
    ],
  };
}
