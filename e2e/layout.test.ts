import fs from 'node:fs';
import path from 'node:path';
import { LOCALES } from '@bourse/i18n';
import type { PerpDepth, PerpMarket, PerpOrder } from '@bourse/shared/api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MAIN_PAGES } from '../scripts/lib/main-pages.mjs';
import { loginViaApi, newPhoneContext, type Platform } from './harness.ts';
import { callApi, lookup, SCREENS, settled, startDemoWithCustomer } from './page-helpers.ts';

/**
 * Every control and label that has to fit its own box. Inline elements have no box of their own
 * (their client width is 0) and are measured through the block that holds them.
 */
const FITTING = [
  'button',
  '[role="tab"]',
  '[role="button"]',
  'label',
  'legend',
  'dt',
  'dd',
  'h1',
  'h2',
  '.adm-button',
  '.adm-tabs-tab',
  '.adm-capsule-tabs-tab',
  '.adm-segmented-item-label',
  '.adm-nav-bar-title',
  '.adm-tab-bar-item-title',
  '.adm-list-item-content-main',
].join(', ');

/** A page of the perpetual feature, opened as the demo user who holds a position and orders. */
interface PerpPage {
  name: string;
  path: string;
  ready: string;
}

/**
 * Everything on the page wider than its box, as `element "text": scrollWidth > clientWidth`,
 * and the document itself when it scrolls sideways.
 */
function findOverflows(selector: string): string[] {
  const found: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    found.push(`the document: ${root.scrollWidth} > ${root.clientWidth}`);
  }
  for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    if (element.clientWidth === 0 || element.getClientRects().length === 0) continue;
    // why: text for screen readers only sits in a 1 px box on purpose.
    if (element.closest('.visually-hidden')) continue;
    // why: a strip that scrolls sideways on purpose (the scrolling tab bars, the interval tabs
    // over a chart, the perpetual record tabs) is wider inside than its box by design.
    const overflowX = getComputedStyle(element).overflowX;
    if (overflowX === 'auto' || overflowX === 'scroll') continue;
    // why: one pixel is allowed: antd-mobile's button draws its pressed shade (`::before`) one
    // border width past its box on every side, so every .adm-button is 1 px wider inside.
    if (element.scrollWidth > element.clientWidth + 1) {
      const name = element.dataset.testid ? `[data-testid="${element.dataset.testid}"]` : '';
      const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
      found.push(
        `${element.tagName.toLowerCase()}${name}.${element.className} "${text}": ${element.scrollWidth} > ${element.clientWidth}`,
      );
    }
  }
  return found;
}

