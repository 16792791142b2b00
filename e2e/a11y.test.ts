import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_PAGES, type MainPage, seedSession } from '../scripts/lib/main-pages.mjs';
import { newPhoneContext, type Platform, startPlatform } from './harness.ts';
import { newCspWatchedPage, seriousViolations, startDemoWithCustomer } from './page-helpers.ts';

describe('accessibility of every main page (axe-core, phone size)', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };

  beforeAll(async () => {
    // why: the markets are rows the demo seed lists.
    ({ platform, browser, session } = await startDemoWithCustomer('a11y_user'));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /**
   * A page opened at phone size in a fresh context, as the app loads it, watched from its first
   * script on for Content-Security-Policy reports (the page's `securitypolicyviolation` events and
   * the console's CSP errors), so one visit serves the accessibility and the CSP checks.
   */
  interface Visit {
    page: Page;
    /** The document's Content-Security-Policy header. */
    policy: string | undefined;
    /** What the browser refused under the policy: console errors and violation events. */
    refused: () => Promise<string[]>;
  }

  async function openPage(main: MainPage, options: { upDown?: string; on?: Platform } = {}): Promise<Visit> {
    const url = (options.on ?? platform).url;
    const context = await newPhoneContext(browser);
    if (options.upDown) {
      await context.addInitScript((upDown) => localStorage.setItem('updown', upDown), options.upDown);
    }
    if (main.signedIn) await context.addInitScript(seedSession, session);
    const { page, refused } = await newCspWatchedPage(context);
    const response = await page.goto(`${url}/#${main.path}`);
    await page.getByTestId(main.ready).first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => location.hash)).toBe(`#${main.path}`);
    return {
      page,
      policy: response?.headers()['content-security-policy'],
      refused,
    };
  }

  // why: one visit per page serves every check of it: axe, the page facts below and the
  // Content-Security-Policy (the CSP check runs first, before axe's script is evaluated).
  describe.each(MAIN_PAGES.map((main) => [main.path, main] as const))('%s', (_path, main) => {
    let visit: Visit;
    beforeAll(async () => {
      visit = await openPage(main);
    });
    afterAll(async () => {
      await visit?.page.context().close();
    });

    it('loads under the Content-Security-Policy with nothing refused', async () => {
      expect(visit.policy).toContain("frame-ancestors 'none'");
      expect(await visit.refused()).toEqual([]);
    });

    it('has no serious or critical violation', async () => {
      expect(await seriousViolations(visit.page)).toEqual([]);
    });

    it('allows zoom, has one h1, labels every field at 16 px or more, names every control', async () => {
      const facts = await visit.page.evaluate(() => {
        const viewport = document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? '';
        const fields = Array.from(document.querySelectorAll<HTMLInputElement>('input, select, textarea'));
        const controls = Array.from(
          document.querySelectorAll<HTMLElement>('button, a[href], [role="button"]'),
        );
        return {
          viewport,
          h1: Array.from(document.querySelectorAll('h1')).map((h) => h.textContent?.trim() ?? ''),
          smallFields: fields
            .filter((field) => Number.parseFloat(getComputedStyle(field).fontSize) < 16)
            .map((field) => field.outerHTML.slice(0, 80)),
          unlabelledFields: fields
            .filter((field) => !(field.labels?.length || field.getAttribute('aria-label')))
            .map((field) => field.outerHTML.slice(0, 80)),
          unnamedControls: controls
            .filter((control) => !(control.getAttribute('aria-label') || control.textContent?.trim()))
            .map((control) => control.outerHTML.slice(0, 80)),
        };
      });
      expect(facts.viewport).not.toMatch(/user-scalable\s*=\s*(no|0)|maximum-scale/i);
      expect(facts.h1).toHaveLength(1);
      expect(facts.h1[0]).not.toBe('');
      expect(facts.smallFields).toEqual([]);
      expect(facts.unlabelledFields).toEqual([]);
      expect(facts.unnamedControls).toEqual([]);
    });
  });

  describe('with markets that stand still, up and down', () => {
    let still: Platform;

    beforeAll(async () => {
      // why: with the market maker off nothing trades, so every row shows its index's 24h change,
      // which the feed seed fixes: under 20261122 four markets open 0.96–6.82 % up and four
      // 0.96–2.64 % down, and a minute of the walk (or of the 24h window sliding on) moves a change
      // by about 0.2 %. With trades, the change since the first print is half a spread either way
      // and a row can be up or down by chance.
      // FEED_SEED is for tests only: the platform runs as `npm start` does, so it is let through.
      still = await startPlatform({
        env: { DEMO: 'on', MARKET_MAKER: 'off', FEED_SEED: '20261122', FEED_SEED_UNSAFE: 'on' },
      });
    });
    afterAll(async () => {
      await still?.stop();
    });

    it('keeps the market list free of violations in the red-up preference too', async () => {
      const markets = MAIN_PAGES.find((main) => main.name === 'markets')!;
      const { page } = await openPage(markets, { upDown: 'red-up', on: still });
      expect(await page.evaluate(() => document.documentElement.dataset.updown)).toBe('red-up');
      // both chip colours are on screen, so both fills are measured
      expect(await page.locator('.change-chip.is-up').count()).toBe(4);
      expect(await page.locator('.change-chip.is-down').count()).toBe(4);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  });

  it('keeps live prices out of live regions, so updates never interrupt a screen reader', async () => {
    const { page } = await openPage(MAIN_PAGES.find((main) => main.name === 'markets')!);
    const firstPrice = await page.getByTestId('market-row-BTCUSDT').locator('.market-price').textContent();
    // the feed moves every second: wait for a new price before looking
    await page.waitForFunction(
      (before) =>
        document.querySelector('[data-testid="market-row-BTCUSDT"] .market-price')?.textContent !== before,
      firstPrice,
      { timeout: 15_000 },
    );
    const livePrices = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll(
          '[aria-live]:not([aria-live="off"]), [role="status"], [role="log"], [role="alert"], [role="marquee"], [role="timer"]',
        ),
      )
        .filter((region) => region.querySelector('.market-price, .change-chip'))
        .map((region) => region.outerHTML.slice(0, 80)),
    );
    expect(livePrices).toEqual([]);
    await page.context().close();
  });
});
