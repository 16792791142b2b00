import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  loginViaApi,
  newDesktopContext,
  type Platform,
  registerViaApi,
  startPlatform,
} from './harness.ts';
import {
  adminText,
  callApi,
  enrolOwnerInBackOffice,
  input,
  phoneSignedIn,
  SCREENS,
  serverText,
  settled,
  toastAfter,
  waitForHash,
  waitForNoToast,
  webText,
} from './page-helpers.ts';

describe('the user screens of a new account at phone size', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let page: Page;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', ADMIN_USER: 'owner', ADMIN_PASSWORD: 'owner-pass-1' } }),
      launchChromium(),
    ]);
    await registerViaApi(platform.url, 'e2e_screens');
    session = await loginViaApi(platform.url, 'e2e_screens');
    ({ page } = await phoneSignedIn(browser, session));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shows the credit score and, with nobody who invited the user, no referrer', async () => {
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('profile-credit').waitFor({ state: 'visible' });
    expect((await page.getByTestId('profile-credit').textContent())?.trim()).toBe(
      webText('user.credit', { value: '100' }),
    );
    expect((await page.getByTestId('profile-referrer').textContent())?.trim()).toBe(
      webText('user.noReferrer'),
    );
  });

  it("/Index/msb shows the operator's registration text, and no certificate image while none is set", async () => {
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('menu-msb').click();
    await waitForHash(page, '#/Index/msb');
    await page.getByTestId('content-article').waitFor({ state: 'visible' });
    // the demo publishes an msb page saying it holds no registration
    expect((await page.locator('.content-article h2').textContent())?.trim()).toBe('MSB 登録について');
    expect(await page.getByTestId('msb-image').count()).toBe(0);
    expect(await page.getByTestId('msb-none').count()).toBe(0);
  });

  it('/Index/spwd opens on the withdrawal password and sets it (no current one asked), then changes it', async () => {
    await page.goto(`${platform.url}/#/Index/spwd`);
    await input(page, 'spwd-pay-new').waitFor({ state: 'visible' });
    expect((await page.locator('h1').textContent())?.trim()).toBe(webText('security.setPassword.title'));
    const withdrawTab = page.getByRole('tab', { name: webText('security.items.withdrawPassword') });
    expect(await withdrawTab.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('spwd-pay-old').count()).toBe(0);
    expect((await page.locator('.note-info').textContent())?.trim()).toBe(
      webText('security.setPassword.withdrawNote'),
    );
    await settled(page);
    await page.screenshot({ path: path.join(SCREENS, 'set-password.png') });

    await input(page, 'spwd-pay-new').fill('pay-1234');
    await input(page, 'spwd-pay-confirm').fill('pay-1234');
    expect(await toastAfter(page, () => page.getByTestId('spwd-pay-submit').click())).toBe(
      serverText('success.WITHDRAW_PASSWORD_SET'),
    );
    const info = await callApi<{ userInfo: { paypassword: number } }>(
      platform.url,
      session,
      'GET',
      '/User/getUserInfo',
    );
    expect(info.userInfo.paypassword).toBe(1);

    // the page then goes back (opened by its address, it has no history: the markets); opened
    // again with a withdrawal password set, it opens on the login password, and its other
    // segment asks for the current one first
    await waitForHash(page, '#/Trade/tradelist');
    await page.goto(`${platform.url}/#/Index/spwd`);
    await input(page, 'spwd-old').waitFor({ state: 'visible' });
    await withdrawTab.click();
    await input(page, 'spwd-pay-old').waitFor({ state: 'visible' });
    expect((await page.locator('.note-info').textContent())?.trim()).toBe(
      webText('security.withdrawPassword.note'),
    );
  });

  it('offers the app for download from the user menu: iOS steps, the QR code of the address, the install prompt', async () => {
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('menu-download').click();
    await waitForHash(page, '#/Index/download');
    await page.getByTestId('download-qr').waitFor({ state: 'visible' });
    expect((await page.locator('h1').textContent())?.trim()).toBe(webText('download.title'));
    expect(await page.locator('[data-testid="download-qr"] svg').count()).toBe(1);
    expect(await page.getByTestId('download-address').textContent()).toBe(`${platform.url}/`);
    // the phone is an iPhone: Safari's "Add to Home Screen", not Android's steps
    await page.getByTestId('download-steps-ios').waitFor({ state: 'visible' });
    expect(await page.getByTestId('download-steps-android').count()).toBe(0);
    expect(await page.getByTestId('download-install').count()).toBe(0);
    await waitForNoToast(page);
    await settled(page);
    await page.screenshot({ path: path.join(SCREENS, 'app-download.png') });

    // a browser that offers installation (Chromium's beforeinstallprompt): the page's button shows
    // that browser's dialog
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: () => Promise.resolve(),
        userChoice: Promise.resolve({ outcome: 'accepted' as const }),
      });
      window.dispatchEvent(offer);
    });
    await page.getByTestId('download-install').waitFor({ state: 'visible' });
    expect(await toastAfter(page, () => page.getByTestId('download-install').click())).toBe(
      webText('download.accepted'),
    );
    await page.getByTestId('download-installed').waitFor({ state: 'visible' });
    expect(await page.getByTestId('download-steps-ios').count()).toBe(0);
  });

  it('staff set, refuse and remove the MSB certificate image in the back office; customers see it on /Index/msb', async () => {
    const staff = await (await newDesktopContext(browser)).newPage();
    await enrolOwnerInBackOffice(staff, platform.url, 'owner', 'owner-pass-1');
    // why: through the side menu, as staff do: a goto right after enrolment races the app's own
    // redirect to #/dashboard, and the content page never came (as in terms.test.ts)
    await staff.getByRole('menuitem', { name: adminText('menu.content') }).click();
    await staff.waitForFunction(() => location.hash === '#/content', null, { timeout: 10_000 });
    const card = staff.getByTestId('msb-card');
    await card.getByTestId('msb-admin-none').waitFor({ state: 'visible' });

    // a text file named as a picture is refused with the server's message, and nothing changes
    await card.locator('input[type="file"]').setInputFiles({
      name: 'certificate.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all\n'),
    });
    await staff
      .locator('.ant-message-notice', { hasText: 'Please upload a JPEG, PNG, WebP or GIF image.' })
      .waitFor({ state: 'visible' });
    expect(await card.getByTestId('msb-admin-none').isVisible()).toBe(true);

    const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#e8eef8' } })
      .png()
      .toBuffer();
    await card.locator('input[type="file"]').setInputFiles({
      name: 'certificate.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await staff
      .locator('.ant-message-notice', { hasText: adminText('content.msbUploaded') })
      .waitFor({ state: 'visible' });
    await card.getByTestId('msb-admin-image').waitFor({ state: 'visible' });
    const { image_url: url } = await callApi<{ image_url: string }>(
      platform.url,
      session,
      'GET',
      '/Index/msbcert',
    );
    expect(url).toMatch(/^\/Upload\/public\/[0-9a-f]{32}\.webp$/);

    // why: a fresh load; the app keeps what it read a moment ago for 10 seconds
    await page.goto(`${platform.url}/#/Index/msb`);
    await page.reload();
    await page.getByTestId('msb-image').waitFor({ state: 'visible' });
    expect(await page.getByTestId('msb-image').getAttribute('src')).toBe(url);
    expect(await page.getByTestId('msb-image').getAttribute('alt')).toBe(webText('content.msbImage'));

    await card.getByTestId('msb-remove').click();
    await staff.locator('.ant-popconfirm .ant-btn-primary').click();
    await card.getByTestId('msb-admin-none').waitFor({ state: 'visible' });
    expect(
      (await callApi<{ image_url: string }>(platform.url, session, 'GET', '/Index/msbcert')).image_url,
    ).toBe('');
    await staff.context().close();
  });
});
