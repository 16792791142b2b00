import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_KB, FIRST_SCREEN, measureFirstLoad } from '../scripts/lib/first-load.mjs';
import { seedSession } from '../scripts/lib/main-pages.mjs';
import { newPhoneContext, type Platform } from './harness.ts';
import { lookup, startDemoWithCustomer } from './page-helpers.ts';

/**
 * The markup under #root as a comparable text: each element's tag, its attributes sorted (without
 * test ids, the frame's own `data-*` markers, `inert` and React Router's `data-discover`) and its
 * text. The frame index.html paints must be this page's markup, attribute for attribute.
 */
function canonicalRoot(): string {
  const skip =
    /^(data-testid|data-discover|data-t|data-t-aria-label|data-t-placeholder|data-guest-only|data-repeat|data-boot-[a-z-]+|inert)$/;
  const walk = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (!(node instanceof Element)) return '';
    const attributes = Array.from(node.attributes)
      .filter((attribute) => !skip.test(attribute.name))
      .map((attribute) => `${attribute.name}="${attribute.value}"`)
      .sort()
      .join(' ');
    return `<${node.localName} ${attributes}>${Array.from(node.childNodes).map(walk).join('')}</${node.localName}>`;
  };
  return walk(document.getElementById('root') as Element);
}

describe('the first screen (the market list)', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };

  beforeAll(async () => {
    // why: the markets are rows the demo seed lists.
    ({ platform, browser, session } = await startDemoWithCustomer('first_load'));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it(`loads at most ${FIRST_LOAD_BUDGET_KB} KB of JS and CSS (gzip) until it is idle`, async () => {
    const { files, totalKb } = await measureFirstLoad(browser, platform.url);
    const list = files.map((file) => `${(file.gzip / 1024).toFixed(1)} KB ${file.path}`).join('\n');
    expect(totalKb, `the first screen loads ${totalKb} KB:\n${list}`).toBeLessThanOrEqual(
      FIRST_LOAD_BUDGET_KB,
    );
  });

  async function open(options: {
    locale?: string;
    signedIn?: boolean;
  }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newPhoneContext(browser);
    if (options.locale)
      await context.addInitScript((lang) => localStorage.setItem('lang', lang), options.locale);
    if (options.signedIn) await context.addInitScript(seedSession, session);
    return { context, page: await context.newPage() };
  }

  for (const [locale, signedIn] of [
    ['ja-JP', false],
    ['en-US', true],
    ['de-DE', false],
  ] as const) {
    it(`paints the page's frame from the HTML alone, and the app takes it over without a shift (${locale}, ${signedIn ? 'signed in' : 'guest'})`, async () => {
      // Without any of the app's scripts: what the HTML paints by itself.
      const bare = await open({ locale, signedIn });
      await bare.page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
      await bare.page.goto(`${platform.url}${FIRST_SCREEN}`);
      const title = bare.page.locator('[data-boot-frame] .nav-bar-title');
      await expect
        .poll(() => title.textContent())
        .toBe(lookup(`packages/i18n/resources/web/${locale}.json`, 'markets.title'));
      await expect.poll(() => bare.page.locator('[data-boot-frame]').isVisible()).toBe(true);
      const frame = await bare.page.evaluate(canonicalRoot);
      const frameBox = await bare.page.locator('.tab-bar').boundingBox();
      await bare.context.close();

      // The app, with its data held back: the page as it first renders.
      const app = await open({ locale, signedIn });
      await app.page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { shifts: number[] }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await app.page.route('**/apiv/**', () => undefined);
      await app.page.routeWebSocket(/\/ws$/, () => undefined);
      await app.page.goto(`${platform.url}${FIRST_SCREEN}`);
      await app.page.getByTestId('tab-bar').waitFor();
      expect(await app.page.locator('[data-boot-frame]').count()).toBe(0);
      expect(await app.page.evaluate(canonicalRoot)).toBe(frame);
      expect(await app.page.locator('.tab-bar').boundingBox()).toEqual(frameBox);
      expect(await app.page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
      expect(await app.page.getByTestId('welcome-register').count()).toBe(signedIn ? 0 : 1);
      await app.context.close();
    });
  }
});
