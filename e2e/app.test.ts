import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  cspConsoleErrors,
  input,
  newCspWatchedPage,
  toastAfter,
  waitForHash,
  waitForText,
  watchPage,
  webText,
} from './page-helpers.ts';

type Tree = { [key: string]: string | Tree };
const WEB_RESOURCES = path.resolve(import.meta.dirname, '../packages/i18n/resources/web');

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : flatten(v, `${prefix}${k}.`),
  );
}
const texts = (locale: string) =>
  new Map(flatten(JSON.parse(fs.readFileSync(path.join(WEB_RESOURCES, `${locale}.json`), 'utf8'))));

/** The text of a customer-app message in `locale`, found by its English wording. */
function message(locale: string, english: RegExp): string {
  const key = [...texts('en-US')].find(([, v]) => english.test(v))?.[0];
  if (!key) throw new Error(`no web text matches ${english}`);
  return texts(locale).get(key)!;
}

/** A server message of the registry, as the API answers it in `locale`. */
function serverMessage(locale: string, key: string): string {
  const file = path.resolve(import.meta.dirname, `../packages/i18n/resources/server/${locale}.json`);
  return JSON.parse(fs.readFileSync(file, 'utf8')).errors[key];
}

/** POSTs a form from a given loopback address (another client, as far as the server can tell). */
function postFormFrom(localAddress: string, url: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields).toString();
  return new Promise<{ code: number }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve(JSON.parse(text)));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Counts the page's loads from now on (the first navigation included). */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  return () => loads;
}

/** From now on (same document), records every hash the app's router moves to in `window.__hashTrail`. */
async function recordHashTrail(page: Page): Promise<void> {
  await page.evaluate(() => {
    const trail: string[] = [];
    (window as any).__hashTrail = trail;
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (state: unknown, unused: string, url?: string | URL | null) => {
        original(state, unused, url);
        trail.push(location.hash);
      };
    }
  });
}

