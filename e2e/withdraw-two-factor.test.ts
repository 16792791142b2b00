import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from './harness.ts';
import {
  callApi,
  input,
  openDemoPhone,
  SCREENS,
  serverText,
  toastAfter,
  waitForHash,
  waitForNoToast,
  webText,
} from './page-helpers.ts';

describe('withdrawing with two-factor codes on, at phone size (demo user)', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let page: Page;

  const api = <T>(method: 'GET' | 'POST', route: string, params: Record<string, string> = {}) =>
    callApi<T>(platform.url, session, method, route, params);

  beforeAll(async () => {
    ({ platform, browser, session, page } = await openDemoPhone());
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('enrols a code in the security centre; the withdrawal then asks for one in a sheet and goes through with it', async () => {
    // the wallet suite drives these two pages; here they are only the way in
    await api('POST', '/User/sub_withdrawpwd', { paypassword: 'pay-1234', repaypassword: 'pay-1234' });
    await api('POST', '/user/addaddress', {
      coin: 'USDT',
      network: 'TRC20',
      address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
    });

    await page.goto(`${platform.url}/#/Index/totp`);
    await page.getByTestId('totp-start').click();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    await input(page, 'totp-code').fill(await generate({ secret }));
    await page.getByTestId('totp-enable').click();
    await page.getByTestId('totp-backup-codes').waitFor();

    await page.goto(`${platform.url}/#/User/txpage?coin=USDT`);
    await page.getByTestId('withdraw-submit').waitFor({ state: 'visible' });
    await input(page, 'withdraw-amount').fill('100');
    await input(page, 'withdraw-password').fill('pay-1234');
    await page.getByTestId('withdraw-submit').click();
    const confirm = page.getByTestId('withdraw-confirm');
    await confirm.waitFor({ state: 'visible' });
    await confirm.click();

    // the page knows codes are on: the code step comes before anything is sent
    const sheet = page.getByTestId('withdraw-totp');
    await sheet.waitFor({ state: 'visible' });
    expect(await sheet.locator('h2').textContent()).toBe(webText('common.secondFactor.title'));
    const code = input(page, 'withdraw-totp-code');
    await code.waitFor({ state: 'visible' });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'withdraw-totp-code',
    );
    await waitForNoToast(page);
    await page.screenshot({ path: path.join(SCREENS, 'withdraw-two-factor.png') });

    // the form checks the shape; a wrong code is refused by the server and nothing moves
    await page.getByTestId('withdraw-totp-submit').click();
    expect(await sheet.locator('.field-error').textContent()).toBe(webText('common.secondFactor.required'));
    // the sheet's submit stays in the sheet (it is portalled, but React bubbles it to the page's form)
    expect(await confirm.isVisible()).toBe(false);
    expect(await toastAfter(page, () => code.fill('000000'))).toBe(serverText('errors.TOTP_WRONG'));
    await sheet.locator('.field-error').waitFor({ state: 'visible' });
    expect(await sheet.locator('.field-error').textContent()).toBe(serverText('errors.TOTP_WRONG'));
    expect(await code.inputValue()).toBe('');
    expect((await api<{ list: unknown[] }>('GET', '/Finance/txlist')).list).toHaveLength(0);

    // the code of the next time step (the current one was spent turning codes on): six digits send at once
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect(await toastAfter(page, () => code.fill(next))).toBe(serverText('success.WITHDRAWAL_SUBMITTED'));
    await waitForHash(page, '#/User/txlist');
    const withdrawals = await api<{ list: { amount: string; fee: string; status: string }[] }>(
      'GET',
      '/Finance/txlist',
    );
    expect(withdrawals.list).toEqual([
      expect.objectContaining({ amount: '100.00000000', fee: '1.00000000', status: 'review' }),
    ]);
  });
});
