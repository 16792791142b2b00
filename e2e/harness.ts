import { type Browser, type BrowserContext, devices } from 'playwright-core';

export { launchChromium, type Platform, startPlatform } from '../scripts/lib/platform.mjs';

/** A phone: 390×844, touch, a mobile user agent. */
export function newPhoneContext(
  browser: Browser,
  options: { locale?: string } = {},
): Promise<BrowserContext> {
  const iphone = devices['iPhone 13'];
  return browser.newContext({
    ...iphone,
    viewport: { width: 390, height: 844 },
    locale: options.locale ?? 'ja-JP',
  });
}

/** A desktop browser: a wide window and a desktop user agent. */
export function newDesktopContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ ...devices['Desktop Chrome'], viewport: { width: 1366, height: 900 } });
}

/** Registers through the API (the UI flow has its own test) and returns the credentials. */
export async function registerViaApi(url: string, username: string, password = 'secret123'): Promise<void> {
  const response = await fetch(`${url}/apiv/Login/upregister`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account: username, lpwd: password }).toString(),
  });
  const answer = (await response.json()) as { code: number };
  if (answer.code !== 1000) throw new Error(`register ${username}: ${JSON.stringify(answer)}`);
}

export async function loginViaApi(
  url: string,
  username: string,
  password = 'secret123',
): Promise<{ token: string; uid: number }> {
  const response = await fetch(`${url}/apiv/Login/loginsubmit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: username, lpwd: password }).toString(),
  });
  const answer = (await response.json()) as { code: number; data: { token: string; uid: number } };
  if (answer.code !== 1000) throw new Error(`login ${username}: ${JSON.stringify(answer)}`);
  return answer.data;
}
