// Order entry over HTTP, durable: the real server in its own process on SQLite (WAL, every
// answer after its write is synced), driven by autocannon on loopback with a place/cancel mix from
// many users. The same server's /healthz is measured in the same run, so the ratio shows what
// order entry costs next to the cheapest route. Then a steady offered rate (paced, open loop)
// measures the latency.
//
//   npm run bench:http-orders            (figures, then one summary line)
//   BENCH_MODES=sqlite,postgres,nodes npm run bench:http-orders
//                                        (also one server on a fresh PostgreSQL database, and three
//                                        nodes on one with a NATS server of their own, the load
//                                        spread over the three; then a line per mode to compare)
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeServer, processCpuMs, scrapeMetrics, serverFigures } from './lib/metrics.ts';
import { FORM_HEADERS, orderFlow, orderRequests, restingBuyPrice, runAutocannon } from './lib/order-load.ts';
import { paced, quantile } from './lib/paced.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';
import { type ModeFigures, measureOnPostgres, modeLine } from './lib/several-nodes.ts';

const USERS = Number(process.env.BENCH_USERS ?? 40);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OFFERED_RATE = Number(process.env.BENCH_RATE ?? 2000);
// why: each user has one request in flight at most (a cancel needs the place's answer), so the
// users cap what the paced phase can have outstanding. With 40, any stall over 20 ms at
// 2,000/s left requests waiting in the client for a free user, and the backlog then drained 40
// per batch: the client's limit, not the server's, set the tail. 200 users keep it open-loop.
const PACED_USERS = Number(process.env.BENCH_PACED_USERS ?? 200);
const MODES = (process.env.BENCH_MODES ?? 'sqlite').split(',').map((mode) => mode.trim());
const figures: ModeFigures[] = [];

// why: order entry alone; the demo market maker and traders would add orders of their own.
const ENV = { ...BENCH_ENV, DATABASE_URL: '', MARKET_MAKER: 'off' };

let placed = 0;
let failed = 0;

/** Thrown to pass over the SQLite measurement when BENCH_MODES leaves it out. */
class SkipSqlite extends Error {}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-orders-'));
let server: ChildProcess | undefined;
try {
  if (!MODES.includes('sqlite')) throw new SkipSqlite();
  const prepared = Math.max(USERS, PACED_USERS);
  console.log(`preparing ${prepared} funded users on a fresh SQLite store …`);
  const allTokens = await prepareUsers(ENV, dataDir, 'bench', prepared);
  const tokens = allTokens.slice(0, USERS);
  const port = await freePort();
  server = await startServer(ENV, dataDir, port);
  const url = `http://127.0.0.1:${port}`;
  const price = await restingBuyPrice(url);

  const ORDER_ROUTES = /\/Trade\/(place|cancel)$/i;
  const beforeOrders = await scrapeMetrics(url);
  const pid = server.pid as number;
  const ordersCpuBefore = processCpuMs(pid);
  const orders = await runAutocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: orderRequests(tokens, price, (accepted) => {
      if (accepted) placed++;
      else failed++;
    }),
  });
  const ordersCpuMs = processCpuMs(pid) - ordersCpuBefore;
  // why: both halves of each pair are order entry (place, then cancel), all acknowledged after commit.
  const ordersPerSecond = (orders.requests.total - orders.non2xx) / SECONDS;
  console.log(
    `order entry: ${orders.requests.total} requests in ${SECONDS} s (${placed} placed, ${failed} refused), ` +
      `${ordersPerSecond.toFixed(0)}/s, latency p50 ${orders.latency.p50} ms p99 ${orders.latency.p99} ms`,
  );

  console.log(
    `  the server's own view: ${describeServer(serverFigures(beforeOrders, await scrapeMetrics(url), ORDER_ROUTES))}`,
  );

  const healthCpuBefore = processCpuMs(pid);
  const health = await runAutocannon({ url: `${url}/healthz`, connections: CONNECTIONS, duration: SECONDS });
  const healthCpuMs = processCpuMs(pid) - healthCpuBefore;
  const healthPerSecond = health.requests.total / SECONDS;
  console.log(`/healthz: ${healthPerSecond.toFixed(0)}/s, latency p99 ${health.latency.p99} ms`);
  // why: the throughput ratio also moves with how the two cores are shared between the server and
  // autocannon; what each request costs the server's process in CPU, all its threads, is the
  // steadier view of what order entry costs next to /healthz.
  const cpuPerOrderUs = (ordersCpuMs * 1000) / orders.requests.total;
  const cpuPerHealthUs = (healthCpuMs * 1000) / health.requests.total;
  console.log(
    `the server's CPU: ${cpuPerOrderUs.toFixed(1)} µs an order (${(ordersCpuMs / (SECONDS * 10)).toFixed(0)} % of a core), ` +
      `${cpuPerHealthUs.toFixed(1)} µs a /healthz request (${(healthCpuMs / (SECONDS * 10)).toFixed(0)} % of a core); ` +
      `/healthz over order entry ${(cpuPerHealthUs / cpuPerOrderUs).toFixed(2)}`,
  );

  const beforePaced = await scrapeMetrics(url);
  const offered = await paced({
    port,
    rate: OFFERED_RATE,
    seconds: SECONDS,
    flows: allTokens.slice(0, PACED_USERS).map((token) => orderFlow(token, price)),
    headers: FORM_HEADERS,
  });
  const p99 = quantile(offered.latencies, 0.99);
  console.log(
    `at ${OFFERED_RATE}/s offered (paced, ${PACED_USERS} users): ${offered.completed} answered, ${offered.failed} failed, ` +
      `latency from the due time p50 ${quantile(offered.latencies, 0.5).toFixed(1)} ms ` +
      `p90 ${quantile(offered.latencies, 0.9).toFixed(1)} ms p99 ${p99.toFixed(1)} ms ` +
      `max ${quantile(offered.latencies, 1).toFixed(1)} ms; the client's own send delay p99 ` +
      `${quantile(offered.sendDelays, 0.99).toFixed(1)} ms, its CPU ${((offered.clientCpuMs / (SECONDS * 1000)) * 100).toFixed(0)} % of a core`,
  );
  console.log(
    `  the server's own view: ${describeServer(serverFigures(beforePaced, await scrapeMetrics(url), ORDER_ROUTES))}`,
  );
  const ratio = ordersPerSecond / healthPerSecond;
  console.log(
    `http-orders orders_per_s=${ordersPerSecond.toFixed(0)} healthz_per_s=${healthPerSecond.toFixed(0)} ratio=${ratio.toFixed(2)} p99_ms=${p99.toFixed(1)}`,
  );
  figures.push({ mode: 'sqlite', ordersPerSecond, p99Ms: orders.latency.p99, cpuUsPerOrder: cpuPerOrderUs });
} catch (error) {
  if (!(error instanceof SkipSqlite)) throw error;
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) =>
    server && server.exitCode === null ? server.once('exit', resolve) : resolve(null),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
}

for (const mode of MODES.filter((m) => m === 'postgres' || m === 'nodes')) {
  figures.push(
    await measureOnPostgres({
      mode,
      nodes: mode === 'nodes' ? 3 : 1,
      users: USERS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      env: ENV,
    }),
  );
}
if (figures.length > 1) {
  console.log('closed loop, order entry (place then cancel), the same load in each mode:');
  for (const row of figures) console.log(modeLine(row));
}
