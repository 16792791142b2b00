import { type Browser, type BrowserContext, devices } from 'playwright-core';
import { launchChromium as launchOwnChromium } from '../scripts/lib/platform.mjs';

export { newPhoneContext, type Platform, startPlatform } from '../scripts/lib/platform.mjs';

let shared: Promise<Browser> | undefined;

/**
 * The worker's Chromium: launched by the first file that asks, then shared by the files the worker
 * runs after it (the browser project keeps one module registry per worker). A file's
 * `browser.close()` closes the contexts it opened and leaves the browser to the next file; the
 * browser itself goes with the worker (Playwright closes what it launched when its process ends).
 * why: a launch costs about a second of two cores' time, once per file.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await shared?.catch(() => undefined);
  if (browser?.isConnected()) return browser;
  shared = launchOwnChromium().then((launched) => {
    launched.close = async () => {
      await Promise.all(launched.contexts().map((context) => context.close()));
    };
    return launched;
  });
  return shared;
}

/** A desktop browser: a wide window and a desktop user agent. */
export function newDesktopContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ ...devices['Desktop Chrome'], viewport: { width: 1366, height: 900 } });
}

/**
 * Registers through the API (the UI flow has its own test), accepting the terms of service in
 * force as the registration page does.
 */
export async function registerViaApi(url: string, username: string, password = 'secret123'): Promise<void> {
  const terms = (await (await fetch(`${url}/apiv/Index/terms`)).json()) as { data: { version: number } };
  const fields: Record<string, string> = { account: username, lpwd: password };
  if (terms.data.version > 0) fields.terms_version = String(terms.data.version);
  const response = await fetch(`${url}/apiv/Login/upregister`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
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

// A real 24×16 PNG: a stand-in photo of an identity document.
const DOCUMENT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWMwTltFFcQwapDxaBgZj6ajtNEskkZ+OgAA1sDkkM+iumUAAAAASUVORK5CYII=',
  'base64',
);

/**
 * Submits the user's real-name verification through the API (the UI flow has its own test): two
 * photos and document number `idno`. Staff still have to approve it.
 */
export async function submitIdentityViaApi(
  url: string,
  session: { token: string },
  idno: string,
): Promise<void> {
  const images: string[] = [];
  for (const side of ['front', 'back']) {
    const form = new FormData();
    form.append('token', session.token);
    form.append('image', new Blob([new Uint8Array(DOCUMENT_PNG)], { type: 'image/png' }), `${side}.png`);
    const response = await fetch(`${url}/apiv/user/upauthimg`, { method: 'POST', body: form });
    const answer = (await response.json()) as { code: number; data: { image: string } };
    if (answer.code !== 1000) throw new Error(`upload ${side}: ${JSON.stringify(answer)}`);
    images.push(answer.data.image);
  }
  const response = await fetch(`${url}/apiv/user/upauthrz`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      type: 'passport',
      realname: 'Trial Tester',
      country: 'JP',
      mobile: '+819011112222',
      idno,
      front: images[0] ?? '',
      back: images[1] ?? '',
      token: session.token,
    }).toString(),
  });
  const answer = (await response.json()) as { code: number };
  if (answer.code !== 1000) throw new Error(`submit identity: ${JSON.stringify(answer)}`);
}
