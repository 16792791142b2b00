import path from 'node:path';
import { toAtoms } from '@bourse/shared';
import type { SpotOrder } from '@bourse/shared/api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession } from '../scripts/lib/main-pages.mjs';
import { launchChromium, loginViaApi, newPhoneContext, type Platform, startPlatform } from './harness.ts';
import { callApi, input, lookup, SCREENS, toastAfter, watchPage } from './page-helpers.ts';

const SYMBOL = 'BTCUSDT';

/**
 * A number as German and Turkish pages write it (`94.941,69`) in the plain form the API takes
 * (`94941.69`): written out here, not through the app's own reader, so the test can catch it.
 */
const dotGrouped = (text: string) => text.replaceAll('.', '').replace(',', '.');

describe('numbers typed the way the page shows them (de-DE, tr-TR), with the market maker quoting', () => {
  let platform: Platform;
  let browser: Browser;
  let customer: { token: string; uid: number };

  /** A phone page signed in as the demo customer, in `lang`, on the BTC/USDT trade page. */
  async function tradePage(lang: string): Promise<Page> {
    const context = await newPhoneContext(browser, { locale: lang });
    await context.addInitScript(seedSession, customer);
    await context.addInitScript((chosen) => localStorage.setItem('lang', chosen), lang);
    const page = await context.newPage();
    await page.goto(`${platform.url}/#/Trade/index?symbol=${SYMBOL}`);
    await page
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
    await page.getByTestId('order-available').locator('[data-value]').waitFor({ state: 'visible' });
    await page.locator('[data-testid="book-bids"] [data-price]').first().waitFor({ state: 'visible' });
    return page;
  }

  /** Sends the form and answers what it sent and the order the server placed. */
  async function submit(page: Page, lang: string): Promise<{ sent: URLSearchParams; order: SpotOrder }> {
    const watch = watchPage(page);
    const answer = page.waitForResponse((response) => response.url().endsWith('/apiv/Trade/place'));
    expect(await toastAfter(page, () => page.getByTestId('order-submit').click(), watch)).toBe(
      lookup(`packages/i18n/resources/server/${lang}.json`, 'success.ORDER_PLACED'),
    );
    const response = await answer;
    const sent = new URLSearchParams(response.request().postData() ?? '');
    const body = (await response.json()) as { code: number; data: SpotOrder };
    expect(body.code).toBe(1000);
    return { sent, order: body.data };
  }

  /** Cancels an order through the API, so the next case has the money back. */
  async function cancel(order: SpotOrder) {
    await callApi(platform.url, customer, 'POST', '/Trade/cancel', { id: order.id }).catch(() => undefined);
  }

  beforeAll(async () => {
    // why: the pasted 94.500 must lie within the price band around the index; an unseeded walk
    // starts anywhere within a day's moves of 96,500 (beyond the band for 94,500 in about one start
    // in eight). This seed's walk is at 96,543.67 when the platform starts. FEED_SEED is for tests
    // only: the platform runs as `npm start` does, so it is let through.
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', FEED_SEED: '20261129', FEED_SEED_UNSAFE: 'on' } }),
      launchChromium(),
    ]);
    customer = await loginViaApi(platform.url, 'demo', 'demo1234');
    // the maker quotes within a few feed ticks of the start
    for (let i = 0; i < 60; i++) {
      const depth = await callApi<{ bids: string[][] }>(platform.url, customer, 'GET', '/Market/depth', {
        symbol: SYMBOL,
      });
      if (depth.bids.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  for (const lang of ['de-DE', 'tr-TR']) {
    it(`${lang}: a price and a quantity typed as the book shows them are ordered exactly`, async () => {
      const page = await tradePage(lang);
      // the limit form starts at the market's price, written the page's way
      const start = await input(page, 'order-price').inputValue();
      expect(start).toMatch(/^\d{1,3}(\.\d{3})*(,\d+)?$/);

      // a bid level of the maker, read as the book shows it (grouped with dots, a decimal comma)
      // why: read in one go: the maker requotes while the page is read, and a row's text and its
      // price attribute read a moment apart could belong to two different levels.
      const level = await page
        .locator('[data-testid="book-bids"] [data-price]')
        .first()
        .evaluate((el) => ({
          price: el.querySelector('.book-price')?.textContent ?? '',
          qty: el.querySelector('.book-qty')?.textContent ?? '',
          atoms: el.getAttribute('data-price') ?? '',
        }));
      const priceText = level.price;
      const qtyText = level.qty;
      expect(priceText).toMatch(/^\d{1,3}\.\d{3}(\.\d{3})*,\d{2}$/);
      expect(toAtoms(dotGrouped(priceText))).toBe(toAtoms(level.atoms));

      await input(page, 'order-price').fill(priceText);
      await input(page, 'order-qty').fill(qtyText);
      expect(await input(page, 'order-price').inputValue()).toBe(priceText);
      expect(await page.locator('.field-error').count()).toBe(0);
      if (lang === 'tr-TR') {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SCREENS, 'spot-order-form-tr-TR.png'), fullPage: false });
      }

      const { sent, order } = await submit(page, lang);
      expect(sent.get('price')).toBe(dotGrouped(priceText));
      expect(sent.get('qty')).toBe(dotGrouped(qtyText));
      const found = await callApi<SpotOrder>(platform.url, customer, 'GET', '/Trade/billinfo', {
        id: order.id,
      });
      expect(toAtoms(found.price ?? '')).toBe(toAtoms(dotGrouped(priceText)));
      expect(toAtoms(found.qty ?? '')).toBe(toAtoms(dotGrouped(qtyText)));
      // the fee beside the form is a percentage written the locale's way
      const fee = (await page.locator('.order-figures dt').last().textContent()) ?? '';
      expect(fee).toContain(lang === 'tr-TR' ? '%0,10' : '0,10\u00a0%');
      await cancel(order);
      await page.context().close();
    });
  }

  it('de-DE: 94.500 pasted into the price is 94500, never 94.5', async () => {
    const page = await tradePage('de-DE');
    await input(page, 'order-price').fill('94.500');
    await input(page, 'order-qty').fill('0,001');
    const { sent, order } = await submit(page, 'de-DE');
    expect(sent.get('price')).toBe('94500');
    expect(toAtoms(order.price ?? '')).toBe(toAtoms('94500'));
    const found = await callApi<SpotOrder>(platform.url, customer, 'GET', '/Trade/billinfo', {
      id: order.id,
    });
    expect(toAtoms(found.price ?? '')).toBe(toAtoms('94500'));
    expect(toAtoms(found.qty ?? '')).toBe(toAtoms('0.001'));
    // once left, the field writes the number the way the page reads it
    expect(await input(page, 'order-price').inputValue()).toBe('94.500');
    await cancel(order);
    await page.context().close();
  });

  it('de-DE: a price the field cannot read is not sent, and the field says why', async () => {
    const page = await tradePage('de-DE');
    let submissions = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/apiv/Trade/place')) submissions += 1;
    });
    await input(page, 'order-price').fill('94,941.69');
    await input(page, 'order-qty').fill('0,001');
    await page.getByTestId('order-submit').click();
    const error = page.locator('.field:has(input[data-testid="order-price"]) .field-error');
    await error.waitFor({ state: 'visible' });
    expect(await error.textContent()).toBe(
      lookup('packages/i18n/resources/web/de-DE.json', 'form.number.invalid').replace(
        '{{example}}',
        '1.234,5',
      ),
    );
    expect(submissions).toBe(0);
    await page.context().close();
  });
});
