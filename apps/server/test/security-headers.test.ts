import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

const INLINE_STYLE = 'html,body{background:#0b0e14}';
const INLINE_SCRIPT = 'document.documentElement.dataset.boot="1"';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

const APP_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "manifest-src 'self'",
  "object-src 'none'",
  `script-src 'self' 'sha256-${sha256(INLINE_SCRIPT)}'`,
  "script-src-attr 'none'",
  `style-src 'self' 'sha256-${sha256(INLINE_STYLE)}'`,
].join(';');

const DOCS_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join(';');

/** The headers every answer carries, whatever it is. */
const COMMON = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Fetches `url` and reads the whole body, so no connection is left busy when the server closes. */
async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const body = await response.text();
  return { status: response.status, headers: response.headers, body };
}

function pick(response: { headers: Headers }, names: string[]): Record<string, string | null> {
  return Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
}

function makeWebDist(): string {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    `<!doctype html><html><head><style>${INLINE_STYLE}</style>` +
      '<script type="module" crossorigin src="/assets/app.js"></script></head>' +
      `<body><div id="root"></div><script>${INLINE_SCRIPT}</script></body></html>`,
  );
  fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'export {};');
  return webDist;
}

describe('security headers', () => {
  let server: TestServer;
  let behindProxy: TestServer;
  let webDist: string;

  beforeAll(async () => {
    webDist = makeWebDist();
    [server, behindProxy] = await Promise.all([
      startServer('sqlite', { env: { WEB_DIST: webDist } }),
      startServer('sqlite', { env: { WEB_DIST: webDist, TRUST_PROXY: 'on' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), behindProxy?.close()]);
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('gives the customer app its policy, with the inline blocks of index.html allowed by hash only', async () => {
    for (const target of ['/', '/index.html', '/assets/app.js']) {
      const response = await get(`${server.url}${target}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(APP_POLICY);
      expect(pick(response, Object.keys(COMMON))).toEqual(COMMON);
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
    expect(APP_POLICY).not.toContain('unsafe-inline');
  });

  it('puts the same headers on API answers, errors and unknown paths', async () => {
    for (const [target, status] of [
      ['/apiv/Market/tickers', 200],
      ['/apiv/User/getUserInfo', 200],
      ['/apiv/no/such/call', 404],
      ['/healthz', 200],
    ] as const) {
      const response = await get(`${server.url}${target}`);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-security-policy')).toBe(APP_POLICY);
      expect(pick(response, Object.keys(COMMON))).toEqual(COMMON);
    }
  });

  it('gives swagger-ui under /docs its own policy, and the document still answers', async () => {
    const page = await get(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.headers.get('content-security-policy')).toBe(DOCS_POLICY);
    expect(pick(page, Object.keys(COMMON))).toEqual(COMMON);

    const bundle = await get(`${server.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-security-policy')).toBe(DOCS_POLICY);

    const document = await get(`${server.url}/docs/json`);
    expect(document.status).toBe(200);
    expect((JSON.parse(document.body) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('sends HSTS only when the request came over TLS, as a trusted proxy says', async () => {
    const overTls = await get(`${behindProxy.url}/`, { 'x-forwarded-proto': 'https' });
    expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await get(`${behindProxy.url}/`, { 'x-forwarded-proto': 'http' });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    // without TRUST_PROXY the header is the client's word, not the proxy's: no HSTS
    const spoofed = await get(`${server.url}/`, { 'x-forwarded-proto': 'https' });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
  });
});
