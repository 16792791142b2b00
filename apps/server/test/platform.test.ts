import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SimulatedPriceFeed } from '../src/modules/markets/price-feed.ts';
import { startServer, type TestServer } from './harness.ts';

/** Opens /ws and collects frames; `next` waits for the next frame that matches. */
async function openSocket(url: string) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  const frames: any[] = [];
  const waiters: { match: (f: any) => boolean; resolve: (f: any) => void }[] = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    const waiter = waiters.findIndex((w) => w.match(frame));
    if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(frame);
    else frames.push(frame);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const next = (match: (f: any) => boolean = () => true) =>
    new Promise<any>((resolve, reject) => {
      const queued = frames.findIndex(match);
      if (queued >= 0) return resolve(frames.splice(queued, 1)[0]);
      const timer = setTimeout(() => reject(new Error('no frame within 5 s')), 5000);
      waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  return {
    socket,
    next,
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
  };
}

describe('platform', () => {
  let server: TestServer;
  let webDist: string;

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>Bourse</title><div id="root"></div>',
    );
    fs.writeFileSync(
      path.join(webDist, 'assets', 'app-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(5000))});`,
    );
    // why: the markets and coins are rows the demo seed lists.
    server = await startServer('sqlite', { env: { WEB_DIST: webDist, DEMO: 'on' } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('answers /healthz', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(await response.json()).toEqual({
      status: 'ok',
      store: 'sqlite',
      feed: 'simulated',
      node: process.version,
    });
    expect(process.version).toMatch(/^v24\./);
  });

  it('lists every API route in the OpenAPI document at /docs', async () => {
    const html = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    expect(html.status).toBe(200);
    const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/admin-api/adjustments',
        '/admin-api/adjustments/{id}/approve',
        '/admin-api/adjustments/{id}/reject',
        '/admin-api/agents',
        '/admin-api/agents/{id}/decision',
        '/admin-api/audit',
        '/admin-api/content',
        '/admin-api/content-claims',
        '/admin-api/content-msb',
        '/admin-api/content-msb/delete',
        '/admin-api/content/{id}',
        '/admin-api/content/{id}/delete',
        '/admin-api/config/coins',
        '/admin-api/config/coins/{symbol}',
        '/admin-api/config/networks',
        '/admin-api/dashboard',
        '/admin-api/deposits',
        '/admin-api/deposits/{id}/confirm',
        '/admin-api/deposits/{id}/reject',
        '/admin-api/identity',
        '/admin-api/identity-policy',
        '/admin-api/index/sources',
        '/admin-api/index/sources/{symbol}/mapping',
        '/admin-api/identity/{id}',
        '/admin-api/identity/{id}/approve',
        '/admin-api/identity/{id}/image/{side}',
        '/admin-api/identity/{id}/reject',
        '/admin-api/launchpad/projects',
        '/admin-api/launchpad/projects/{id}',
        '/admin-api/launchpad/projects/{id}/cancel',
        '/admin-api/launchpad/projects/{id}/disabled',
        '/admin-api/launchpad/projects/{id}/inventory',
        '/admin-api/launchpad/projects/{id}/records',
        '/admin-api/launchpad/projects/{id}/schedule',
        '/admin-api/launchpad/referral',
        '/admin-api/launchpad/rewards',
        '/admin-api/launchpad/rewards/{id}/void',
        '/admin-api/mining/orders',
        '/admin-api/mining/pools',
        '/admin-api/mining/pools/{coin}/fund',
        '/admin-api/mining/products',
        '/admin-api/mining/products/{id}/status',
        '/admin-api/perp/adl',
        '/admin-api/perp/funding',
        '/admin-api/perp/health',
        '/admin-api/perp/insurance',
        '/admin-api/perp/liquidations',
        '/admin-api/perp/markets',
        '/admin-api/perp/markets/{symbol}',
        '/admin-api/perp/markets/{symbol}/insurance',
        '/apiv/Orepool/Profitlist',
        '/apiv/Orepool/buy',
        '/apiv/Orepool/index',
        '/apiv/Orepool/kjinfo',
        '/apiv/Orepool/profitline',
        '/apiv/Agent/apply',
        '/apiv/Agent/export',
        '/apiv/Agent/index',
        '/apiv/Agent/rewards',
        '/apiv/Agent/status',
        '/apiv/Issue/buy',
        '/apiv/Issue/details',
        '/apiv/Issue/index',
        '/apiv/Issue/issuelog',
        '/apiv/Issue/rewards',
        '/admin-api/mail/outbox',
        '/admin-api/notices/broadcasts',
        '/admin-api/platform/resume',
        '/admin-api/support/conversations',
        '/admin-api/support/conversations/{id}',
        '/admin-api/support/conversations/{id}/reply',
        '/admin-api/support/images/{name}',
        '/admin-api/ledger/check',
        '/admin-api/login',
        '/admin-api/logout',
        '/admin-api/me',
        '/admin-api/staff',
        '/admin-api/staff/{id}/status',
        '/admin-api/totp/enrol',
        '/admin-api/totp/verify',
        '/admin-api/users',
        '/admin-api/users/{id}',
        '/admin-api/users/{id}/adjust',
        '/admin-api/users/{id}/balances',
        '/admin-api/users/{id}/freeze',
        '/admin-api/users/{id}/logins',
        '/admin-api/users/{id}/statement',
        '/admin-api/users/{id}/trade-ban',
        '/admin-api/withdrawals',
        '/admin-api/delivery/contracts',
        '/admin-api/delivery/contracts/{id}',
        '/admin-api/delivery/exposure',
        '/admin-api/delivery/pnl',
        '/admin-api/delivery/products',
        '/admin-api/delivery/products/{symbol}',
        '/admin-api/delivery/trial-grants',
        '/admin-api/delivery/trial-plans',
        '/admin-api/delivery/trial-settings',
        '/admin-api/reserves/snapshots',
        '/admin-api/reserves/snapshots/{id}/entries',
        '/admin-api/reserves/snapshots/{id}/publish',
        '/admin-api/spot/demo-traders',
        '/admin-api/spot/market-maker',
        '/admin-api/spot/market-maker/{symbol}',
        '/admin-api/spot/markets',
        '/admin-api/spot/markets/{symbol}',
        '/admin-api/spot/markets/{symbol}/book',
        '/admin-api/spot/markets/{symbol}/halt',
        '/admin-api/spot/markets/{symbol}/resume',
        '/admin-api/spot/markets/{symbol}/trades',
        '/admin-api/spot/orders',
        '/admin-api/withdrawals/{id}/approve',
        '/admin-api/withdrawals/{id}/reject',
        '/apiv/Contract/cbillinfo',
        '/apiv/Contract/ctbill',
        '/apiv/Contract/index',
        '/apiv/Contract/place',
        '/apiv/Finance/coininfo',
        '/apiv/Finance/czhandle',
        '/apiv/Finance/czinfo',
        '/apiv/Finance/czlist',
        '/apiv/Finance/czpage',
        '/apiv/Finance/getallzhehe',
        '/apiv/Finance/getcoinnum',
        '/apiv/Finance/getmoney',
        '/apiv/Finance/getsymbol',
        '/apiv/Finance/index',
        '/apiv/Finance/tbhandle',
        '/apiv/Finance/txcoin',
        '/apiv/Finance/txinfo',
        '/apiv/Finance/txlist',
        '/apiv/Finance/txpage',
        '/apiv/Finance/zhuanhua',
        '/apiv/Index/claims',
        '/apiv/Index/gginfo',
        '/apiv/Index/gglist',
        '/apiv/Index/help',
        '/apiv/Index/helpinfo',
        '/apiv/Index/marquee',
        '/apiv/Index/msbcert',
        '/apiv/Index/page',
        '/apiv/Index/terms',
        '/apiv/Login/captcha',
        '/apiv/Login/config',
        '/apiv/Login/loginsubmit',
        '/apiv/Login/logout',
        '/apiv/Login/upregister',
        '/apiv/Login/upregister_phone',
        '/apiv/Market/candles',
        '/apiv/Market/depth',
        '/apiv/Market/index',
        '/apiv/Market/kline',
        '/apiv/Market/spot',
        '/apiv/Market/spottickers',
        '/apiv/Market/tickers',
        '/apiv/Market/trades',
        '/apiv/Perp/account',
        '/apiv/Perp/cancel',
        '/apiv/Perp/close',
        '/apiv/Perp/depth',
        '/apiv/Perp/funding',
        '/apiv/Perp/leverage',
        '/apiv/Perp/liquidations',
        '/apiv/Perp/margin',
        '/apiv/Perp/markets',
        '/apiv/Perp/order',
        '/apiv/Perp/orders',
        '/apiv/Perp/place',
        '/apiv/Perp/rates',
        '/apiv/Perp/ticker',
        '/apiv/Perp/tpsl',
        '/apiv/Perp/trades',
        '/apiv/por/proof',
        '/apiv/por/snapshots',
        '/apiv/por/statement',
        '/apiv/Trade/billinfo',
        '/apiv/Trade/cancel',
        '/apiv/Trade/cancelall',
        '/apiv/Trade/mytrades',
        '/apiv/Trade/openorders',
        '/apiv/Trade/place',
        '/apiv/Trade/tradebill',
        '/apiv/User/czcoin',
        '/apiv/User/getUserInfo',
        '/apiv/User/sub_withdrawpwd',
        '/apiv/user/addaddress',
        '/apiv/user/addbank',
        '/apiv/user/addresslist',
        '/apiv/user/billinfo',
        '/apiv/user/tgcode',
        '/apiv/user/acceptterms',
        '/apiv/user/terms',
        '/apiv/user/deladdress',
        '/apiv/user/delbank',
        '/apiv/user/index',
        '/apiv/user/mybill',
        '/apiv/user/online',
        '/apiv/user/sub_respwd',
        '/apiv/user/userbanklist',
        '/apiv/Login/resetpwd',
        '/apiv/Login/sendresetcode',
        '/apiv/User/noticeinfo',
        '/apiv/user/antiphishing',
        '/apiv/user/authrz',
        '/apiv/user/bindemail',
        '/apiv/user/bindmobile',
        '/apiv/user/chat',
        '/apiv/user/chatimage',
        '/apiv/user/chatimg',
        '/apiv/user/chatread',
        '/apiv/user/chatsend',
        '/apiv/user/endothers',
        '/apiv/user/endsession',
        '/apiv/user/loginlog',
        '/apiv/user/notice',
        '/apiv/user/noticecount',
        '/apiv/user/readnoticeone',
        '/apiv/user/security',
        '/apiv/user/sendemailcode',
        '/apiv/user/sessions',
        '/apiv/user/totpdisable',
        '/apiv/user/totpenable',
        '/apiv/user/totpsetup',
        '/apiv/user/upauthimg',
        '/apiv/user/upauthrz',
      ].sort(),
    );
  });

  it('exports Prometheus metrics with request latency', async () => {
    await fetch(`${server.url}/apiv/Login/config`);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/apiv\/Login\/config"/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('compresses responses and caches hashed assets for a year', async () => {
    const asset = await fetch(`${server.url}/assets/app-abc123.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    const index = await fetch(`${server.url}/`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('<div id="root">');
    const docs = await fetch(`${server.url}/docs/json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(docs.headers.get('content-encoding')).toBe('gzip');
  });

  it('lists the demo markets with simulated index prices and 24h change', async () => {
    const answer = await server.call('GET', '/Market/tickers');
    expect(answer.code).toBe(1000);
    const symbols = answer.data.map((t: { symbol: string }) => t.symbol);
    expect(symbols).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
      'XRPUSDT',
      'DOGEUSDT',
      'LTCUSDT',
      'BNBUSDT',
      'TRXUSDT',
    ]);
    for (const ticker of answer.data) {
      expect(ticker.source).toBe('simulated');
      expect(ticker.price).toMatch(/^\d+\.\d+$/);
      expect(ticker.change24h).toMatch(/^-?\d+\.\d{2}$/);
      expect(Number(ticker.low24h)).toBeLessThanOrEqual(Number(ticker.price));
      expect(Number(ticker.high24h)).toBeGreaterThanOrEqual(Number(ticker.price));
    }
  });

  it('pushes tickers over /ws: snapshot on subscribe, then every update', async () => {
    const ws = await openSocket(server.url);
    ws.send({ op: 'subscribe', channel: 'ticker' });
    const snapshot = await ws.next((f) => f.channel === 'ticker');
    expect(snapshot.data).toHaveLength(8);
    server.clock.advance(1000);
    (server.app.ctx.feed as SimulatedPriceFeed).tick();
    const update = await ws.next((f) => f.channel === 'ticker');
    expect(update.data[0].ts).toBe(snapshot.data[0].ts + 1000);
    expect(update.data.map((t: { price: string }) => t.price)).not.toEqual(
      snapshot.data.map((t: { price: string }) => t.price),
    );

    ws.send('not json');
    expect(await ws.next((f) => f.op === 'error')).toMatchObject({ msg: 'bad json' });
    ws.send({ op: 'subscribe', channel: 'nope' });
    expect(await ws.next((f) => f.op === 'error')).toMatchObject({ msg: 'unknown channel' });
    ws.send({ op: 'ping' });
    expect(await ws.next((f) => f.op === 'pong')).toEqual({ op: 'pong' });
    ws.send({ op: 'unsubscribe', channel: 'ticker' });
    expect(await ws.next((f) => f.op === 'unsubscribed')).toEqual({ op: 'unsubscribed', channel: 'ticker' });
    ws.socket.close();
  });

  it('replays the same prices from the same seed', async () => {
    const other = await startServer('sqlite', { env: { DEMO: 'on' } });
    try {
      const a = (await server.call('GET', '/Market/tickers')).data;
      const b = (await other.call('GET', '/Market/tickers')).data;
      // server has ticked once more than `other`; tick `other` the same way and compare
      other.clock.advance(1000);
      (other.app.ctx.feed as SimulatedPriceFeed).tick();
      const b2 = (await other.call('GET', '/Market/tickers')).data;
      expect(b2.map((t: { price: string }) => t.price)).toEqual(a.map((t: { price: string }) => t.price));
      expect(b.map((t: { open24h: string }) => t.open24h)).toEqual(
        a.map((t: { open24h: string }) => t.open24h),
      );
    } finally {
      await other.close();
    }
  });
});

describe('demo data', () => {
  it('seeds demo accounts once on first start', async () => {
    const server = await startServer('sqlite', { env: { DEMO: 'on' } });
    try {
      const login = await server.call('POST', '/Login/loginsubmit', { email: 'demo', lpwd: 'demo1234' });
      expect(login.code).toBe(1000);
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
    } finally {
      await server.close();
    }
  });
});
