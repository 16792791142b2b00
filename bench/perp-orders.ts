// Perpetual order entry over HTTP, measured like spot's (bench/http-orders.ts), then a
// liquidation cascade.
//
// 1. Order entry: the real server in its own process on SQLite (WAL, every answer after its write
//    is synced), the demo markets with the market makers off, the mark driven once a second from
//    the simulated index. Autocannon on loopback: many users each place a resting perpetual limit
//    buy of 0.001 BTC (3 % under the mark, inside the 5 % band) on BTCUSDT and cancel it, again
//    and again (a closed loop); then spot's place/cancel mix on the same server and users, for
//    comparison in the same run; then /healthz; then the perpetual mix at a steady offered rate
//    (paced, open loop) for the latency. The server's CPU per order comes from /proc, its own view
//    of each phase from its /metrics.
// 2. Liquidation cascade (bench/lib/perp-cascade.ts), in process: 1,000 longs at 5x, one index
//    move that puts them all past their liquidation price, one pricing tick; the time until every
//    position is closed, the liquidations, the insurance fund and the unwind.
//
//   npm run bench:perp-orders            (figures, then one summary line)
//
// Settings: BENCH_USERS (40), BENCH_CONNECTIONS (40), BENCH_SECONDS (10), BENCH_RATE (paced
// orders/s, 1000), BENCH_PACED_USERS (200), BENCH_SPOT (on: spot's mix beside), BENCH_POSITIONS
// (1000), BENCH_SHORTS (4), BENCH_BID_SHARE (0.5), BENCH_CASCADE_FROM / _TO (index 60000 → 48000),
// BENCH_CASCADE_PROF=<file> (the CPU profile of the mark move), BENCH_CPU_PROF=<dir> (the server's).

import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { describeServer, processCpuMs, scrapeMetrics, serverFigures } from './lib/metrics.ts';
import { FORM_HEADERS, orderRequests, restingBuyPrice, runAutocannon } from './lib/order-load.ts';
import { type PacedFlow, paced, quantile } from './lib/paced.ts';
import { atomsText, measureCascade } from './lib/perp-cascade.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';

const USERS = Number(process.env.BENCH_USERS ?? 40);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OFFERED_RATE = Number(process.env.BENCH_RATE ?? 1000);
const PACED_USERS = Number(process.env.BENCH_PACED_USERS ?? 200);
const SPOT = (process.env.BENCH_SPOT ?? 'on') !== 'off';
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 1000);
const SHORTS = Number(process.env.BENCH_SHORTS ?? 4);
const BID_SHARE = Number(process.env.BENCH_BID_SHARE ?? 0.5);
const CASCADE_FROM = process.env.BENCH_CASCADE_FROM ?? '60000';
const CASCADE_TO = process.env.BENCH_CASCADE_TO ?? '48000';

// why: order entry alone; the demo market makers (spot and perpetual) would add orders of their own.
const ENV = { ...BENCH_ENV, DATABASE_URL: '', MARKET_MAKER: 'off' };
const PERP_SYMBOL = 'BTCUSDT';
const PERP_QTY = '0.001';
const PERP_ROUTES = /\/Perp\/(place|cancel)$/i;
const SPOT_ROUTES = /\/Trade\/(place|cancel)$/i;

function perpPlaceBody(price: string, token: string): string {
  return new URLSearchParams({
    symbol: PERP_SYMBOL,
    side: 'buy',
    type: 'limit',
    price,
    qty: PERP_QTY,
    idempotency_key: randomUUID(),
    token,
  }).toString();
}

function perpCancelBody(orderId: string, token: string): string {
  return new URLSearchParams({ id: orderId, token }).toString();
}

/** The order id in a perpetual place's answer (a list of orders; undefined when refused). */
function perpPlacedId(body: string): string | undefined {
  const answer = JSON.parse(body) as { code: number; data: { id: string }[] | null };
  return answer.code === 1000 ? answer.data?.[0]?.id : undefined;
}

interface Context {
  token?: string;
  orderId?: string;
}

/** Autocannon's requests: each connection takes the next user and places, then cancels. */
function perpRequests(
  tokens: readonly string[],
  price: string,
  onPlace: (accepted: boolean, body: string) => void,
): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/apiv/Perp/place',
      headers: FORM_HEADERS,
      setupRequest: (request: autocannon.Request, context: Context) => {
        context.token ??= tokens[next++ % tokens.length];
        request.body = perpPlaceBody(price, context.token as string);
        return request;
      },
      onResponse: (_status: number, body: string, context: Context) => {
        context.orderId = perpPlacedId(body);
        onPlace(context.orderId !== undefined, body);
      },
    },
    {
      method: 'POST',
      path: '/apiv/Perp/cancel',
      headers: FORM_HEADERS,
      setupRequest: (request: autocannon.Request, context: Context) => {
        request.body = perpCancelBody(context.orderId ?? '0', context.token as string);
        return request;
      },
    },
  ];
}

