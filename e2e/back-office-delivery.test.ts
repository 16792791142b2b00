import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AdminDeliveryProduct } from '@bourse/shared/api';
import { generate } from 'otplib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  loginViaApi,
  newDesktopContext,
  type Platform,
  registerViaApi,
  startPlatform,
  submitIdentityViaApi,
} from './harness.ts';
import { lookup, SCREENS } from './page-helpers.ts';

const ADMIN_USER = 'owner';
const ADMIN_PASSWORD = 'Vault-Owner-7319-kestrel';

/** A back-office text in en-US (a desktop Chromium's language), with its placeholders filled. */
const adminText = (key: string, values: Record<string, string> = {}) =>
  lookup('apps/admin/src/i18n/en-US.json', key).replace(/\{\{(\w+)\}\}/g, (_, name) => values[name]!);

async function cellTexts(row: Locator): Promise<string[]> {
  return (await row.locator('td').allTextContents()).map((text) => text.trim());
}

describe('back office: delivery contracts (desktop, demo markets)', () => {
  let platform: Platform;
  let browser: Browser;
  let staff: Page;
  const trader = `dlv${String(Date.now()).slice(-8)}`;

  /** The back office's API as the signed-in staff member (the page's own token). */
  async function adminApi<T>(route: string): Promise<T> {
    const token = await staff.evaluate(() => sessionStorage.getItem('bourse.admin.token'));
    const response = await fetch(`${platform.url}/admin-api${route}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { code: number; data: T };
    if (body.code !== 1000) throw new Error(`${route}: ${JSON.stringify(body)}`);
    return body.data;
  }

  /** A POST to the back office's API as the signed-in staff member; answers the whole envelope. */
  async function adminPost(route: string, payload: Record<string, unknown>) {
    const token = await staff.evaluate(() => sessionStorage.getItem('bourse.admin.token'));
    const response = await fetch(`${platform.url}/admin-api${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', Lang: 'en-us' },
      body: JSON.stringify(payload),
    });
    return (await response.json()) as { code: number; msg: string };
  }

  const productRow = (symbol: string) =>
    staff
      .locator('tr.ant-table-row')
      .filter({ has: staff.locator('td', { hasText: new RegExp(`^${symbol}$`) }) });
  const tab = (key: string) => staff.getByRole('tab', { name: adminText(`delivery.tabs.${key}`) });

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', ADMIN_USER, ADMIN_PASSWORD } }),
      launchChromium(),
    ]);
    staff = await (await newDesktopContext(browser)).newPage();
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('the owner signs in with TOTP and opens the delivery page: every demo market with its periods', async () => {
    await staff.goto(`${platform.url}/admin/`);
    await staff.locator('#username').fill(ADMIN_USER);
    await staff.locator('#password').fill(ADMIN_PASSWORD);
    await staff.getByRole('button', { name: adminText('login.submit') }).click();
    await staff.getByText(adminText('login.enrolTitle')).waitFor({ state: 'visible' });
    const secret = ((await staff.locator('.ant-card code').textContent()) ?? '').trim();
    await staff.locator('#code').fill(await generate({ secret }));
    await staff.getByRole('button', { name: adminText('login.verify') }).click();
    await staff.waitForFunction(() => location.hash === '#/dashboard', null, { timeout: 15_000 });

    // the dashboard shows what /readyz reports: with the feed running, every check is ok
    const health = staff.locator('.ant-card', { hasText: adminText('dashboard.health') });
    for (const name of ['database', 'bus', 'feed', 'ledger', 'markets']) {
      const check = health
        .locator('tr', { hasText: adminText(`dashboard.checks.${name}`) })
        .locator('.ant-tag');
      await expect
        .poll(() => check.textContent(), { timeout: 10_000 })
        .toBe(adminText('dashboard.healthStatus.ok'));
    }
    await health.screenshot({ path: path.join(SCREENS, 'admin-dashboard-health.png') });

    await staff.getByRole('menuitem', { name: adminText('menu.delivery') }).click();
    await staff.waitForFunction(() => location.hash === '#/delivery', null, { timeout: 10_000 });
    const row = productRow('BTCUSDT');
    await row.waitFor({ state: 'visible' });
    const cells = await cellTexts(row);
    expect(cells.slice(0, 4)).toEqual([
      'BTCUSDT',
      adminText('delivery.yes'),
      adminText('delivery.productStatuses.open'),
      '100000.00000000',
    ]);
    expect(await row.locator('td').nth(4).locator('span').allTextContents()).toEqual([
      '60 s · 0.80 · 10–10000',
      '180 s · 0.85 · 10–10000',
      '300 s · 0.90 · 10–10000',
      '900 s · 0.95 · 10–10000',
    ]);
  });

  it('edits BTCUSDT’s first ratio: a bad value is refused in the form, 0.83 is saved and shown', async () => {
    await productRow('BTCUSDT')
      .getByRole('button', { name: adminText('delivery.edit') })
      .click();
    const drawer = staff.getByRole('dialog');
    await drawer
      .getByText(adminText('delivery.editTitle', { symbol: 'BTCUSDT' }))
      .waitFor({ state: 'visible' });
    const ratio = drawer.locator('[id="periods.0.ratio"]');
    expect(await ratio.inputValue()).toBe('0.80');
    expect(await drawer.locator('[id^="periods."][id$=".ratio"]').count()).toBe(4);

    await ratio.fill('12');
    await ratio.blur();
    await drawer.getByText(adminText('delivery.ratioRule')).waitFor({ state: 'visible' });
    await drawer.getByRole('button', { name: adminText('delivery.save') }).click();
    // refused before it is sent: the drawer stays and the product is unchanged
    expect(await drawer.isVisible()).toBe(true);
    const before = await adminApi<AdminDeliveryProduct[]>('/delivery/products');
    expect(before.find((p) => p.symbol === 'BTCUSDT')?.periods[0]?.ratio).toBe('0.80');

    await ratio.fill('0.83');
    await drawer.getByRole('button', { name: adminText('delivery.save') }).click();
    await staff
      .locator('.ant-message-notice', { hasText: adminText('common.saved') })
      .waitFor({ state: 'visible' });
    await drawer.waitFor({ state: 'hidden' });
    await productRow('BTCUSDT').getByText('60 s · 0.83 · 10–10000').waitFor({ state: 'visible' });

    const products = await adminApi<AdminDeliveryProduct[]>('/delivery/products');
    expect(products.find((p) => p.symbol === 'BTCUSDT')?.periods).toEqual([
      { seconds: 60, ratio: '0.83', min: '10.00000000', max: '10000.00000000' },
      { seconds: 180, ratio: '0.85', min: '10.00000000', max: '10000.00000000' },
      { seconds: 300, ratio: '0.90', min: '10.00000000', max: '10000.00000000' },
      { seconds: 900, ratio: '0.95', min: '10.00000000', max: '10000.00000000' },
    ]);
    // other markets keep their ratios
    for (const product of products.filter((p) => p.symbol !== 'BTCUSDT')) {
      expect(product.periods[0]?.ratio).toBe('0.80');
    }
  });

  it('the audit log has the save, by this owner, on delivery:BTCUSDT', async () => {
    await staff.getByRole('menuitem', { name: adminText('menu.audit') }).click();
    const row = staff.locator('tr.ant-table-row', { hasText: 'delivery.product.save' });
    await row.waitFor({ state: 'visible' });
    expect(await row.count()).toBe(1);
    expect((await cellTexts(row)).slice(2, 5)).toEqual([
      'staff:1',
      'delivery.product.save',
      'delivery:BTCUSDT',
    ]);
  });

  it('a contract placed afterwards carries the new ratio; the contracts tab shows it read only', async () => {
    await registerViaApi(platform.url, trader);
    const session = await loginViaApi(platform.url, trader);
    // why: trial money waits for a verified identity (docs/trial-money.md): the trader submits
    // one and staff approve it, which grants the sign-up plan.
    await submitIdentityViaApi(platform.url, session, `E2E${trader}`);
    const queue = await adminApi<{ list: { id: string; userId: number }[] }>('/identity');
    const submission = queue.list.find((row) => row.userId === session.uid);
    expect(
      (await adminPost(`/identity/${submission?.id}/approve`, { idno: `E2E${trader}`, country: 'JP' })).code,
    ).toBe(1000);
    // why: a contract needs a fresh index price; the demo feed may take a moment to start.
    let placed = false;
    for (let attempt = 0; attempt < 60 && !placed; attempt += 1) {
      const response = await fetch(`${platform.url}/apiv/Contract/place`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          symbol: 'BTCUSDT',
          direction: 'up',
          period: '60',
          amount: '50',
          trial: '1',
          idempotency_key: randomUUID(),
          token: session.token,
        }).toString(),
      });
      placed = ((await response.json()) as { code: number }).code === 1000;
      if (!placed) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(placed).toBe(true);

    await staff.getByRole('menuitem', { name: adminText('menu.delivery') }).click();
    await tab('exposure').click();
    const up = staff
      .locator('tr.ant-table-row')
      .filter({ has: staff.locator('td', { hasText: /^BTCUSDT$/ }) })
      .filter({
        has: staff.locator('td', { hasText: new RegExp(`^${adminText('delivery.directions.up')}$`) }),
      });
    await up.waitFor({ state: 'visible' });
    // 50 of a 100,000 cap: exactly 0.05 %, and all-win pays 50 × 1.83
    expect((await cellTexts(up)).slice(2, 7)).toEqual([
      '1',
      '50.00000000',
      '91.50000000',
      '100000.00000000',
      '0.05%',
    ]);
    await staff.mouse.move(0, 0);
    await staff.waitForFunction(
      () =>
        !document.querySelector('.ant-spin-spinning, .ant-message-notice') &&
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      null,
      { timeout: 10_000 },
    );
    await staff.screenshot({ path: path.join(SCREENS, 'admin-delivery.png') });

    await tab('contracts').click();
    await staff.getByText(adminText('delivery.notEditable')).first().waitFor({ state: 'visible' });
    const row = staff.locator('tr.ant-table-row', { hasText: trader });
    await row.waitFor({ state: 'visible' });
    expect(await staff.locator('tr.ant-table-row').count()).toBe(1);
    await row.click();
    const drawer = staff.getByRole('dialog');
    const field = (key: string) =>
      drawer
        .locator('tr', { has: staff.getByText(adminText(`delivery.${key}`), { exact: true }) })
        .locator('td');
    await field('ratio').waitFor({ state: 'visible' });
    expect(await field('ratio').textContent()).toBe('0.83');
    expect(await field('funding').textContent()).toBe(adminText('delivery.fundings.trial'));
    expect(await field('amount').textContent()).toBe('50.00000000');
    expect(await field('status').textContent()).toBe(adminText('delivery.contractStatuses.open'));
    expect(await field('payout').textContent()).toBe('—');
    // nothing in the drawer edits the contract
    expect(await drawer.locator('input, button:not(.ant-drawer-close)').count()).toBe(0);
  });

  it('grants a campaign plan to the trader (the sign-up plan again is refused: one per identity); the grants filtered by user list both', async () => {
    await staff.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await tab('trial').click();
    const plans = staff
      .locator('.ant-card')
      .filter({ has: staff.locator('.ant-card-head-title', { hasText: adminText('delivery.plans') }) });
    const plan = plans.locator('tr.ant-table-row', { hasText: 'signup' });
    await plan.waitFor({ state: 'visible' });
    expect((await cellTexts(plan)).slice(1, 5)).toEqual(['signup', '1000.00000000', '7', '100%']);
    const { uid } = await loginViaApi(platform.url, trader);
    // the sign-up plan once more: refused, this identity has had it
    const signup = (await adminApi<{ id: string; name: string }[]>('/delivery/trial-plans')).find(
      (p) => p.name === 'signup',
    );
    const again = await adminPost('/delivery/trial-grants', { userId: String(uid), planId: signup?.id });
    expect(again.code).toBe(7030);
    // a campaign plan is another grant
    const campaign = {
      name: 'autumn',
      amount: '250',
      validityDays: 3,
      profitCapPercent: 50,
      trigger: 'campaign',
      active: true,
    };
    expect((await adminPost('/delivery/trial-plans', campaign)).code).toBe(1000);
    await staff.reload();
    await tab('trial').click();
    await plans.locator('tr.ant-table-row', { hasText: 'autumn' }).waitFor({ state: 'visible' });

    await staff.getByRole('button', { name: adminText('delivery.grantToUser') }).click();
    const dialog = staff.getByRole('dialog');
    await dialog.locator('#userId').fill(String(uid));
    await dialog.locator('#planId').click();
    await staff.locator('.ant-select-item-option', { hasText: 'autumn' }).click();
    // why: the list closes with an animation, and an option still on screen takes the next click
    await staff.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: adminText('common.submit') }).click();
    await staff
      .locator('.ant-message-notice', {
        hasText: adminText('delivery.granted', { amount: '250.00000000', user: trader }),
      })
      .waitFor({ state: 'visible' });
    await dialog.waitFor({ state: 'hidden' });

    await staff.locator('input#userId').fill(String(uid));
    await staff.getByRole('button', { name: adminText('delivery.filter') }).click();
    const grants = staff.locator('tr.ant-table-row', { hasText: `${trader} #${uid}` });
    await staff.waitForFunction(
      (name) =>
        Array.from(document.querySelectorAll('tr.ant-table-row')).filter((row) =>
          row.textContent?.includes(name),
        ).length === 2,
      trader,
      { timeout: 10_000 },
    );
    // newest first: the staff grant, then the sign-up grant that paid the 50 USDT contract
    expect((await cellTexts(grants.nth(0))).slice(3, 5)).toEqual(['250.00000000', '250.00000000']);
    expect((await cellTexts(grants.nth(1))).slice(3, 5)).toEqual(['1000.00000000', '950.00000000']);
    expect(await cellTexts(grants.nth(0)).then((cells) => cells[9])).toBe('staff:1');
  });
});
