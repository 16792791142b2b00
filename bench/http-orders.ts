// Order entry over HTTP, durable: the real server in its own process on SQLite (WAL,
// synchronous=FULL), driven by autocannon on loopback with a place/cancel mix from many users.
// The same server's /healthz is measured in the same run, so the ratio shows what order entry
// costs next to the cheapest route. Then a fixed offered rate measures the latency.
//
//   npm run bench:http-orders            (figures, then one summary line)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

const root = path.resolve(import.meta.dirname, '..');
const USERS = Number(process.env.BENCH_USERS ?? 40);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OFFERED_RATE = Number(process.env.BENCH_RATE ?? 2000);
const SYMBOL = 'BTCUSDT';

const ENV = {
  DEMO: 'on',
  CAPTCHA: 'off',
  RATE_LIMIT_STORE: 'memory',
  LIMIT_REGISTER_PER_IP: '100000/60',
  LIMIT_LOGIN_PER_IP: '100000/60',
  LIMIT_LOGIN_PER_ACCOUNT_IP: '100000/60',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  DATABASE_URL: '',
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Users with 10,000 USDT each (the demo credit). */
async function prepare(dataDir: string): Promise<string[]> {
  const app = await buildApp({
    config: loadConfig({ ...ENV, DATA_DIR: dataDir }),
    startFeed: false,
    logger: false,
  });
  try {
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const account = `bench${i}`;
      const form = (fields: Record<string, string>) => ({
        method: 'POST' as const,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
      await app.inject({ url: '/apiv/Login/upregister', ...form({ account, lpwd: 'bench-1234' }) });
      const login = (
        await app.inject({ url: '/apiv/Login/loginsubmit', ...form({ email: account, lpwd: 'bench-1234' }) })
      ).json();
      if (login.code !== 1000) throw new Error(`login ${account}: ${login.msg}`);
      tokens.push(login.data.token);
      const wallet = app.ctx.wallet;
      if (!wallet) throw new Error('no wallet');
      await app.ctx.store.db.transaction().execute((trx) => wallet.creditDemo(trx, BigInt(login.data.uid)));
    }
    return tokens;
  } finally {
    await app.close();
  }
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'apps/server/src/server.ts')], {
    env: { ...process.env, ...ENV, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}

interface Context {
  token?: string;
  orderId?: string;
}

/** Each connection is one user: place a resting limit buy, then cancel it, and again. */
function orderRequests(tokens: string[], price: string): autocannon.Request[] {
  let next = 0;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', Lang: 'en-us' };
  return [
    {
      method: 'POST' as const,
      path: '/apiv/Trade/place',
      headers,
      setupRequest: (request: autocannon.Request, context: Context) => {
        context.token ??= tokens[next++ % tokens.length];
        request.body = new URLSearchParams({
          symbol: SYMBOL,
          side: 'buy',
          type: 'limit',
          price,
          qty: '0.0001',
          idempotency_key: randomUUID(),
          token: context.token as string,
        }).toString();
        return request;
      },
      onResponse: (_status: number, body: string, context: Context) => {
        const answer = JSON.parse(body) as { code: number; data: { id: string } | null };
        context.orderId = answer.code === 1000 ? answer.data?.id : undefined;
        if (answer.code === 1000) placed++;
        else failed++;
      },
    },
    {
      method: 'POST' as const,
      path: '/apiv/Trade/cancel',
      headers,
      setupRequest: (request: autocannon.Request, context: Context) => {
        request.body = new URLSearchParams({
          id: context.orderId ?? '0',
          token: context.token as string,
        }).toString();
        return request;
      },
    },
  ];
}

let placed = 0;
let failed = 0;

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-orders-'));
let server: ChildProcess | undefined;
try {
  console.log(`preparing ${USERS} funded users on a fresh SQLite store …`);
  const tokens = await prepare(dataDir);
  const port = await freePort();
  server = await startServer(dataDir, port);
  const url = `http://127.0.0.1:${port}`;
  const tickers = (await (await fetch(`${url}/apiv/Market/tickers`)).json()) as {
    data: { symbol: string; price: string }[];
  };
  const index = tickers.data.find((t) => t.symbol === SYMBOL)?.price;
  if (!index) throw new Error(`no index for ${SYMBOL}`);
  // why: 3 % under the index: inside the 10 % band, far enough below any ask to rest.
  const price = (Math.floor(Number(index) * 0.97 * 100) / 100).toFixed(2);

  const orders = await run({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: orderRequests(tokens, price),
  });
  // why: both halves of each pair are order entry (place, then cancel), all acknowledged after commit.
  const ordersPerSecond = (orders.requests.total - orders.non2xx) / SECONDS;
  console.log(
    `order entry: ${orders.requests.total} requests in ${SECONDS} s (${placed} placed, ${failed} refused), ` +
      `${ordersPerSecond.toFixed(0)}/s, latency p50 ${orders.latency.p50} ms p99 ${orders.latency.p99} ms`,
  );

  const health = await run({ url: `${url}/healthz`, connections: CONNECTIONS, duration: SECONDS });
  const healthPerSecond = health.requests.total / SECONDS;
  console.log(`/healthz: ${healthPerSecond.toFixed(0)}/s, latency p99 ${health.latency.p99} ms`);

  const offered = await run({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    overallRate: OFFERED_RATE,
    requests: orderRequests(tokens, price),
  });
  console.log(
    `at ${OFFERED_RATE}/s offered: ${(offered.requests.total / SECONDS).toFixed(0)}/s served, ` +
      `latency p50 ${offered.latency.p50} ms p99 ${offered.latency.p99} ms`,
  );
  const ratio = ordersPerSecond / healthPerSecond;
  console.log(
    `http-orders orders_per_s=${ordersPerSecond.toFixed(0)} healthz_per_s=${healthPerSecond.toFixed(0)} ratio=${ratio.toFixed(2)} p99_ms=${offered.latency.p99}`,
  );
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