function perpFlow(token: string, price: string): PacedFlow {
  let orderId: string | undefined;
  return {
    next: () =>
      orderId === undefined
        ? { path: '/apiv/Perp/place', body: perpPlaceBody(price, token) }
        : { path: '/apiv/Perp/cancel', body: perpCancelBody(orderId, token) },
    answer: (_status, body) => {
      orderId = orderId === undefined ? perpPlacedId(body) : undefined;
    },
  };
}

/** A perpetual limit buy that rests: 3 % under the mark (inside the 5 % band), on the 0.1 tick. */
async function perpRestingBuyPrice(url: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const ticker = (await (await fetch(`${url}/apiv/Perp/ticker?symbol=${PERP_SYMBOL}`)).json()) as {
      data: { mark: string | null } | null;
    };
    const mark = ticker.data?.mark;
    if (mark) return (Math.floor(Number(mark) * 0.97 * 10) / 10).toFixed(1);
    // why: the pricing loop sets the first mark within a second of the first index.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mark for ${PERP_SYMBOL}`);
}

interface LoadFigures {
  perSecond: number;
  cpuUsPerOrder: number;
  p99Ms: number;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-perp-'));
let server: ChildProcess | undefined;
let perp: LoadFigures;
let spot: LoadFigures | undefined;
let healthPerSecond: number;
let pacedP99: number;
try {
  const prepared = Math.max(USERS, PACED_USERS);
  console.log(`order entry: preparing ${prepared} funded users on a fresh SQLite store …`);
  const allTokens = await prepareUsers(ENV, dataDir, 'bench', prepared);
  const tokens = allTokens.slice(0, USERS);
  const port = await freePort();
  server = await startServer(ENV, dataDir, port);
  const url = `http://127.0.0.1:${port}`;
  const pid = server.pid as number;
  const perpPrice = await perpRestingBuyPrice(url);

  /** One closed-loop phase of place/cancel pairs: its figures and the server's view. */
  const closedLoop = async (
    name: string,
    requests: autocannon.Request[],
    routes: RegExp,
    counts: { placed: number; refused: number },
  ): Promise<LoadFigures> => {
    const before = await scrapeMetrics(url);
    const cpuBefore = processCpuMs(pid);
    const result = await runAutocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests });
    const cpuMs = processCpuMs(pid) - cpuBefore;
    // why: both halves of each pair are order entry (place, then cancel), all acknowledged after commit.
    const perSecond = (result.requests.total - result.non2xx) / SECONDS;
    const cpuUsPerOrder = (cpuMs * 1000) / result.requests.total;
    console.log(
      `${name}: ${result.requests.total} requests in ${SECONDS} s (${counts.placed} placed, ${counts.refused} refused), ` +
        `${perSecond.toFixed(0)}/s, latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms; ` +
        `the server's CPU ${cpuUsPerOrder.toFixed(1)} µs an order (${(cpuMs / (SECONDS * 10)).toFixed(0)} % of a core)`,
    );
    console.log(
      `  the server's own view: ${describeServer(serverFigures(before, await scrapeMetrics(url), routes))}`,
    );
    return { perSecond, cpuUsPerOrder, p99Ms: result.latency.p99 };
  };

  const perpCounts = { placed: 0, refused: 0 };
  let firstRefusal: string | undefined;
  perp = await closedLoop(
    `perpetual order entry (BTCUSDT, limit buy ${PERP_QTY} at ${perpPrice}, then cancel)`,
    perpRequests(tokens, perpPrice, (accepted, body) => {
      if (accepted) perpCounts.placed++;
      else {
        perpCounts.refused++;
        firstRefusal ??= body;
      }
    }),
    PERP_ROUTES,
    perpCounts,
  );
  if (firstRefusal) console.log(`  the first refused place answered: ${firstRefusal.slice(0, 200)}`);

  if (SPOT) {
    const spotCounts = { placed: 0, refused: 0 };
    spot = await closedLoop(
      "spot order entry (bench:http-orders' mix, same server and users)",
      orderRequests(tokens, await restingBuyPrice(url), (accepted) => {
        if (accepted) spotCounts.placed++;
        else spotCounts.refused++;
      }),
      SPOT_ROUTES,
      spotCounts,
    );
  }

  const healthCpuBefore = processCpuMs(pid);
  const health = await runAutocannon({ url: `${url}/healthz`, connections: CONNECTIONS, duration: SECONDS });
  const healthCpuMs = processCpuMs(pid) - healthCpuBefore;
  healthPerSecond = health.requests.total / SECONDS;
  const cpuPerHealthUs = (healthCpuMs * 1000) / health.requests.total;
  console.log(
    `/healthz: ${healthPerSecond.toFixed(0)}/s, latency p99 ${health.latency.p99} ms; the server's CPU ` +
      `${cpuPerHealthUs.toFixed(1)} µs a request; perpetual order entry over /healthz ` +
      `${(perp.perSecond / healthPerSecond).toFixed(2)} (throughput), ${(cpuPerHealthUs / perp.cpuUsPerOrder).toFixed(2)} (CPU)`,
  );

  const beforePaced = await scrapeMetrics(url);
  const offered = await paced({
    port,
    rate: OFFERED_RATE,
    seconds: SECONDS,
    flows: allTokens.slice(0, PACED_USERS).map((token) => perpFlow(token, perpPrice)),
    headers: FORM_HEADERS,
  });
  pacedP99 = quantile(offered.latencies, 0.99);
  console.log(
    `perpetual at ${OFFERED_RATE}/s offered (paced, ${PACED_USERS} users): ${offered.completed} answered, ${offered.failed} failed, ` +
      `latency from the due time p50 ${quantile(offered.latencies, 0.5).toFixed(1)} ms ` +
      `p90 ${quantile(offered.latencies, 0.9).toFixed(1)} ms p99 ${pacedP99.toFixed(1)} ms ` +
      `max ${quantile(offered.latencies, 1).toFixed(1)} ms; the client's own send delay p99 ` +
      `${quantile(offered.sendDelays, 0.99).toFixed(1)} ms, its CPU ${((offered.clientCpuMs / (SECONDS * 1000)) * 100).toFixed(0)} % of a core`,
  );
  console.log(
    `  the server's own view: ${describeServer(serverFigures(beforePaced, await scrapeMetrics(url), PERP_ROUTES))}`,
  );
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) =>
    server && server.exitCode === null ? server.once('exit', resolve) : resolve(null),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  `liquidation cascade (in process, SQLite, manual clock): ${POSITIONS} longs, index ${CASCADE_FROM} → ${CASCADE_TO} …`,
);
const cascade = await measureCascade({
  env: ENV,
  positions: POSITIONS,
  shorts: SHORTS,
  from: CASCADE_FROM,
  to: CASCADE_TO,
  bidShare: BID_SHARE,
  log: (line) => console.log(line),
});
console.log(
  `  the mark ${atomsText(cascade.markBefore, 1)} → ${atomsText(cascade.markAfter, 1)} in one pricing tick: ` +
    `${cascade.openBefore - cascade.openAfter} of ${cascade.openBefore} longs closed (${cascade.openAfter} still open) ` +
    `${cascade.closedMs.toFixed(1)} ms after the tick began (its one batch committed); ` +
    `the clearing alone on a copy ${cascade.clearingMs.toFixed(1)} ms`,
);
console.log(
  `  ${cascade.liquidations} liquidations, ${cascade.adl} ADL; the fund's unwind: ${cascade.unwindFills} fills ` +
    `(${atomsText(cascade.unwindQty, 3)} BTC), ${cascade.lotsKept} lots kept (${atomsText(cascade.lotsQty, 3)} BTC); ` +
    `insurance ${atomsText(cascade.insuranceBefore)} → ${atomsText(cascade.insuranceAfter)} USDT ` +
    `(${cascade.insuranceAfter >= cascade.insuranceBefore ? '+' : ''}${atomsText(cascade.insuranceAfter - cascade.insuranceBefore)})`,
);

console.log(
  `perp-orders orders_per_s=${perp.perSecond.toFixed(0)} cpu_us_per_order=${perp.cpuUsPerOrder.toFixed(1)} ` +
    `healthz_per_s=${healthPerSecond.toFixed(0)} ratio=${(perp.perSecond / healthPerSecond).toFixed(2)} ` +
    `p99_ms=${pacedP99.toFixed(1)}` +
    (spot
      ? ` spot_orders_per_s=${spot.perSecond.toFixed(0)} spot_cpu_us_per_order=${spot.cpuUsPerOrder.toFixed(1)}`
      : '') +
    ` liquidated=${cascade.liquidations} cascade_ms=${cascade.closedMs.toFixed(0)}`,
);
