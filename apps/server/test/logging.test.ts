import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REDACTED, redactSecrets } from '../src/platform/logging.ts';
import { type LoggedServer, startLoggedServer } from './logged-server.ts';

const SECRET = 'SECRETc0ffee5e55i0n70ken';

describe('the log never holds a session token', () => {
  let server: LoggedServer;

  beforeAll(async () => {
    server = await startLoggedServer({
      routes: (app) => {
        // why: stand-ins for a developer who logs what a request carries, and for a fault whose
        // message quotes the URL: both must come out redacted.
        app.post('/test/echo', { schema: { hide: true } }, async (request) => {
          request.log.info(
            { headers: request.headers, body: request.body, query: request.query },
            'test: what came in',
          );
          return { ok: true };
        });
        app.get('/test/fail', { schema: { hide: true } }, async (request) => {
          throw new Error(`could not serve ${request.url}`);
        });
      },
    });

    const base = server.url;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // token in the query of a GET: an authenticated route (invalid session), an unknown path
    const unknownSession = await fetch(`${base}/apiv/User/getUserInfo?token=${SECRET}`);
    expect(((await unknownSession.json()) as { code: number }).code).toBe(100);
    expect((await fetch(`${base}/apiv/No/such/path?lang=en&token=${SECRET}`)).status).toBe(404);
    // token in a form body that fails validation, and in a JSON body that does not parse
    const invalid = await fetch(`${base}/apiv/Login/loginsubmit`, {
      method: 'POST',
      headers: form,
      body: `token=${SECRET}`,
    });
    expect(((await invalid.json()) as { code: number }).code).toBe(1002);
    const broken = await fetch(`${base}/apiv/Login/loginsubmit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"token":"${SECRET}", oops`,
    });
    expect(broken.status).toBe(400);
    // token in the Authorization header, a cookie, the query and the body of a route that logs them
    const echo = await fetch(`${base}/test/echo?token=${SECRET}`, {
      method: 'POST',
      headers: { ...form, authorization: `Bearer ${SECRET}`, cookie: `token=${SECRET}; theme=dark` },
      body: `token=${SECRET}&amount=5`,
    });
    expect(await echo.json()).toEqual({ ok: true });
    // a fault of ours whose message and stack quote the URL
    expect((await fetch(`${base}/test/fail?token=${SECRET}`)).status).toBe(500);
    // the WebSocket upgrade request
    const socket = new WebSocket(`${base.replace('http', 'ws')}/ws?token=${SECRET}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes the secret nowhere in the log', () => {
    const text = server.log.text();
    expect(text.length).toBeGreaterThan(1000);
    expect(text).not.toContain(SECRET);
  });

  it('logs each request once, with its id, method, status, time and the token shown as redacted', () => {
    const requests = server.log.lines().filter((line) => typeof line.path === 'string' && 'status' in line);
    for (const line of requests) {
      expect(line.reqId).toMatch(/^req-/);
      expect(typeof line.ms).toBe('number');
      expect(line.msg).toBe(`${line.method} ${line.path} ${line.status} ${line.ms} ms`);
    }
    expect(requests.map((line) => [line.method, line.status])).toEqual([
      ['GET', 200],
      ['GET', 404],
      ['POST', 200],
      ['POST', 400],
      ['POST', 200],
      ['GET', 500],
    ]);
    const upgrades = server.log.lines().filter((line) => line.upgrade === 'websocket');
    const urls = [...requests, ...upgrades].map((line) => line.path);
    expect(urls).toEqual([
      `/apiv/User/getUserInfo?token=${REDACTED}`,
      `/apiv/No/such/path?lang=en&token=${REDACTED}`,
      '/apiv/Login/loginsubmit',
      '/apiv/Login/loginsubmit',
      `/test/echo?token=${REDACTED}`,
      `/test/fail?token=${REDACTED}`,
      `/ws?token=${REDACTED}`,
    ]);
  });

  it('blanks the token and credential headers in logged objects, keeping the other fields', () => {
    const seen = server.log.lines().find((line) => line.msg === 'test: what came in');
    expect(seen).toMatchObject({
      headers: {
        authorization: REDACTED,
        cookie: REDACTED,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: { token: REDACTED, amount: '5' },
      query: { token: REDACTED },
    });
  });

  it('redacts the token inside an error message and stack', () => {
    const fault = server.log.lines().find((line) => line.msg === 'unhandled error');
    expect(fault?.level).toBe(50);
    const err = fault?.err as { message: string; stack: string };
    expect(err.message).toBe(`could not serve /test/fail?token=${REDACTED}`);
    expect(err.stack).toContain(`/test/fail?token=${REDACTED}`);
  });
});

describe('redactSecrets', () => {
  it('replaces tokens in URLs, form bodies, JSON text and bearer credentials only', () => {
    expect(redactSecrets('/a?token=abc&x=1')).toBe(`/a?token=${REDACTED}&x=1`);
    expect(redactSecrets('token=abc')).toBe(`token=${REDACTED}`);
    expect(redactSecrets('GET /a?x=1&Token=abc#h')).toBe(`GET /a?x=1&Token=${REDACTED}#h`);
    expect(redactSecrets('{"token": "abc", "n": 1}')).toBe(`{"token": "${REDACTED}", "n": 1}`);
    expect(redactSecrets('Authorization: Bearer abc.def')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactSecrets('/a?tokens=2&mytoken=3')).toBe('/a?tokens=2&mytoken=3');
  });
});

describe('demo accounts in production', () => {
  it('are not created by a production start without DEMO=on, and the log says so', async () => {
    // why: a production start needs real index sources; with the feed off nothing connects to them.
    const server = await startLoggedServer({
      env: { NODE_ENV: 'production', DEMO: '', INDEX_SOURCES: 'binance,okx,bybit' },
    });
    try {
      expect(server.config.demo).toBe(false);
      const users = await server.app.ctx.store.db.selectFrom('users').select('username').execute();
      expect(users).toEqual([]);
      const notes = server.log.lines().filter((line) => /demo accounts/i.test(line.msg ?? ''));
      expect(notes.map((line) => [line.level, line.demo])).toEqual([[30, false]]);
    } finally {
      await server.close();
    }
  });

  it('are created by a production start with DEMO=on, with a warning in the log', async () => {
    const server = await startLoggedServer({
      env: { NODE_ENV: 'production', DEMO: 'on', INDEX_SOURCES: 'binance,okx,bybit' },
    });
    try {
      const users = await server.app.ctx.store.db.selectFrom('users').select('username').execute();
      expect(users.map((u) => u.username).sort()).toEqual([
        'demo',
        'demo-trader-1',
        'demo-trader-2',
        'demo2',
        'lp_demo_a',
        'lp_demo_b',
        'market-maker',
        'perp-maker',
      ]);
      const notes = server.log.lines().filter((line) => /demo accounts/i.test(line.msg ?? ''));
      expect(notes.map((line) => [line.level, line.demo, line.seeded])).toEqual([[40, true, true]]);
    } finally {
      await server.close();
    }
  });
});
