import { createHash } from 'node:crypto';
import path from 'node:path';
import { toAtoms } from '@bourse/shared';
import SQLite from 'better-sqlite3';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  adminText,
  enrolOwnerInBackOffice,
  input,
  openDemoPhone,
  SCREENS,
  serverText,
  settled,
  waitForHash,
  webText,
} from './page-helpers.ts';

const ADMIN_USER = 'owner';
const ADMIN_PASSWORD = 'Vault-Owner-7319-kestrel';
// A real 24×16 PNG: a stand-in photo of an identity document.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWMwTltFFcQwapDxaBgZj6ajtNEskkZ+OgAA1sDkkM+iumUAAAAASUVORK5CYII=',
  'base64',
);
const CAPTCHA_CHARS = '23456789abcdefghjkmnpqrstuvwxyz';

/**
 * The answer to a graphic code the page fetched: the store keeps only its hash, and four
 * characters of a 31-letter alphabet are few enough to find by trying them all.
 */
function solveCaptcha(platform: Platform, key: string): string {
  const db = new SQLite(path.join(platform.dataDir, 'bourse.sqlite'), { readonly: true });
  const row = db.prepare('select answer_hash from captchas where captcha_key = ?').get(key) as {
    answer_hash: string;
  };
  db.close();
  for (const a of CAPTCHA_CHARS)
    for (const b of CAPTCHA_CHARS)
      for (const c of CAPTCHA_CHARS)
        for (const d of CAPTCHA_CHARS) {
          const text = a + b + c + d;
          if (createHash('sha256').update(text).digest('hex') === row.answer_hash) return text;
        }
  throw new Error('captcha not solved');
}

/**
 * Every graphic code sent to the page from now on, keyed by picture. A page asks for its code as it
 * mounts, and the answer can come before a test sees the page's hash change; so the code typed is
 * the one the page shows, never "the next response" after some step.
 */
function collectCaptchas(page: Page): Map<string, string> {
  const keysByImage = new Map<string, string>();
  page.on('response', (response) => {
    if (!response.url().includes('/apiv/Login/captcha')) return;
    // why: a body that can no longer be read (the page went on) is a code nobody will type.
    response
      .json()
      .then(({ data }: { data: { key: string; img: string } }) => keysByImage.set(data.img, data.key))
      .catch(() => undefined);
  });
  return keysByImage;
}

/** Types the answer of the graphic code the page shows into the field. */
async function fillCaptcha(page: Page, platform: Platform, keysByImage: Map<string, string>) {
  const image = page.getByTestId('captcha-image').locator('img');
  await image.waitFor();
  const src = (await image.getAttribute('src')) ?? '';
  // why: the page may draw the picture before this side has read the same response's body.
  await expect.poll(() => keysByImage.has(src)).toBe(true);
  await input(page, 'captcha-input').fill(solveCaptcha(platform, keysByImage.get(src) ?? ''));
}