describe('customer app at phone size', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    // why: the markets are rows the demo seed lists.
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', LIMIT_LOGIN_CAPTCHA_AFTER: '3' } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  async function phonePage(options: { token?: string; lang?: string } = {}) {
    const context = await newPhoneContext(browser);
    if (options.token || options.lang) {
      await context.addInitScript(
        ([token, lang]) => {
          // why: seeded once per context; the flag sits in localStorage because a logout clears
          // sessionStorage and reloads, and the token must not come back then.
          if (token && !localStorage.getItem('e2e-seeded')) {
            localStorage.setItem('token', token);
            localStorage.setItem('e2e-seeded', '1');
          }
          if (lang) localStorage.setItem('lang', lang);
        },
        [options.token ?? '', options.lang ?? ''],
      );
    }
    return context.newPage();
  }

  it('registers, logs in and lands on the market list with three tabs', async () => {
    const page = await phonePage();
    const watch = watchPage(page);
    await page.goto(`${platform.url}/#/register`);
    await input(page, 'register-username').fill('e2e_alice');
    await input(page, 'register-password').fill('secret123');
    await input(page, 'register-password2').fill('secret123');
    // the demo publishes terms of service: the box is ticked to accept them
    await page.getByTestId('register-terms-checkbox').check();
    expect(await toastAfter(page, () => page.getByTestId('register-submit').click())).toBe(
      '登録が完了しました',
    );
    await waitForHash(page, '#/login');

    await input(page, 'login-username').fill('e2e_alice');
    await input(page, 'login-password').fill('secret123');
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe('ログインしました');
    await waitForHash(page, '#/Trade/tradelist');

    const tabBar = page.getByTestId('tab-bar');
    await tabBar.waitFor({ state: 'visible' });
    for (const tab of ['tab-markets', 'tab-trade', 'tab-user'])
      expect(await page.getByTestId(tab).isVisible()).toBe(true);
    await page.getByTestId('market-row-BTCUSDT').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.evaluate(() => localStorage.getItem('uid'))).toMatch(/^\d+$/);

    await page.getByTestId('tab-user').click();
    await waitForHash(page, '#/Index/uoption');
    // why: the login page used to navigate home once more a second after login, taking the user
    // back from this tab; should the step time out, the error says where the page went and why.
    await waitForText(page, 'e2e_alice', watch);
    await page.context().close();
  });

  it('shows the message for an empty username and then for an empty password', async () => {
    const page = await phonePage();
    await page.goto(`${platform.url}/#/login`);
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      message('ja-JP', /^please enter (your )?user ?name\.?$/i),
    );
    await input(page, 'login-username').fill('   ');
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      message('ja-JP', /^please enter (your )?user ?name\.?$/i),
    );
    await input(page, 'login-username').fill('someone');
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      message('ja-JP', /^please enter (your )?password\.?$/i),
    );
    await page.context().close();
  });

  it('shows the server message for a wrong password', async () => {
    await registerViaApi(platform.url, 'e2e_bob');
    const page = await phonePage();
    await page.goto(`${platform.url}/#/login`);
    await input(page, 'login-username').fill('e2e_bob');
    await input(page, 'login-password').fill('not-the-one');
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      'ログインパスワードが間違っています',
    );
    expect(await page.evaluate(() => location.hash)).toBe('#/login');
    await page.context().close();
  });

  it('asks for the graphic code when the server demands it for an account under attack', async () => {
    await registerViaApi(platform.url, 'e2e_under_attack');
    // why: another address (127.0.0.2) guesses wrong three times; captcha is off on this server,
    // so only the account's failure count can make the login form ask for the code.
    for (let i = 0; i < 3; i++) {
      const answer = await postFormFrom('127.0.0.2', `${platform.url}/apiv/Login/loginsubmit`, {
        email: 'e2e_under_attack',
        lpwd: `wrong-${i}`,
      });
      expect(answer.code).toBe(2004);
    }
    const page = await phonePage();
    await page.goto(`${platform.url}/#/login`);
    expect(await page.getByTestId('captcha-input').count()).toBe(0);
    await input(page, 'login-username').fill('e2e_under_attack');
    await input(page, 'login-password').fill('secret123');
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      serverMessage('ja-JP', 'CAPTCHA_REQUIRED'),
    );
    await page.locator('[data-testid="captcha-image"] img').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await input(page, 'captcha-input').isVisible()).toBe(true);
    expect(await page.evaluate(() => location.hash)).toBe('#/login');
    await page.context().close();
  });

  it('guards: anonymous to /login, signed-in away from /login, /User/txcoin to the withdrawal password first', async () => {
    const anonymous = await phonePage();
    await anonymous.goto(`${platform.url}/#/Index/uoption`);
    await waitForHash(anonymous, '#/login');
    await anonymous.goto(`${platform.url}/#/User/txcoin`);
    await waitForHash(anonymous, '#/login');
    await anonymous.goto(`${platform.url}/#/Trade/tradelist`);
    await anonymous.getByTestId('market-row-ETHUSDT').waitFor({ state: 'visible' });
    await anonymous.context().close();

    await registerViaApi(platform.url, 'e2e_carol');
    const { token } = await loginViaApi(platform.url, 'e2e_carol');
    const page = await phonePage({ token });
    await page.goto(`${platform.url}/#/login`);
    await waitForHash(page, '#/Trade/tradelist');

    await page.goto(`${platform.url}/#/User/txcoin`);
    await waitForHash(page, '#/Index/withdrawpwd');

    // set it the way a user does, on the page the guard led to
    await input(page, 'withdrawpwd-new').fill('pay-1234');
    await input(page, 'withdrawpwd-confirm').fill('pay-1234');
    expect(await toastAfter(page, () => page.getByTestId('withdrawpwd-submit').click())).toBe(
      '出金パスワードを設定しました',
    );
    // the page then goes back; opened directly, "back" is the market list (wait, so that move
    // cannot land in the middle of the next steps)
    await waitForHash(page, '#/Trade/tradelist');
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    await page.getByTestId('market-row-BTCUSDT').waitFor({ state: 'visible' });
    await recordHashTrail(page);
    await page.goto(`${platform.url}/#/User/txcoin`);
    await waitForHash(page, '#/User/addresslist');
    await page.getByTestId('address-add').waitFor({ state: 'visible' });
    // with a withdrawal password and no saved address the guard sends /User/txcoin to the address list
    expect(await page.evaluate(() => (window as any).__hashTrail)).toEqual(['#/User/addresslist']);
    await page.context().close();
  });

  it('ends a revoked session: code 100 logs out and shows the server message', async () => {
    await registerViaApi(platform.url, 'e2e_dave');
    const { token } = await loginViaApi(platform.url, 'e2e_dave');
    const revoked = await fetch(`${platform.url}/apiv/Login/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(((await revoked.json()) as { code: number }).code).toBe(1000);

    const page = await phonePage({ token });
    const loads = countLoads(page);
    // why: a slow network, held the same way every run: the app's first texts arrive after the
    // page's first request ended the session, and the reload's document after those texts, so
    // the load that ended the session finishes starting before it is replaced. It must leave the
    // message to the next load, not show it itself and lose it.
    const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let documents = 0;
    await page.route(`${platform.url}/`, async (route) => {
      documents += 1;
      if (documents === 2) await hold(1500);
      await route.continue();
    });
    const coreText = webText('common.back');
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (documents === 1 && body.includes(coreText)) await hold(500);
      await route.fulfill({ response, body });
    });
    await page.goto(`${platform.url}/#/Index/uoption`);
    // the message survives the reload of the forced logout (spec §4: logout reloads)
    await waitForHash(page, '#/login');
    const toast = page.locator('.adm-toast-main').last();
    await toast.waitFor({ state: 'visible', timeout: 10_000 });
    expect((await toast.textContent())?.trim()).toBe(
      'セッションの有効期限が切れました。再度ログインしてください',
    );
    expect(loads()).toBe(2);
    expect(documents).toBe(2);
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('uid')])).toEqual([
      null,
      null,
    ]);
    await page.context().close();
  });

  it('logs out on HTTP 401 with 4010 and 403 with 4005, whatever the call', async () => {
    await registerViaApi(platform.url, 'e2e_erin');
    for (const [status, code] of [
      [401, 4010],
      [403, 4005],
    ]) {
      const { token } = await loginViaApi(platform.url, 'e2e_erin');
      const page = await phonePage({ token });
      // why: the server has no call that answers these yet; the client contract is checked by
      // answering the user-info call the way a gateway in front of the API would.
      await page.route('**/apiv/User/getUserInfo**', (route) =>
        route.fulfill({
          status,
          contentType: 'application/json',
          body: JSON.stringify({ code, msg: 'セッションが無効です', data: null }),
        }),
      );
      const loads = countLoads(page);
      await page.goto(`${platform.url}/#/Index/uoption`);
      await waitForHash(page, '#/login');
      // the first load, then the reload of the forced logout (spec §4); the router may reach
      // /login before the reload, whose document then takes its own time to load
      await expect.poll(loads, { timeout: 10_000 }).toBe(2);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await page.context().close();
    }
  });

  it('translates the three English server messages and reports network errors', async () => {
    const page = await phonePage();
    await page.goto(`${platform.url}/#/login`);
    await input(page, 'login-username').fill('someone');
    await input(page, 'login-password').fill('secret123');
    const answers = [
      ['Insufficient account balance', message('ja-JP', /account balance/i)],
      ['Cannot be less than the minimum subscription amount', message('ja-JP', /minimum subscription/i)],
      ['Subscription closed', message('ja-JP', /no subscription project|no project/i)],
    ];
    for (const [english, translated] of answers) {
      await page.route('**/apiv/Login/loginsubmit', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ code: 0, msg: english, data: null }),
        }),
      );
      expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(translated);
      await page.unroute('**/apiv/Login/loginsubmit');
    }
    await page.route('**/apiv/Login/loginsubmit', (route) => route.abort('connectionrefused'));
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      message('ja-JP', /^network error/i),
    );
    await page.context().close();
  });

  it('switches the language to English and sends the Lang header accordingly', async () => {
    const page = await phonePage();
    const langs: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/apiv/')) langs.push(request.headers().lang ?? '');
    });
    await page.goto(`${platform.url}/#/login`);
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    expect(langs.length).toBeGreaterThan(0);
    expect(new Set(langs)).toEqual(new Set(['ja-jp']));

    await page.goto(`${platform.url}/#/Login/setlang`);
    await page.getByTestId('lang-en-US').click();
    await page.waitForFunction(() => localStorage.getItem('lang') === 'en-US', null, { timeout: 5000 });
    langs.length = 0;
    await page.goto(`${platform.url}/#/login`);
    await input(page, 'login-username').fill('nobody_here');
    await input(page, 'login-password').fill('whatever1');
    expect(await toastAfter(page, () => page.getByTestId('login-submit').click())).toBe(
      'User does not exist.',
    );
    expect(langs).toContain('en-us');
    expect(langs).not.toContain('ja-jp');
    expect((await page.getByTestId('login-submit').textContent())?.trim()).toBe(
      message('en-US', /^log ?in$/i),
    );
    await page.context().close();
  });

  it('keeps the invitation code of the entry URL and fills the register form with it', async () => {
    const page = await phonePage();
    await page.goto(`${platform.url}/?code=DEMO2026#/Trade/tradelist`);
    await page.getByTestId('market-row-BTCUSDT').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => localStorage.getItem('invit'))).toBe('DEMO2026');
    await page.goto(`${platform.url}/#/register`);
    expect(await input(page, 'register-invite').inputValue()).toBe('DEMO2026');
    await page.context().close();
  });

  it('logs out from the user tab: the token is revoked on the server and forgotten here', async () => {
    await registerViaApi(platform.url, 'e2e_frank');
    const { token } = await loginViaApi(platform.url, 'e2e_frank');
    // why: the token is in place before the app's first script runs, as in the other signed-in
    // tests. Storing it into a running app and then loading again raced now and then in CI: the
    // user page did not show the username within 30 s.
    const page = await phonePage({ token });
    const watch = watchPage(page);
    await page.goto(`${platform.url}/#/Index/uoption`);
    await waitForText(page, 'e2e_frank', watch);
    await page.evaluate(() => sessionStorage.setItem('scratch', 'x'));
    await Promise.all([page.waitForEvent('load'), page.getByTestId('logout').click()]);
    await waitForHash(page, '#/login');
    expect(
      await page.evaluate(() => [
        localStorage.getItem('token'),
        localStorage.getItem('uid'),
        sessionStorage.length,
      ]),
    ).toEqual([null, null, 0]);
    const after = await fetch(`${platform.url}/apiv/User/getUserInfo?token=${token}`);
    expect(((await after.json()) as { code: number }).code).toBe(100);
    await page.context().close();
  });

  it('goes back in history, or to the market list when the page was opened directly', async () => {
    await registerViaApi(platform.url, 'e2e_grace');
    const { token } = await loginViaApi(platform.url, 'e2e_grace');
    const page = await phonePage({ token });
    const back = page.getByRole('button', { name: message('ja-JP', /^back$/i) });

    await page.goto(`${platform.url}/#/Index/respwd`);
    await back.click();
    await waitForHash(page, '#/Trade/tradelist');

    await page.getByTestId('tab-user').click();
    await waitForHash(page, '#/Index/uoption');
    await page.getByTestId('menu-login-password').click();
    await waitForHash(page, '#/Index/respwd');
    await back.click();
    await waitForHash(page, '#/Index/uoption');
    await page.context().close();
  });

  it('opens the security centre at its own path, and /Index/spwd sets the login password', async () => {
    await registerViaApi(platform.url, 'e2e_heidi');
    const { token } = await loginViaApi(platform.url, 'e2e_heidi');
    const page = await phonePage({ token });
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('menu-security').click();
    await waitForHash(page, '#/Index/security');
    await page.getByTestId('security-withdraw-password').waitFor({ state: 'visible' });
    expect((await page.locator('h1').textContent())?.trim()).toBe(texts('ja-JP').get('security.title'));

    // spec §2: /Index/spwd is "Set login password"; it opens on the withdrawal password for an
    // account without one, and its other segment changes the login password.
    await page.goto(`${platform.url}/#/Index/spwd`);
    await input(page, 'spwd-pay-new').waitFor({ state: 'visible' });
    expect((await page.locator('h1').textContent())?.trim()).toBe(
      texts('ja-JP').get('security.setPassword.title'),
    );
    await page.getByRole('tab', { name: texts('ja-JP').get('security.items.loginPassword') }).click();
    await input(page, 'spwd-old').waitFor({ state: 'visible' });
    await input(page, 'spwd-old').fill('secret123');
    await input(page, 'spwd-new').fill('secret456');
    await input(page, 'spwd-confirm').fill('secret456');
    expect(await toastAfter(page, () => page.getByTestId('spwd-submit').click())).toBe(
      'パスワードを変更しました。24時間は出金できません',
    );
    await page.context().close();
    await loginViaApi(platform.url, 'e2e_heidi', 'secret456');
  });

  it('loads /docs under the Content-Security-Policy with no violation, and refuses an injected script', async () => {
    // why: the main pages are checked under the policy in a11y.test.ts, on the visit its
    // accessibility checks make of each; here the API document and the proof the check can fail.
    const context = await newPhoneContext(browser);
    const { page: docs, refused } = await newCspWatchedPage(context);
    const response = await docs.goto(`${platform.url}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await docs.locator('.swagger-ui .info .title').waitFor({ state: 'visible', timeout: 15_000 });
    await docs.waitForLoadState('networkidle');
    expect(await refused()).toEqual([]);
    await context.close();

    // the check can fail: an injected inline script is refused and reported
    const page = await phonePage();
    const cspErrors = cspConsoleErrors(page);
    await page.goto(`${platform.url}/#/login`);
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });
    const hasRun = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.head.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(hasRun).toBe(false);
    await expect.poll(() => cspErrors.length).toBeGreaterThan(0);
    await page.context().close();
  });

  it('tells a desktop browser to open the app on a phone, with a QR code', async () => {
    const context = await newDesktopContext(browser);
    const page = await context.newPage();
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    const notice = page.getByTestId('desktop-notice');
    await notice.waitFor({ state: 'visible' });
    expect(await notice.locator('svg, canvas').count()).toBeGreaterThan(0);
    await context.close();

    const phone = await phonePage();
    await phone.goto(`${platform.url}/#/Trade/tradelist`);
    await phone.getByTestId('market-row-BTCUSDT').waitFor({ state: 'visible' });
    expect(await phone.getByTestId('desktop-notice').count()).toBe(0);
    await phone.context().close();
  });
});

describe('customer app in register mode 2 (mobile phone)', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startPlatform({ env: { REGISTER_MODE: '2' } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('registers with a phone number and logs in with it', async () => {
    const page = await (await newPhoneContext(browser)).newPage();
    await page.goto(`${platform.url}/#/register`);
    await input(page, 'register-phone').waitFor({ state: 'visible' });
    expect(await page.getByTestId('register-username').count()).toBe(0);
    // spec §5: register makes the login form's "same two checks", so the message names the username
    expect(await toastAfter(page, () => page.getByTestId('register-submit').click())).toBe(
      message('ja-JP', /^please enter (your )?user ?name\.?$/i),
    );

    await input(page, 'register-phone').fill('+819011112222');
    await input(page, 'register-password').fill('secret123');
    await input(page, 'register-password2').fill('secret123');
    expect(await toastAfter(page, () => page.getByTestId('register-submit').click())).toBe(
      '登録が完了しました',
    );
    await waitForHash(page, '#/login');

    await input(page, 'login-username').fill('+819011112222');
    await input(page, 'login-password').fill('secret123');
    await page.getByTestId('login-submit').click();
    await waitForHash(page, '#/Trade/tradelist');
    await page.context().close();
  });
});