describe('no page is wider than the phone (390 × 844, nine languages)', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let trader: { token: string; uid: number };
  let perpPages: PerpPage[];
  /** The demo user's market order (filled) and limit bid (resting). */
  let opened: PerpOrder | undefined;
  let low: PerpOrder | undefined;

  beforeAll(async () => {
    ({ platform, browser, session } = await startDemoWithCustomer('layout_user'));
    // why: the perpetual pages show their longest labels (the position's buttons, order rows with
    // trigger conditions and states) only with a position and orders, which the demo user can
    // afford; a new customer has no money there.
    trader = await loginViaApi(platform.url, 'demo', 'demo1234');
    const api = <T>(method: 'GET' | 'POST', route: string, params: Record<string, string> = {}) =>
      callApi<T>(platform.url, trader, method, route, params);
    const market = (await api<PerpMarket[]>('GET', '/Perp/markets')).find((m) => m.symbol === 'BTCUSDT')!;
    const deadline = Date.now() + 30_000;
    let depth = await api<PerpDepth>('GET', '/Perp/depth', { symbol: market.symbol });
    while (depth.asks.length === 0 || depth.bids.length === 0) {
      if (Date.now() > deadline) throw new Error('the demo maker quoted no perpetual book');
      await new Promise((resolve) => setTimeout(resolve, 250));
      depth = await api<PerpDepth>('GET', '/Perp/depth', { symbol: market.symbol });
    }
    const key = (what: string) => `e2e-layout-${what}-${Date.now()}`;
    [opened] = await api<PerpOrder[]>('POST', '/Perp/place', {
      symbol: market.symbol,
      side: 'buy',
      type: 'market',
      qty: '0.002',
      idempotency_key: key('open'),
    });
    // a limit bid far below the book rests; a take-profit waits for its trigger
    // why: a test-only whole price a little under the book (within the band), not money arithmetic
    const bid = Math.floor(Number(depth.bids.at(-1)![0]) * 0.98);
    [low] = await api<PerpOrder[]>('POST', '/Perp/place', {
      symbol: market.symbol,
      side: 'buy',
      type: 'limit',
      price: String(bid),
      qty: '0.001',
      idempotency_key: key('limit'),
    });
    await api<PerpOrder[]>('POST', '/Perp/place', {
      symbol: market.symbol,
      side: 'sell',
      type: 'take_profit_market',
      trigger_price: String(Math.floor(bid * 1.2)),
      qty: '0.001',
      reduce_only: '1',
      idempotency_key: key('tp'),
    });
    perpPages = [
      { name: 'perp-trade', path: '/Trade/trans?symbol=BTCUSDT', ready: 'perp-position' },
      { name: 'perp-orders', path: '/Trade/transbill', ready: `perp-order-${low!.id}` },
      { name: 'perp-orders-done', path: '/Trade/transbill?status=completed', ready: 'perp-orders-completed' },
      { name: 'perp-order', path: `/Trade/transinfo?id=${low!.id}`, ready: 'perp-detail-type' },
    ];
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** Opens `path` by its hash in the loaded app and waits for a `ready` element it rendered. */
  async function visit(page: Page, target: { path: string; ready: string }) {
    await page.evaluate(({ path, ready }) => {
      if (location.hash === `#${path}`) return;
      // why: the page before may have an element with the same test id; only a new one counts.
      for (const old of Array.from(document.querySelectorAll(`[data-testid="${ready}"]`))) {
        old.setAttribute('data-layout-left', '');
      }
      location.hash = path;
    }, target);
    await page
      .locator(`[data-testid="${target.ready}"]:not([data-layout-left])`)
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
  }

  /** Signs `who` in (or out, with null) and reloads, once per change of session. */
  async function useSession(page: Page, who: { token: string; uid: number } | null) {
    await page.evaluate((s) => {
      localStorage.removeItem('token');
      localStorage.removeItem('uid');
      if (s) {
        localStorage.setItem('token', s.token);
        localStorage.setItem('uid', String(s.uid));
      }
      location.hash = '/404';
    }, who);
    await page.reload();
    await page.getByTestId('not-found').waitFor({ state: 'visible', timeout: 15_000 });
  }

  // why: the locales run side by side, each in its own context of the one browser: most of a
  // page's time is waiting on its data and chunks, which overlaps well even on two cores.
  it.concurrent.for(LOCALES)('%s: every main page fits', async (locale, { expect }) => {
    const context = await newPhoneContext(browser, { locale });
    await context.addInitScript((lang) => localStorage.setItem('lang', lang), locale);
    const page = await context.newPage();
    const overflows: string[] = [];
    const measure = async (name: string) => {
      for (const found of await page.evaluate(findOverflows, FITTING))
        overflows.push(`${name} (${locale}): ${found}`);
    };
    try {
      await page.goto(`${platform.url}/#/404`);
      await page.getByTestId('not-found').waitFor({ state: 'visible', timeout: 15_000 });
      for (const main of MAIN_PAGES.filter((each) => !each.signedIn)) {
        await visit(page, main);
        await measure(main.path);
      }
      await useSession(page, session);
      for (const main of MAIN_PAGES.filter((each) => each.signedIn)) {
        await visit(page, main);
        await measure(main.path);
        // a row of shortcut tiles (deposit, withdraw, convert, bills) is one height, however
        // long a language's words are
        const heights = await page.evaluate(() =>
          Array.from(document.querySelectorAll('.wallet-actions'), (row) =>
            Array.from(row.querySelectorAll<HTMLElement>('.wallet-action'), (tile) =>
              Math.round(tile.getBoundingClientRect().height),
            ),
          ),
        );
        if (main.name === 'assets' && heights.length === 0) overflows.push(`${main.path}: no tiles found`);
        for (const row of heights) {
          if (new Set(row).size > 1) overflows.push(`${main.path} (${locale}): tiles of heights ${row}`);
        }
      }
      await useSession(page, trader);
      for (const perp of perpPages) {
        await visit(page, perp);
        await measure(perp.path);
      }
      // the resting bid's row says "open" once (its state only repeats its status); its detail
      // shows the maker rate it will pay before any fill; the market order's price is its band
      const text = (key: string) => lookup(`packages/i18n/resources/web/${locale}.json`, key);
      // (the last page above is the resting bid's detail)
      expect(await page.getByTestId('perp-detail-fee-ratio').textContent()).toContain(
        text('perp.fills.maker'),
      );
      await visit(page, { path: '/Trade/transbill', ready: `perp-order-${low!.id}` });
      expect(await page.getByTestId(`perp-order-state-${low!.id}`).count()).toBe(0);
      await visit(page, { path: `/Trade/transinfo?id=${opened!.id}`, ready: 'perp-detail-price' });
      const priceLabel = page
        .locator('dt + [data-testid="perp-detail-price"]')
        .locator('xpath=preceding-sibling::dt');
      expect(await priceLabel.textContent()).toBe(text('perp.order.bandPrice'));
      if (locale === 'de-DE') {
        await visit(page, perpPages[0]!);
        await settled(page);
        fs.mkdirSync(SCREENS, { recursive: true });
        await page.screenshot({ path: path.join(SCREENS, 'perp-trade-de-DE.png') });
      }
    } finally {
      await context.close();
    }
    expect(overflows, `wider than their box:\n${overflows.join('\n')}\n`).toEqual([]);
  });
});