describe('account services at phone size, with the back office', () => {
  let platform: Platform;
  let browser: Browser;
  let phone: Page;
  let staff: Page;

  beforeAll(async () => {
    ({ platform, browser, page: phone } = await openDemoPhone({ ADMIN_USER, ADMIN_PASSWORD }));
    staff = await (await newDesktopContext(browser)).newPage();
    await enrolOwnerInBackOffice(staff, platform.url, ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('verification: the user submits, staff approve in the back office, the user sees "verified" and a notice', async () => {
    await phone.goto(`${platform.url}/#/Index/uoption`);
    await phone.getByTestId('menu-identity').click();
    await waitForHash(phone, '#/User/authrz');
    await input(phone, 'identity-realname').fill('Demo Example');
    await phone.getByTestId('identity-country').selectOption('JP');
    await input(phone, 'identity-mobile').fill('+819012345678');
    await input(phone, 'identity-idno').fill('TR 123-4567');
    for (const side of ['front', 'back'] as const) {
      const uploaded = phone.waitForResponse((r) => r.url().includes('/apiv/user/upauthimg'));
      await phone
        .getByTestId(`identity-${side}-input`)
        .setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: PNG });
      expect((await (await uploaded).json()).code).toBe(1000);
      await phone.locator(`[data-testid="identity-${side}"] img`).waitFor();
    }
    await phone.screenshot({ path: path.join(SCREENS, 'verification.png'), fullPage: true });
    await phone.getByTestId('identity-submit').click();
    await phone.getByTestId('identity-pending').waitFor();
    expect(await phone.getByTestId('identity-pending').textContent()).toBe(
      webText('identity.status.pending'),
    );

    await staff.getByRole('menuitem', { name: adminText('menu.identity') }).click();
    await staff.waitForFunction(() => location.hash === '#/identity', null, { timeout: 10_000 });
    const open = staff.locator('[data-testid^="identity-open-"]').first();
    await open.waitFor();
    await open.click();
    await staff.getByTestId('identity-image-front').waitFor();
    await staff.locator('[data-testid="identity-image-back"]').waitFor();
    await staff.waitForFunction(() =>
      Array.from(document.querySelectorAll('img[data-testid^="identity-image-"]')).every((img) =>
        (img as HTMLImageElement).src.startsWith('data:image/webp'),
      ),
    );
    await settled(staff);
    await staff.screenshot({ path: path.join(SCREENS, 'back-office-identity.png') });
    // the reviewer confirms the issuing country and the number read on the image; they match the
    // country the customer declared and the number the customer typed
    expect(await staff.getByTestId('identity-declared-country').textContent()).toContain('(JP)');
    await staff.getByTestId('identity-country-confirm').click();
    await staff.keyboard.type('JP');
    await staff.keyboard.press('Enter');
    await staff.getByTestId('identity-idno-confirm').fill('TR1234567');
    await staff.getByTestId('identity-approve').click();
    await staff.getByText(adminText('identity.done')).waitFor();

    await phone.reload();
    await phone.getByTestId('identity-verified').waitFor();
    await phone.goto(`${platform.url}/#/Index/uoption`);
    await phone.getByTestId('notices-badge').waitFor();
    await phone.getByTestId('menu-notices').click();
    await waitForHash(phone, '#/Index/notice');
    const first = phone
      .locator('[data-testid^="notice-"]')
      .filter({ hasText: serverText('notices.IDENTITY_APPROVED.title') });
    await first.first().waitFor();
    await phone.screenshot({ path: path.join(SCREENS, 'notifications.png') });
    await first.first().click();
    await waitForHash(phone, /^#\/Index\/noticeinfo\?id=\d+$/);
    await phone.getByTestId('notice-detail').waitFor();
    expect(await phone.locator('.notice-detail h2').textContent()).toBe(
      serverText('notices.IDENTITY_APPROVED.title'),
    );
  });

  it('two-factor codes: the user turns them on, then logs in with a code', async () => {
    const username = `totp_${Date.now().toString(36)}`;
    await registerViaApi(platform.url, username);
    const session = await loginViaApi(platform.url, username);
    const context: BrowserContext = await newPhoneContext(browser);
    await context.addInitScript(seedSession, session);
    const page = await context.newPage();
    await page.goto(`${platform.url}/#/Index/security`);
    await page.getByTestId('security-two-factor').waitFor();
    await page.screenshot({ path: path.join(SCREENS, 'security-centre.png') });
    await page.getByTestId('security-two-factor').click();
    await page.getByTestId('totp-start').click();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    await input(page, 'totp-code').fill(await generate({ secret }));
    await page.getByTestId('totp-enable').click();
    await page.getByTestId('totp-backup-codes').waitFor();
    expect(await page.locator('.backup-codes span').count()).toBe(10);

    // a new phone logs in: the password first, then the code it asks for
    const fresh = await (await newPhoneContext(browser)).newPage();
    await fresh.goto(`${platform.url}/#/login`);
    await input(fresh, 'login-username').fill(username);
    await input(fresh, 'login-password').fill('secret123');
    await fresh.getByTestId('login-submit').click();
    await input(fresh, 'login-totp').waitFor();
    // the code of the next time step: the current one was spent turning codes on
    await input(fresh, 'login-totp').fill(
      await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
    );
    await fresh.getByTestId('login-submit').click();
    await waitForHash(fresh, '#/Trade/tradelist');
  });

  it('forgotten password: a code mailed to the outbox resets it, and the new password logs in', async () => {
    const email = `reset_${Date.now().toString(36)}@example.com`;
    await registerViaApi(platform.url, email);
    const page = await (await newPhoneContext(browser)).newPage();
    const captchas = collectCaptchas(page);
    await page.goto(`${platform.url}/#/login`);
    await page.getByTestId('to-forgot').click();
    await waitForHash(page, '#/Login/forgot');
    await input(page, 'forgot-email').fill(email);
    await fillCaptcha(page, platform, captchas);
    const sent = page.waitForResponse((r) => r.url().includes('/apiv/Login/sendresetcode'));
    await page.getByTestId('forgot-send').click();
    expect((await (await sent).json()).code).toBe(1000);
    expect(await page.getByTestId('forgot-send').textContent()).toMatch(/\d/);

    // support reads the code in the back office's outbox (no SMTP on a fresh install)
    await staff.getByRole('menuitem', { name: adminText('menu.outbox') }).click();
    await staff.waitForFunction(() => location.hash === '#/outbox', null, { timeout: 10_000 });
    await staff.getByTestId('outbox-search').locator('input').fill(email);
    await staff.getByTestId('outbox-search').locator('input').press('Enter');
    const row = staff.locator('tr.ant-table-row').filter({ hasText: email });
    await row.first().waitFor();
    await row.first().locator('.ant-table-row-expand-icon').click();
    const body = (await staff.locator('.ant-table-expanded-row').first().textContent()) ?? '';
    const code = /\b\d{6}\b/.exec(body)?.[0] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    await input(page, 'forgot-code').fill(code);
    await input(page, 'forgot-password').fill('brand-new-9');
    await input(page, 'forgot-password2').fill('brand-new-9');
    await page.getByTestId('forgot-submit').click();
    await waitForHash(page, '#/login');
    await input(page, 'login-username').fill(email);
    await input(page, 'login-password').fill('brand-new-9');
    await page.getByTestId('login-submit').click();
    await waitForHash(page, '#/Trade/tradelist');
  });

  it('support chat: the user writes, staff answer from the console, the answer shows without a reload', async () => {
    await phone.goto(`${platform.url}/#/Index/uoption`);
    await phone.getByTestId('menu-support').click();
    await waitForHash(phone, '#/User/contactKehu');
    await phone.getByTestId('chat-input').fill('入金がまだ反映されていません');
    await phone.getByTestId('chat-send').click();
    await phone
      .getByTestId('chat-message-user')
      .filter({ hasText: '入金がまだ反映されていません' })
      .waitFor();

    await staff.getByRole('menuitem', { name: adminText('menu.support') }).click();
    await staff.waitForFunction(() => location.hash === '#/support', null, { timeout: 10_000 });
    const conversation = staff.locator('[data-testid^="conversation-"]').filter({ hasText: 'demo' });
    await conversation.first().waitFor();
    await conversation.first().click();
    await staff
      .getByTestId('console-message-user')
      .filter({ hasText: '入金がまだ反映されていません' })
      .waitFor();
    await staff.getByTestId('console-reply').fill('確認いたします。少々お待ちください。');
    await staff.getByTestId('console-send').click();
    await staff.getByTestId('console-message-staff').first().waitFor();
    await settled(staff);
    await staff.screenshot({ path: path.join(SCREENS, 'back-office-chat.png') });

    // the phone shows the answer pushed over /ws: no reload, no navigation
    await phone
      .getByTestId('chat-message-staff')
      .filter({ hasText: '確認いたします。' })
      .waitFor({ timeout: 10_000 });
    expect(await phone.evaluate(() => location.hash)).toBe('#/User/contactKehu');
    await phone.screenshot({ path: path.join(SCREENS, 'chat.png') });
  });

  it('announcements: staff publish one pinned, it scrolls on the market list and opens; about us links the reserve claim to its proof', async () => {
    const title = '定期メンテナンスのお知らせ';
    await staff.getByRole('menuitem', { name: adminText('menu.content') }).click();
    await staff.waitForFunction(() => location.hash === '#/content', null, { timeout: 10_000 });
    await staff.getByTestId('content-new').click();
    await staff.getByTestId('content-title-ja-JP').fill(title);
    await staff
      .getByTestId('content-body-ja-JP')
      .fill(
        '<p>11月30日 02:00〜04:00（UTC）に<strong>メンテナンス</strong>を行います。</p><script>alert(1)</script>',
      );
    await staff.getByTestId('content-status').click();
    await staff.getByTitle(adminText('content.published')).click();
    await staff.getByTestId('content-pinned').click();
    await staff.getByTestId('content-save').click();
    await staff.getByRole('cell', { name: title }).waitFor();

    await phone.goto(`${platform.url}/#/Trade/tradelist`);
    // why: the app keeps the announcements it fetched for a minute, and this phone may have
    // fetched them within it (a change of hash is no new page); a fresh load shows the new one.
    await phone.reload();
    const line = phone.getByTestId('announcement-line');
    await line.waitFor();
    expect(await line.locator('.announcement-line-text').textContent()).toBe(title);
    await line.click();
    await waitForHash(phone, /^#\/Index\/gginfo\?id=\d+$/);
    const article = phone.getByTestId('content-article');
    await article.waitFor();
    expect(await article.locator('h2').textContent()).toBe(title);
    expect(await article.locator('.content-body').innerHTML()).toBe(
      '<p>11月30日 02:00〜04:00（UTC）に<strong>メンテナンス</strong>を行います。</p>',
    );

    await phone.goto(`${platform.url}/#/Index/gglist`);
    await phone.getByTestId('content-list').waitFor();
    const rows = phone.locator('.content-row-title');
    expect(await rows.allTextContents()).toEqual([
      `${webText('content.pinned')}${title}`,
      `${webText('content.pinned')}Bourse デモ版へようこそ`,
      '二段階認証で口座を守りましょう',
    ]);
    await phone.screenshot({ path: path.join(SCREENS, 'announcement.png') });

    await phone.goto(`${platform.url}/#/Index/uoption`);
    await phone.getByTestId('menu-about').click();
    await waitForHash(phone, '#/Index/aboutus');
    await phone.getByTestId('content-article').waitFor();
    await phone.getByTestId('claim-reserve').waitFor();
    // the reserve figure is covered by the demo's latest signed snapshot: its BTC reserve is at
    // least the figure, so the proof the claim links to never contradicts it
    const snapshots = (await (await fetch(`${platform.url}/apiv/por/snapshots`)).json()) as {
      data: { list: { reserve_totals: Record<string, string> }[] };
    };
    const reserveAtoms = BigInt(snapshots.data.list[0]!.reserve_totals.BTC!);
    const figure = (await phone.getByTestId('claim-reserve').locator('.claim-figure').textContent()) ?? '';
    expect(figure).toMatch(/^[\d,]+ BTC$/);
    const claimedAtoms = toAtoms(figure.replace(/,/g, '').replace(' BTC', ''));
    expect(claimedAtoms > 0n && claimedAtoms <= reserveAtoms).toBe(true);
    // the demo's perpetual markets are open at up to 5x, so its leverage claim is shown
    expect(await phone.getByTestId('claim-leverage').textContent()).toContain(
      webText('content.leverageFigure', { x: '5' }),
    );
    await phone.screenshot({ path: path.join(SCREENS, 'about-us.png') });
    await phone.getByTestId('claim-reserve').click();
    await waitForHash(phone, '#/User/reserves');
  });
});

describe('signing up and in with graphic codes on', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startPlatform({ env: { CAPTCHA: 'on' } }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('a new account logs in at once: the login page shows a new graphic code, not the one the registration used', async () => {
    const email = `fresh_${Date.now().toString(36)}@example.com`;
    const page = await (await newPhoneContext(browser)).newPage();
    const captchas = collectCaptchas(page);
    await page.goto(`${platform.url}/#/login`);
    await page.getByTestId('to-register').click();
    await waitForHash(page, '#/register');
    await input(page, 'register-username').fill(email);
    await input(page, 'register-password').fill('first-pass-7');
    await input(page, 'register-password2').fill('first-pass-7');
    await fillCaptcha(page, platform, captchas);
    const used = await page.getByTestId('captcha-image').locator('img').getAttribute('src');
    await page.getByTestId('register-submit').click();
    await waitForHash(page, '#/login');

    const shown = page.getByTestId('captcha-image').locator('img');
    await shown.waitFor();
    expect(await shown.getAttribute('src')).not.toBe(used);
    await input(page, 'login-username').fill(email);
    await input(page, 'login-password').fill('first-pass-7');
    await fillCaptcha(page, platform, captchas);
    await page.getByTestId('login-submit').click();
    await waitForHash(page, '#/Trade/tradelist');
  });
});
