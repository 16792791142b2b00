// Phone screenshots of the customer app for docs/screens, taken in Chromium against a running
// server: `node apps/web/scripts/screens.mjs [base-url]` (default http://127.0.0.1:8080).
// Registers a throw-away user through the API for the signed-in screens.
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../../scripts/lib/platform.mjs';

const base = (process.argv[2] || process.env.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const outDir = path.resolve(import.meta.dirname, '../../../docs/screens');
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

async function api(pathname, form) {
  const response = await fetch(`${base}/apiv${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Lang: 'en-us' },
    body: new URLSearchParams(form),
  });
  const body = await response.json();
  if (body.code !== 1000) throw new Error(`${pathname}: ${body.code} ${body.msg}`);
  return body.data;
}

async function signIn() {
  const username = `demo_${Date.now().toString(36)}`;
  await api('/Login/upregister', { account: username, lpwd: 'demo-pass-1', invit: '' });
  return api('/Login/loginsubmit', { email: username, lpwd: 'demo-pass-1' });
}

const SCREENS = [
  { file: 'login.png', path: '/login' },
  { file: 'register.png', path: '/register' },
  { file: 'setlang.png', path: '/Login/setlang' },
  { file: 'markets.png', path: '/Trade/tradelist' },
  { file: 'user.png', path: '/Index/uoption', signedIn: true },
  { file: 'login-de-DE.png', path: '/login', lang: 'de-DE' },
  { file: 'login-en-US.png', path: '/login', lang: 'en-US' },
  { file: 'user-de-DE.png', path: '/Index/uoption', lang: 'de-DE', signedIn: true },
];

const session = await signIn();
const browser = await launchChromium();
fs.mkdirSync(outDir, { recursive: true });
try {
  for (const screen of SCREENS) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: PHONE_UA,
      // why: price flashes are off with reduced motion, so the picture is calm.
      reducedMotion: 'reduce',
    });
    await context.addInitScript(
      ([lang, token, uid]) => {
        if (lang) localStorage.setItem('lang', lang);
        if (token) {
          localStorage.setItem('token', token);
          localStorage.setItem('uid', String(uid));
        }
      },
      [screen.lang ?? null, screen.signedIn ? session.token : null, session.uid],
    );
    const page = await context.newPage();
    await page.goto(`${base}/#${screen.path}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(outDir, screen.file) });
    console.log(`${screen.file}  ${page.url()}`);
    await context.close();
  }
} finally {
  await browser.close();
}
