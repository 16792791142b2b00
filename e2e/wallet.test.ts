import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from './harness.ts';
import {
  callApi,
  input,
  openDemoPhone,
  pickInSheet,
  SCREENS,
  serverText,
  shown,
  toastAfter,
  waitForHash,
  waitForNoToast,
  webText,
} from './page-helpers.ts';

describe('wallet at phone size (demo user)', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let page: Page;

  const api = <T>(method: 'GET' | 'POST', route: string, params: Record<string, string> = {}) =>
    callApi<T>(platform.url, session, method, route, params);

  beforeAll(async () => {
    let context: BrowserContext;
    ({ platform, browser, session, context, page } = await openDemoPhone());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shows the demo balances on the assets tab, reached from the user tab', async () => {
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('menu-assets').click();
    await waitForHash(page, '#/User/index');
    await page.getByTestId('asset-row-USDT').waitFor({ state: 'visible' });
    // the tab bar stays, with "Me" marked as the section the page belongs to
    expect(await page.getByTestId('tab-user').getAttribute('class')).toContain('is-active');

    const overview = await api<{ total_usdt: string; coins: { coin: string; total: string }[] }>(
      'GET',
      '/Finance/index',
    );
    const byCoin = new Map(overview.coins.map((row) => [row.coin, row.total]));
    expect(byCoin.get('USDT')).toBe('10000.00000000');
    expect(byCoin.get('BTC')).toBe('0.50000000');
    expect(byCoin.get('ETH')).toBe('5.00000000');
    for (const [coin, amount] of [
      ['USDT', '10000'],
      ['BTC', '0.5'],
      ['ETH', '5'],
    ] as const) {
      expect(await page.getByTestId(`asset-row-${coin}`).locator('.wallet-row-amount').textContent()).toBe(
        shown(amount),
      );
    }
    const total = (await page.getByTestId('assets-total').textContent()) ?? '';
    // 10,000 USDT plus 0.5 BTC and 5 ETH at their index prices: a figure above 10,000, 8 decimals
    expect(total).toMatch(/^\d{1,3}(,\d{3})+\.\d{8}$/);
    expect(Number(total.replaceAll(',', ''))).toBeGreaterThan(10_000);
    await page.screenshot({ path: path.join(SCREENS, 'wallet-assets.png') });
  });

  it('deposits with a voucher image: minimum shown first, then listed as confirming', async () => {
    await page.getByTestId('assets-deposit').click();
    await waitForHash(page, '#/User/czcoin');
    await page.getByTestId('deposit-coin-USDT').click();
    await waitForHash(page, '#/User/czpage?coin=USDT');

    const deposit = await api<{ networks: { network: string; address: string; min_deposit: string }[] }>(
      'GET',
      '/Finance/czpage',
      { coin: 'USDT' },
    );
    const trc20 = deposit.networks.find((n) => n.network === 'TRC20')!;
    expect(await page.getByTestId('deposit-network').getAttribute('data-value')).toBe('TRC20');
    expect(await page.getByTestId('deposit-address').textContent()).toBe(trc20.address);
    expect(await page.getByTestId('deposit-minimum').textContent()).toBe(
      webText('wallet.deposit.warning', { coin: 'USDT', network: 'TRC20', min: '10' }),
    );
    expect(await page.locator('.address-qr svg').count()).toBe(1);
    expect(await toastAfter(page, () => page.getByTestId('copy-address').click())).toBe(
      webText('common.copied'),
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(trc20.address);

    // the amount field refuses a ninth decimal and a second point, keystroke by keystroke
    const amount = input(page, 'deposit-amount');
    await amount.pressSequentially('1.123456789');
    expect(await amount.inputValue()).toBe('1.12345678');
    await amount.pressSequentially('.');
    expect(await amount.inputValue()).toBe('1.12345678');

    // below the minimum, and without a voucher, nothing is sent: both fields say why
    let submissions = 0;
    page.on('request', (request) => {
      if (request.url().includes('/Finance/czhandle')) submissions += 1;
    });
    await amount.fill('5');
    await page.getByTestId('deposit-submit').click();
    const errors = page.locator('.field-error');
    await errors.first().waitFor({ state: 'visible' });
    expect(await errors.allTextContents()).toEqual([
      webText('form.errors.AMOUNT_BELOW_MIN'),
      webText('form.errors.VOUCHER_REQUIRED'),
    ]);
    expect(submissions).toBe(0);

    const voucher = await sharp({
      create: { width: 48, height: 48, channels: 3, background: { r: 40, g: 120, b: 220 } },
    })
      .png()
      .toBuffer();
    await amount.fill('150');
    await input(page, 'deposit-hash').fill('e2e-deposit-hash-1');
    await page
      .getByTestId('deposit-voucher')
      .setInputFiles({ name: 'voucher.png', mimeType: 'image/png', buffer: voucher });
    await page.locator('.voucher-preview').waitFor({ state: 'visible' });
    expect(await page.locator('.field-error').count()).toBe(0);
    await waitForNoToast(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENS, 'wallet-deposit.png') });

    expect(await toastAfter(page, () => page.getByTestId('deposit-submit').click())).toBe(
      serverText('success.DEPOSIT_SUBMITTED'),
    );
    expect(submissions).toBe(1);
    await waitForHash(page, '#/User/czlist');
    const list = await api<{
      list: { id: string; amount: string; status: string; hash: string; voucher: string }[];
    }>('GET', '/Finance/czlist');
    expect(list.list).toHaveLength(1);
    const record = list.list[0]!;
    expect(record).toMatchObject({
      amount: '150.00000000',
      status: 'confirming',
      hash: 'e2e-deposit-hash-1',
    });
    expect(record.voucher).toMatch(/^\/Upload\/public\//);
    const status = page.getByTestId(`deposit-status-${record.id}`);
    expect(await status.getAttribute('data-status')).toBe('confirming');
    expect(await status.textContent()).toBe(webText('wallet.status.confirming'));

    // the detail shows the voucher the server stored
    await page.getByTestId(`deposit-row-${record.id}`).click();
    await waitForHash(page, `#/User/czinfo?id=${record.id}`);
    expect(await page.getByTestId('deposit-status').getAttribute('data-status')).toBe('confirming');
    const image = page.locator('img.detail-voucher');
    await image.waitFor({ state: 'visible' });
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
  });

  it('sets a withdrawal password, adds an address, withdraws, and lists it as under review', async () => {
    await page.goto(`${platform.url}/#/User/index`);
    await page.getByTestId('assets-withdraw').click();
    // the spec's guard: a withdrawal password first …
    await waitForHash(page, '#/Index/withdrawpwd');
    await input(page, 'withdrawpwd-new').fill('pay-1234');
    await input(page, 'withdrawpwd-confirm').fill('pay-1234');
    expect(await toastAfter(page, () => page.getByTestId('withdrawpwd-submit').click())).toBe(
      serverText('success.WITHDRAW_PASSWORD_SET'),
    );
    // the password page goes back where the user came from (the guard replaced the entry)
    await waitForHash(page, '#/User/index');
    await page.goto(`${platform.url}/#/User/txcoin`);
    // … then a saved address
    await waitForHash(page, '#/User/addresslist');
    await page.getByTestId('empty-state').waitFor({ state: 'visible' });
    await page.getByTestId('address-add').click();
    await waitForHash(page, '#/User/plusaddress');
    await page.getByTestId('address-coin').click();
    await pickInSheet(page, 'USDT');
    await page.getByTestId('address-network').click();
    await pickInSheet(page, 'TRC20');
    const destination = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
    await input(page, 'address-input').fill(destination);
    await input(page, 'address-remark').fill('cold wallet');
    expect(await toastAfter(page, () => page.getByTestId('address-submit').click())).toBe(
      serverText('success.ADDRESS_ADDED'),
    );
    await waitForHash(page, '#/User/addresslist');
    const saved = await api<{ id: string; address: string; network: string }[]>('GET', '/user/addresslist');
    expect(saved).toEqual([expect.objectContaining({ address: destination, network: 'TRC20' })]);
    await page.getByTestId(`address-row-${saved[0]!.id}`).waitFor({ state: 'visible' });

    // now the entry lets the user through to the coins, then the form
    await page.goto(`${platform.url}/#/User/txcoin`);
    await page.getByTestId('withdraw-coin-USDT').click();
    await waitForHash(page, '#/User/txpage?coin=USDT');
    await page.getByTestId('withdraw-submit').waitFor({ state: 'visible' });
    expect(await page.getByTestId('withdraw-destination').getAttribute('data-value')).toBe(saved[0]!.id);
    expect(await page.getByTestId('withdraw-available').textContent()).toBe(`${shown('10000')} USDT`);
    expect(await page.getByTestId('withdraw-fee').textContent()).toBe(`${shown('1')} USDT`);

    // above the balance is refused in the form; the figures follow the amount
    await input(page, 'withdraw-amount').fill('10000');
    await input(page, 'withdraw-password').fill('pay-1234');
    await page.getByTestId('withdraw-submit').click();
    await page.locator('.field-error').first().waitFor({ state: 'visible' });
    expect(await page.locator('.field-error').allTextContents()).toEqual([
      webText('form.errors.BALANCE_INSUFFICIENT'),
    ]);
    await input(page, 'withdraw-amount').fill('100');
    expect(await page.getByTestId('withdraw-arrival').textContent()).toBe(`${shown('100')} USDT`);
    expect(await page.getByTestId('withdraw-total').textContent()).toBe(`${shown('101')} USDT`);
    await waitForNoToast(page);
    await input(page, 'withdraw-amount').blur();
    await page.screenshot({ path: path.join(SCREENS, 'wallet-withdraw.png') });

    await page.getByTestId('withdraw-submit').click();
    const confirm = page.getByTestId('withdraw-confirm');
    await confirm.waitFor({ state: 'visible' });
    expect(await toastAfter(page, () => confirm.click())).toBe(serverText('success.WITHDRAWAL_SUBMITTED'));
    await waitForHash(page, '#/User/txlist');

    const withdrawals = await api<{ list: { id: string; amount: string; fee: string; status: string }[] }>(
      'GET',
      '/Finance/txlist',
    );
    expect(withdrawals.list).toHaveLength(1);
    const record = withdrawals.list[0]!;
    expect(record).toMatchObject({ amount: '100.00000000', fee: '1.00000000', status: 'review' });
    const status = page.getByTestId(`withdrawal-status-${record.id}`);
    await status.waitFor({ state: 'visible' });
    expect(await status.getAttribute('data-status')).toBe('review');
    expect(await status.textContent()).toBe(webText('wallet.status.review'));
    // amount and fee are frozen until staff review it
    const balance = await api<{ available: string; frozen: string }>('GET', '/Finance/getmoney', {
      coin: 'USDT',
    });
    expect(balance).toMatchObject({ available: '9899.00000000', frozen: '101.00000000' });
  });
});
