import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../src/platform/metrics.ts';
import { type LoggedServer, startLoggedServer } from './logged-server.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const NOT_FOUND = { code: 1005, data: null };

async function getMetrics(server: LoggedServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/metrics`, { headers: { lang: 'en-us', ...headers } });
  const text = await response.text();
  return { status: response.status, text };
}

function expectMetrics(answer: { status: number; text: string }) {
  expect(answer.status).toBe(200);
  expect(answer.text).toContain('process_cpu_user_seconds_total');
}

function expectHidden(answer: { status: number; text: string }) {
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.text)).toMatchObject(NOT_FOUND);
  expect(answer.text).not.toContain('process_cpu');
}

describe('/metrics without a token', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a request from loopback', async () => {
    expectMetrics(await getMetrics(server));
  });

  it('hides itself from a request relayed by a proxy on this machine', async () => {
    expectHidden(await getMetrics(server, { 'x-forwarded-for': '203.0.113.9' }));
    expectHidden(await getMetrics(server, { forwarded: 'for=203.0.113.9' }));
    expectHidden(await getMetrics(server, { 'x-real-ip': '203.0.113.9' }));
  });

  it('hides itself from another address, and a bearer token opens nothing when none is configured', async () => {
    const remote = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toMatchObject(NOT_FOUND);
    const guessed = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer undefined' },
    });
    expect(guessed.statusCode).toBe(404);
  });
});

describe('/metrics with TRUST_PROXY on and METRICS_TOKEN set', () => {
  let server: LoggedServer;
  beforeAll(async () => {
    server = await startLoggedServer({ env: { TRUST_PROXY: 'on', METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('does not take a forwarded loopback address for a local request', async () => {
    expectMetrics(await getMetrics(server));
    expectHidden(await getMetrics(server, { 'x-forwarded-for': '127.0.0.1' }));
    expectHidden(await getMetrics(server, { 'x-forwarded-for': '203.0.113.9' }));
  });

  it('answers any address that brings the token, and no one with a wrong one', async () => {
    expectMetrics(
      await getMetrics(server, { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` }),
    );
    expectHidden(
      await getMetrics(server, { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}x` }),
    );
    expectHidden(await getMetrics(server, { 'x-forwarded-for': '203.0.113.9', authorization: TOKEN }));
    const remote = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '198.51.100.4',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(remote.statusCode).toBe(200);
    expect(remote.body).toContain('process_cpu_user_seconds_total');
    const remoteWithout = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '198.51.100.4',
    });
    expect(remoteWithout.statusCode).toBe(404);
  });
});

describe('isLoopbackAddress', () => {
  it('accepts 127.0.0.0/8, ::1 and IPv4-mapped loopback only', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '::1',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      '::FFFF:127.1.2.3',
    ])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of [
      '',
      undefined,
      '128.0.0.1',
      '10.0.0.1',
      '::ffff:10.0.0.1',
      '::2',
      '1::1',
      'fe80::1',
      '127.0.0.1.example',
      'localhost',
    ])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });
});
