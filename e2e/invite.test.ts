import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPhoneContext, type Platform } from './harness.ts';
import { callApi, input, openDemoPhone, SCREENS, webText } from './page-helpers.ts';

describe('invitations at phone size', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let page: Page;
  let code = '';

  beforeAll(async () => {
    ({ platform, browser, session, page } = await openDemoPhone());
    code = (await callApi<{ invite_code: string }>(platform.url, session, 'GET', '/user/tgcode')).invite_code;
    // one friend joins with the demo user's code, and a friend of theirs
    const friend = `friend_${Date.now().toString(36)}`;
    const register = (account: string, invit: string) =>
      fetch(`${platform.url}/apiv/Login/upregister`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ account, lpwd: 'secret123', invit }).toString(),
      }).then((r) => r.json() as Promise<{ code: number }>);
    expect((await register(friend, code)).code).toBe(1000);
    const login = (await (
      await fetch(`${platform.url}/apiv/Login/loginsubmit`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: friend, lpwd: 'secret123' }).toString(),
      })
    ).json()) as { data: { token: string } };
    const friendCode = (
      await callApi<{ invite_code: string }>(platform.url, login.data, 'GET', '/user/tgcode')
    ).invite_code;
    expect((await register(`${friend}_2`, friendCode)).code).toBe(1000);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shows the code, the link with its QR code, and the team per generation with masked names', async () => {
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('menu-invite').click();
    await page.getByTestId('invite-code').waitFor();
    expect(await page.getByTestId('invite-code').textContent()).toBe(code);
    const link = await page.getByTestId('invite-link').textContent();
    expect(link).toBe(`${platform.url}/?code=${code}#/register`);
    expect(await page.locator('.invite-qr svg').count()).toBe(1);
    const { counts } = await callApi<{ counts: [number, number, number] }>(
      platform.url,
      session,
      'GET',
      '/user/tgcode',
    );
    for (const g of [1, 2, 3] as const) {
      expect(await page.getByTestId(`invite-tab-${g}`).textContent()).toBe(
        `${webText(`invite.generations.${g}`)} (${counts[g - 1]})`,
      );
    }
    const first = page.getByTestId('invite-members-1').locator('.invite-member');
    await first.first().waitFor();
    expect(await first.count()).toBe(counts[0]);
    // the newest first: the friend who just joined, masked
    expect(await first.first().locator('span').first().textContent()).toMatch(/^fr\*\*\*.$/);
    await page.screenshot({ path: path.join(SCREENS, 'invite.png'), fullPage: true });

    await page.getByTestId('invite-tab-2').click();
    const second = page.getByTestId('invite-members-2').locator('.invite-member');
    await second.first().waitFor();
    expect(await second.count()).toBe(counts[1]);

    // the link opens the register page with the code filled in
    const context = await newPhoneContext(browser);
    const visitor = await context.newPage();
    await visitor.goto(link ?? '');
    await input(visitor, 'register-invite').waitFor();
    expect(await input(visitor, 'register-invite').inputValue()).toBe(code);
    await context.close();
  });
});
