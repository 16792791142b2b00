import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf, MAX_CLIENT_DEVICE_LENGTH, MAX_CLIENT_IP_LENGTH } from '../src/platform/http.ts';
import { type LoggedServer, startLoggedServer } from './logged-server.ts';

/** A test-only route that answers what the platform believes about the caller. */
function addWhoAmI(app: FastifyInstance): void {
  app.get('/test/whoami', { schema: { hide: true } }, async (request) => clientOf(request));
}

async function whoAmI(server: LoggedServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/test/whoami`, { headers });
  return (await response.json()) as { ip: string; device: string };
}

/** Registers an account over HTTP and returns the address stored with it. */
async function registerAndReadIp(server: LoggedServer, account: string, headers: Record<string, string>) {
  const response = await fetch(`${server.url}/apiv/Login/upregister`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en-us', ...headers },
    body: new URLSearchParams({ account, lpwd: 'secret123' }).toString(),
  });
  const answer = (await response.json()) as { code: number };
  expect(answer.code).toBe(1000);
  const row = await server.app.ctx.store.db
    .selectFrom('users')
    .select('reg_ip')
    .where('username', '=', account)
    .executeTakeFirstOrThrow();
  return row.reg_ip;
}

describe('without TRUST_PROXY (the default)', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer({ routes: addWhoAmI });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ignores X-Forwarded-For: the address is the socket peer', async () => {
    expect((await whoAmI(server)).ip).toBe('127.0.0.1');
    expect((await whoAmI(server, { 'x-forwarded-for': '203.0.113.9' })).ip).toBe('127.0.0.1');
    expect(await registerAndReadIp(server, 'proxyless', { 'x-forwarded-for': '203.0.113.9' })).toBe(
      '127.0.0.1',
    );
  });
});

describe('TRUST_PROXY=on', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer({ env: { TRUST_PROXY: 'on' }, routes: addWhoAmI });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes the client address from X-Forwarded-For, and stores it', async () => {
    expect((await whoAmI(server)).ip).toBe('127.0.0.1');
    expect((await whoAmI(server, { 'x-forwarded-for': '203.0.113.9' })).ip).toBe('203.0.113.9');
    expect((await whoAmI(server, { 'x-forwarded-for': '198.51.100.7, 10.0.0.2' })).ip).toBe('198.51.100.7');
    expect(await registerAndReadIp(server, 'proxied', { 'x-forwarded-for': '203.0.113.10' })).toBe(
      '203.0.113.10',
    );
  });

  it('caps a forwarded address and a User-Agent, which are text the client writes', async () => {
    const seen = await whoAmI(server, {
      'x-forwarded-for': 'a'.repeat(5000),
      'user-agent': 'U'.repeat(5000),
    });
    expect(seen).toEqual({
      ip: 'a'.repeat(MAX_CLIENT_IP_LENGTH),
      device: 'U'.repeat(MAX_CLIENT_DEVICE_LENGTH),
    });
    const stored = await registerAndReadIp(server, 'longaddress', {
      'x-forwarded-for': `${'f'.repeat(3000)}`,
    });
    expect(stored).toBe('f'.repeat(MAX_CLIENT_IP_LENGTH));
  });
});

describe('TRUST_PROXY with a hop count or a list of proxies', () => {
  it('believes only as many hops as configured', async () => {
    const server = await startLoggedServer({ env: { TRUST_PROXY: '1' }, routes: addWhoAmI });
    try {
      // one trusted hop (the loopback peer): the client is the last address it appended
      expect((await whoAmI(server, { 'x-forwarded-for': '192.0.2.66, 203.0.113.9' })).ip).toBe('203.0.113.9');
    } finally {
      await server.close();
    }
  });

  it('believes the header only from a listed proxy', async () => {
    const listed = await startLoggedServer({ env: { TRUST_PROXY: '127.0.0.0/8' }, routes: addWhoAmI });
    const unlisted = await startLoggedServer({ env: { TRUST_PROXY: '10.0.0.1,::1' }, routes: addWhoAmI });
    try {
      expect((await whoAmI(listed, { 'x-forwarded-for': '203.0.113.9' })).ip).toBe('203.0.113.9');
      expect((await whoAmI(unlisted, { 'x-forwarded-for': '203.0.113.9' })).ip).toBe('127.0.0.1');
    } finally {
      await listed.close();
      await unlisted.close();
    }
  });
});
