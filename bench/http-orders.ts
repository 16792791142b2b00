// Order entry over HTTP, durable: the real server in its own process on SQLite (WAL,
// synchronous=FULL), driven by autocannon on loopback with a place/cancel mix from many users.
// The same server's /healthz is measured in the same run, so the ratio shows what order entry
// costs next to the cheapest route. Then a steady offered rate (paced, open loop) measures the
// latency.
//
//   npm run bench:http-orders            (figures, then one summary line)
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type PacedFlow, paced, quantile } from './lib/paced.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';

const USERS = Number(process.env.BENCH_USERS ?? 40);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OFFERED_RATE = Number(process.env.BENCH_RATE ?? 2000);
// why: the paced phase needs a flow free whenever a request is due; 40 users are plenty at 2,000/s.
const SYMBOL = 'BTCUSDT';

// why: order entry alone; the demo market maker and traders would add orders of their own.
const ENV = { ...BENCH_ENV, DATABASE_URL: '', MARKET_MAKER: 'off' };

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

/** One user's loop for the paced phase: place a resting limit buy, cancel it, and again. */
function orderFlow(token: string, price: string): PacedFlow {
  let orderId: string | undefined;
  return {
    next: () =>
      orderId === undefined
        ? {
            path: '/apiv/Trade/place',
            body: new URLSearchParams({
              symbol: SYMBOL,
              side: 'buy',
              type: 'limit',
              price,
              qty: '0.0001',
              idempotency_key: randomUUID(),
              token,
            }).toString(),
          }
        : { path: '/apiv/Trade/cancel', body: new URLSearchParams({ id: orderId, token }).toString() },
    answer: (_status, body) => {
      if (orderId !== undefined) {
        orderId = undefined;
        return;
      }
      const answer = JSON.parse(body) as { code: number; data: { id: string } | null };
      orderId = answer.code === 1000 ? answer.data?.id : undefined;
    },
  };
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-orders-'));
let server: ChildProcess | undefined;
try {
  console.log(`preparing ${USERS} funded users on a fresh SQLite store …`);
  const tokens = await prepareUsers(ENV, dataDir, 'bench', USERS);
  const port = await freePort();
  server = await startServer(ENV, dataDir, port);
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

  const offered = await paced({
    port,
    rate: OFFERED_RATE,
    seconds: SECONDS,
    flows: tokens.map((token) => orderFlow(token, price)),
    headers: { 'content-type': 'application/x-www-form-urlencoded', Lang: 'en-us' },
  });
  const p99 = quantile(offered.latencies, 0.99);
  console.log(
    `at ${OFFERED_RATE}/s offered (paced): ${offered.completed} answered, ${offered.failed} failed, ` +
      `latency from the due time p50 ${quantile(offered.latencies, 0.5).toFixed(1)} ms ` +
      `p90 ${quantile(offered.latencies, 0.9).toFixed(1)} ms p99 ${p99.toFixed(1)} ms ` +
      `max ${quantile(offered.latencies, 1).toFixed(1)} ms`,
  );
  const ratio = ordersPerSecond / healthPerSecond;
  console.log(
    `http-orders orders_per_s=${ordersPerSecond.toFixed(0)} healthz_per_s=${healthPerSecond.toFixed(0)} ratio=${ratio.toFixed(2)} p99_ms=${p99.toFixed(1)}`,
  );
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) =>
    server && server.exitCode === null ? server.once('exit', resolve) : resolve(null),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
}
