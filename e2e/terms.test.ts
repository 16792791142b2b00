import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  loginViaApi,
  newDesktopContext,
  newPhoneContext,
  type Platform,
  startPlatform,
} from './harness.ts';
import {
  adminText,
  callApi,
  enrolOwnerInBackOffice,
  input,
  phoneSignedIn,
  SCREENS,
  toastAfter,
  waitForHash,
  waitForNoToast,
  webText,
} from './page-helpers.ts';

/** Registers through the spec's call as another client would: no terms version. */
async function registerWithoutTerms(url: string, account: string): Promise<void> {
  const response = await fetch(`${url}/apiv/Login/upregister`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account, lpwd: 'secret123' }).toString(),
  });
  expect(((await response.json()) as { code: number }).code).toBe(1000);
}

const ADMIN_USER = 'owner';
const ADMIN_PASSWORD = 'Vault-Owner-7319-kestrel';

describe('terms of service on a phone', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    // the demo publishes a privacy policy, terms of service (version 1) and a whitepaper
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', ADMIN_USER, ADMIN_PASSWORD } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('registers only with the terms box ticked; its link opens the terms page', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${platform.url}/#/register`);
    await page.getByTestId('register-terms').waitFor({ state: 'visible' });
    await input(page, 'register-username').fill('e2e_terms');
    await input(page, 'register-password').fill('secret123');
    await input(page, 'register-password2').fill('secret123');
    // unticked: refused with a message, nothing sent
    expect(await toastAfter(page, () => page.getByTestId('register-submit').click())).toBe(
      webText('terms.required'),
    );
    expect(page.url()).toContain('#/register');

    // the link opens the public terms page (a new tab, so the form keeps what was typed)
    const [terms] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('register-terms-link').click(),
    ]);
    await terms.waitForLoadState();
    await terms
      .getByText('本規約は Bourse のご利用条件を定めます', { exact: false })
      .waitFor({ state: 'visible' });
    expect(terms.url()).toContain('#/Index/terms');
    await terms.close();
    expect(await input(page, 'register-username').inputValue()).toBe('e2e_terms');

    await page.getByTestId('register-terms-checkbox').check();
    await waitForNoToast(page);
    await page.screenshot({ path: path.join(SCREENS, 'register-terms.png') });
    expect(await toastAfter(page, () => page.getByTestId('register-submit').click())).toBe(
      '登録が完了しました',
    );
    await waitForHash(page, '#/login');

    // the version in force was sent and recorded: nothing left to accept
    const session = await loginViaApi(platform.url, 'e2e_terms');
    const status = await callApi<{ version: number; accepted_version: number; must_accept: boolean }>(
      platform.url,
      session,
      'GET',
      '/user/terms',
    );
    expect(status).toMatchObject({ version: 1, accepted_version: 1, must_accept: false });
    await context.close();
  });

  it('asks an account registered elsewhere to accept, lets it read meanwhile, then records the acceptance', async () => {
    await registerWithoutTerms(platform.url, 'e2e_terms_old');
    const session = await loginViaApi(platform.url, 'e2e_terms_old');
    const { context, page } = await phoneSignedIn(browser, session);
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    const sheet = page.getByTestId('terms-sheet');
    await sheet.waitFor({ state: 'visible' });
    expect(await sheet.textContent()).toContain(webText('terms.sheetTitle'));

    // "Later": reading stays open
    await page.getByTestId('terms-later').click();
    await sheet.waitFor({ state: 'detached' });
    await page.getByTestId('market-row-BTCUSDT').waitFor({ state: 'visible' });

    // the privacy policy opens from the sheet; coming back, it asks again
    await page.reload();
    await sheet.waitFor({ state: 'visible' });
    await page.getByTestId('terms-sheet-privacy').click();
    await waitForHash(page, '#/Index/privacy');
    await page
      .getByText('当社はサービスに必要な情報のみを収集します', { exact: false })
      .waitFor({ state: 'visible' });
    expect(await sheet.count()).toBe(0);
    await page.goBack();
    await sheet.waitFor({ state: 'visible' });
    await page.screenshot({ path: path.join(SCREENS, 'terms-accept-sheet.png') });

    expect(await toastAfter(page, () => page.getByTestId('terms-accept').click())).toBe(
      webText('terms.accepted'),
    );
    await sheet.waitFor({ state: 'detached' });
    const status = await callApi<{ must_accept: boolean; accepted_version: number }>(
      platform.url,
      session,
      'GET',
      '/user/terms',
    );
    expect(status).toMatchObject({ accepted_version: 1, must_accept: false });
    await page.reload();
    await page.getByTestId('market-row-BTCUSDT').waitFor({ state: 'visible' });
    expect(await sheet.count()).toBe(0);
    await context.close();
  });

  it('a new terms text published in the back office stops an order until the customer accepts it', async () => {
    const staff = await (await newDesktopContext(browser)).newPage();
    await enrolOwnerInBackOffice(staff, platform.url, ADMIN_USER, ADMIN_PASSWORD);
    await staff.goto(`${platform.url}/admin/#/content`);
    await staff
      .getByTestId('content-kind')
      .getByText(adminText('content.kind.page'), { exact: true })
      .click();
    const termsRow = staff.locator('tr.ant-table-row').filter({
      has: staff.getByText(adminText('content.termsVersion', { version: '1' }), { exact: true }),
    });
    await termsRow.locator('[data-testid^="content-edit-"]').click();
    await staff.getByTestId('content-terms-help').waitFor({ state: 'visible' });
    const body = staff.locator('[data-testid="content-body-ja-JP"]');
    await body.fill(`${await body.inputValue()}<p>12 月 1 日より手数料が改定されます。</p>`);
    await staff.getByTestId('content-save').click();
    await staff
      .getByText(adminText('content.termsVersion', { version: '2' }), { exact: true })
      .waitFor({ state: 'visible' });
    await staff.context().close();

    // the demo customer (who accepted version 1) places an order: the sheet asks for version 2
    const demo = await loginViaApi(platform.url, 'demo', 'demo1234');
    const { context, page } = await phoneSignedIn(browser, demo);
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    const sheet = page.getByTestId('terms-sheet');
    await sheet.waitFor({ state: 'visible' });
    await page.getByTestId('terms-later').click();
    await sheet.waitFor({ state: 'detached' });
    await page.goto(`${platform.url}/#/Trade/index?symbol=BTCUSDT`);
    await page
      .locator('[data-testid="spot-trade-ready"][data-symbol="BTCUSDT"]')
      .waitFor({ state: 'visible' });
    await page.getByTestId('order-available').locator('[data-value]').waitFor({ state: 'visible' });
    const tickers = await callApi<{ symbol: string; index: string }[]>(
      platform.url,
      demo,
      'GET',
      '/Market/spottickers',
    );
    const index = Number(tickers.find((t) => t.symbol === 'BTCUSDT')!.index);
    await input(page, 'order-price').fill(String(Math.floor(index * 0.95)));
    await input(page, 'order-qty').fill('0.001');
    await page.getByTestId('order-submit').click();
    await sheet.waitFor({ state: 'visible' });
    expect(await callApi(platform.url, demo, 'GET', '/Trade/openorders', { symbol: 'BTCUSDT' })).toEqual([]);

    expect(await toastAfter(page, () => page.getByTestId('terms-accept').click())).toBe(
      webText('terms.accepted'),
    );
    await sheet.waitFor({ state: 'detached' });
    // the same order goes through now
    await page.getByTestId('order-submit').click();
    await page.waitForFunction(
      async (url) => {
        const token = localStorage.getItem('token');
        const answer = await (
          await fetch(`${url}/apiv/Trade/openorders?symbol=BTCUSDT&token=${token}`)
        ).json();
        return answer.data.length === 1;
      },
      platform.url,
      { timeout: 15_000 },
    );
    await context.close();
  });
});
