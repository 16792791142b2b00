import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession } from '../scripts/lib/main-pages.mjs';
import {
  launchChromium,
  loginViaApi,
  newDesktopContext,
  newPhoneContext,
  type Platform,
  registerViaApi,
  startPlatform,
} from './harness.ts';
import {
  input,
  lookup,
  pickInSheet,
  SCREENS,
  serverText,
  shown,
  toastAfter,
  waitForHash,
  webText,
} from './page-helpers.ts';

const ADMIN_USER = 'owner';
const ADMIN_PASSWORD = 'Vault-Owner-7319-kestrel';

/** A back-office text in en-US (a desktop Chromium's language). */
const adminText = (key: string) => lookup('apps/admin/src/i18n/en-US.json', key);

/** The texts of a back-office table row's cells. */
async function cellTexts(row: Locator): Promise<string[]> {
  return (await row.locator('td').allTextContents()).map((text) => text.trim());
}

/** Clicks a back-office menu entry and waits for its route. */
async function openMenu(page: Page, key: string, hash: string) {
  await page.getByRole('menuitem', { name: adminText(`menu.${key}`) }).click();
  await page.waitForFunction((expected) => location.hash === expected, hash, { timeout: 10_000 });
}

describe('back office reviews a new customer’s deposit and withdrawal', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let user: Page;
  let staff: Page;
  const username = `cash${String(Date.now()).slice(-8)}`;
  let depositId = '';
  let withdrawalId = '';

  async function api<T>(route: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams({ ...params, token: session.token }).toString();
    const body = (await (await fetch(`${platform.url}/apiv${route}?${query}`)).json()) as {
      code: number;
      data: T;
    };
    if (body.code !== 1000) throw new Error(`${route}: ${JSON.stringify(body)}`);
    return body.data;
  }
  const balance = () => api<{ available: string; frozen: string }>('/Finance/getmoney', { coin: 'USDT' });

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', ADMIN_USER, ADMIN_PASSWORD } }),
      launchChromium(),
    ]);
    await registerViaApi(platform.url, username, 'secret123');
    session = await loginViaApi(platform.url, username, 'secret123');
    const phone = await newPhoneContext(browser);
    await phone.addInitScript(seedSession, session);
    user = await phone.newPage();
    staff = await (await newDesktopContext(browser)).newPage();
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('the user deposits 150 USDT on TRC20 with a voucher; it waits as confirming', async () => {
    await user.goto(`${platform.url}/#/User/czpage?coin=USDT`);
    await user.getByTestId('deposit-submit').waitFor({ state: 'visible' });
    expect(await user.getByTestId('deposit-network').getAttribute('data-value')).toBe('TRC20');
    const voucher = await sharp({
      create: { width: 48, height: 48, channels: 3, background: { r: 200, g: 90, b: 40 } },
    })
      .png()
      .toBuffer();
    await input(user, 'deposit-amount').fill('150');
    await input(user, 'deposit-hash').fill('e2e-back-office-hash');
    await user
      .getByTestId('deposit-voucher')
      .setInputFiles({ name: 'voucher.png', mimeType: 'image/png', buffer: voucher });
    await user.locator('.voucher-preview').waitFor({ state: 'visible' });
    expect(await toastAfter(user, () => user.getByTestId('deposit-submit').click())).toBe(
      serverText('success.DEPOSIT_SUBMITTED'),
    );
    await waitForHash(user, '#/User/czlist');
    const list = await api<{ list: { id: string; amount: string; status: string; voucher: string }[] }>(
      '/Finance/czlist',
    );
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({ amount: '150.00000000', status: 'confirming' });
    depositId = list.list[0]!.id;
    expect(await balance()).toMatchObject({ available: '0.00000000', frozen: '0.00000000' });
  });

  it('staff sign in at /admin/ with the password, enrol TOTP from the shown key, and reach the dashboard', async () => {
    await staff.goto(`${platform.url}/admin/`);
    await staff.waitForFunction(() => location.hash === '#/login', null, { timeout: 15_000 });
    await staff.locator('#username').fill(ADMIN_USER);
    await staff.locator('#password').fill(ADMIN_PASSWORD);
    await staff.getByRole('button', { name: adminText('login.submit') }).click();
    await staff.getByText(adminText('login.enrolTitle')).waitFor({ state: 'visible' });
    expect(await staff.locator('.ant-card svg').first().isVisible()).toBe(true); // the QR code
    const secret = ((await staff.locator('.ant-card code').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // no new password asked: this owner's password came from ADMIN_PASSWORD
    expect(await staff.locator('#newPassword').count()).toBe(0);
    await staff.locator('#code').fill(await generate({ secret }));
    await staff.getByRole('button', { name: adminText('login.verify') }).click();
    await staff.waitForFunction(() => location.hash === '#/dashboard', null, { timeout: 15_000 });
    await staff.getByText(`${ADMIN_USER} · `).waitFor({ state: 'visible' });
  });

  it('staff see the deposit in the queue, with its voucher, and confirm it with the credited amount', async () => {
    await openMenu(staff, 'deposits', '#/deposits');
    const row = staff.locator('tr.ant-table-row', { hasText: username });
    await row.waitFor({ state: 'visible' });
    expect(await staff.locator('tr.ant-table-row').count()).toBe(1);
    const cells = await cellTexts(row);
    expect(cells.slice(0, 6)).toEqual([
      depositId,
      `${username} #${session.uid}`,
      'USDT',
      'TRC20',
      '150.00000000',
      'e2e-back-office-hash',
    ]);
    expect(cells[7]).toBe(adminText('review.statuses.confirming'));
    const voucher = row.locator('img.ant-image-img');
    await voucher.waitFor({ state: 'visible' });
    await staff.waitForFunction(
      () => (document.querySelector('tr.ant-table-row img') as HTMLImageElement | null)?.complete,
    );
    expect(await voucher.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    expect(await voucher.getAttribute('src')).toMatch(/^\/Upload\/public\/[\w-]+\.(png|webp|jpe?g)$/);
    await staff.mouse.move(0, 0);
    // the picture shows the settled page: no loading veil, no fade still running
    await staff.waitForFunction(
      () =>
        !document.querySelector('.ant-spin-blur, .ant-spin-spinning') &&
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      null,
      { timeout: 10_000 },
    );
    await staff.screenshot({ path: path.join(SCREENS, 'admin-deposits.png') });

    await row.getByRole('button', { name: adminText('review.confirm') }).click();
    const dialog = staff.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('#amount').inputValue()).toBe('150.00000000');
    await dialog.getByRole('button', { name: adminText('common.submit') }).click();
    await staff
      .locator('.ant-message-notice', { hasText: adminText('review.done') })
      .waitFor({ state: 'visible' });
    await dialog.waitFor({ state: 'hidden' });
    // it leaves the pending queue
    await row.waitFor({ state: 'detached' });
  });

  it('the user reloads the assets tab and sees 150 USDT', async () => {
    await user.goto(`${platform.url}/#/User/index`);
    await user.reload();
    const amount = user.getByTestId('asset-row-USDT').locator('.wallet-row-amount');
    await amount.waitFor({ state: 'visible' });
    expect(await amount.textContent()).toBe(shown('150'));
    expect(await balance()).toEqual(
      expect.objectContaining({ available: '150.00000000', frozen: '0.00000000' }),
    );
  });

  it('the user sets a withdrawal password, adds a TRC20 address and withdraws 50 USDT (51 frozen)', async () => {
    await user.getByTestId('assets-withdraw').click();
    await waitForHash(user, '#/Index/withdrawpwd');
    await input(user, 'withdrawpwd-new').fill('pay-5678');
    await input(user, 'withdrawpwd-confirm').fill('pay-5678');
    expect(await toastAfter(user, () => user.getByTestId('withdrawpwd-submit').click())).toBe(
      serverText('success.WITHDRAW_PASSWORD_SET'),
    );
    await user.waitForFunction(() => location.hash !== '#/Index/withdrawpwd', null, { timeout: 10_000 });
    expect(await user.evaluate(() => location.hash)).toBe('#/User/index');

    // the withdrawal entry now asks for a saved address first
    await user.goto(`${platform.url}/#/User/txcoin`);
    await waitForHash(user, '#/User/addresslist');
    await user.getByTestId('address-add').click();
    await waitForHash(user, '#/User/plusaddress');
    await user.getByTestId('address-coin').click();
    await pickInSheet(user, 'USDT');
    await user.getByTestId('address-network').click();
    await pickInSheet(user, 'TRC20');
    const destination = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
    await input(user, 'address-input').fill(destination);
    await input(user, 'address-remark').fill('exchange');
    expect(await toastAfter(user, () => user.getByTestId('address-submit').click())).toBe(
      serverText('success.ADDRESS_ADDED'),
    );
    await waitForHash(user, '#/User/addresslist');

    await user.goto(`${platform.url}/#/User/txpage?coin=USDT`);
    await user.getByTestId('withdraw-submit').waitFor({ state: 'visible' });
    expect(await user.getByTestId('withdraw-available').textContent()).toBe(`${shown('150')} USDT`);
    await input(user, 'withdraw-amount').fill('50');
    await input(user, 'withdraw-password').fill('pay-5678');
    expect(await user.getByTestId('withdraw-total').textContent()).toBe(`${shown('51')} USDT`);
    await user.getByTestId('withdraw-submit').click();
    const confirm = user.getByTestId('withdraw-confirm');
    await confirm.waitFor({ state: 'visible' });
    expect(await toastAfter(user, () => confirm.click())).toBe(serverText('success.WITHDRAWAL_SUBMITTED'));
    await waitForHash(user, '#/User/txlist');
    const list = await api<{ list: { id: string; status: string; destination: string }[] }>(
      '/Finance/txlist',
    );
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({ status: 'review', destination });
    withdrawalId = list.list[0]!.id;
    expect(await balance()).toMatchObject({ available: '99.00000000', frozen: '51.00000000' });
  });

  it('staff reject the withdrawal with a reason; the user’s balance returns to exactly 150', async () => {
    await openMenu(staff, 'withdrawals', '#/withdrawals');
    const row = staff.locator('tr.ant-table-row', { hasText: username });
    await row.waitFor({ state: 'visible' });
    const cells = await cellTexts(row);
    expect(cells.slice(0, 8)).toEqual([
      withdrawalId,
      `${username} #${session.uid}`,
      'USDT',
      'TRC20',
      '50.00000000',
      '1.00000000',
      'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
      adminText('review.statuses.review'),
    ]);
    await row.getByRole('button', { name: adminText('review.reject') }).click();
    const dialog = staff.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('#amount').count()).toBe(0);
    await dialog.locator('#reason').fill('Address failed screening');
    await dialog.getByRole('button', { name: adminText('common.submit') }).click();
    await staff
      .locator('.ant-message-notice', { hasText: adminText('review.done') })
      .waitFor({ state: 'visible' });
    await row.waitFor({ state: 'detached' });

    expect(await balance()).toMatchObject({ available: '150.00000000', frozen: '0.00000000' });
    const withdrawal = await api<{ status: string; reason: string }>('/Finance/txinfo', { id: withdrawalId });
    expect(withdrawal).toMatchObject({ status: 'rejected', reason: 'Address failed screening' });
  });

  it('the bills list every movement: the credit, the freeze and its return', async () => {
    const bills = await api<{
      list: { id: string; type: string; coin: string; kind: string; amount: string; balance_after: string }[];
    }>('/user/mybill');
    // newest first: one line per posting on the user's own accounts, so the freeze and its
    // return are two lines each (available ↔ frozen); within an entry the ledger posts in
    // account-key order (available before frozen), and the list runs backwards
    expect(
      bills.list.map(({ type, coin, kind, amount, balance_after }) => [
        type,
        coin,
        kind,
        amount,
        balance_after,
      ]),
    ).toEqual([
      ['withdrawal.reject', 'USDT', 'frozen', '-51.00000000', '0.00000000'],
      ['withdrawal.reject', 'USDT', 'available', '51.00000000', '150.00000000'],
      ['withdrawal.freeze', 'USDT', 'frozen', '51.00000000', '51.00000000'],
      ['withdrawal.freeze', 'USDT', 'available', '-51.00000000', '99.00000000'],
      ['deposit.credit', 'USDT', 'available', '150.00000000', '150.00000000'],
      // no trial grant: trial money waits for a verified identity (docs/trial-money.md)
    ]);

    await user.goto(`${platform.url}/#/User/mybill`);
    await user.getByTestId('bill-list').waitFor({ state: 'visible' });
    const rows = user.locator('[data-testid^="bill-row-"]');
    expect(await rows.count()).toBe(5);
    const deposit = webText('wallet.bills.types.deposit');
    const withdrawal = webText('wallet.bills.types.withdrawal');
    const available = webText('wallet.fields.available');
    const frozen = webText('wallet.fields.frozen');
    const expected = [
      [withdrawal, frozen, '-51.00000000', '0.00000000'],
      [withdrawal, available, '+51.00000000', '150.00000000'],
      [withdrawal, frozen, '+51.00000000', '51.00000000'],
      [withdrawal, available, '-51.00000000', '99.00000000'],
      [deposit, available, '+150.00000000', '150.00000000'],
    ];
    for (const [index, [type, kind, amount, after]] of expected.entries()) {
      const row = rows.nth(index);
      expect(await row.getAttribute('data-testid')).toBe(`bill-row-${bills.list[index]!.id}`);
      expect(await row.locator('.item-row-title').textContent()).toBe(`${type} · USDT`);
      expect(((await row.locator('.item-row-sub').first().textContent()) ?? '').split(' · ')[0]).toBe(kind);
      expect(await row.locator('.wallet-row-amount').textContent()).toBe(amount);
      expect(await row.locator('.wallet-row-end .item-row-sub').textContent()).toBe(
        `${webText('wallet.bills.balanceAfter')} ${after}`,
      );
    }
  });

  it('the audit log lists the confirm and the reject, by this staff member', async () => {
    await openMenu(staff, 'audit', '#/audit');
    const confirmRow = staff.locator('tr.ant-table-row', { hasText: `deposit:${depositId}` });
    await confirmRow.waitFor({ state: 'visible' });
    const confirmCells = await cellTexts(confirmRow);
    expect(confirmCells.slice(2, 6)).toEqual(['staff:1', 'deposit.confirm', `deposit:${depositId}`, '']);
    // the audit trail keeps exact amounts as decimal strings with 8 decimals
    expect(confirmCells[6]).toBe('{"status":"confirming","amount":"150.00000000"}');
    expect(confirmCells[7]).toBe('{"status":"credited","credited_amount":"150.00000000"}');

    const rejectCells = await cellTexts(
      staff.locator('tr.ant-table-row', { hasText: `withdrawal:${withdrawalId}` }),
    );
    expect(rejectCells.slice(2, 6)).toEqual([
      'staff:1',
      'withdrawal.reject',
      `withdrawal:${withdrawalId}`,
      'Address failed screening',
    ]);
    expect(rejectCells[7]).toBe('{"status":"rejected"}');
  });
});
