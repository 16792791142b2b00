// Order entry, two builds measured in pairs: on a machine whose speed drifts (a shared virtual
// machine), single runs of `bench:http-orders` cannot show a 10 % change. This runs the server
// of this checkout and of another one (`BENCH_BASE`, e.g. a `git worktree` of an older commit) at
// the same time, each on a fresh SQLite store, and alternates the load between them round by
// round, so both see the same machine: orders as fast as they come, `/healthz`, and (with
// `BENCH_PACED_SECONDS`) a paced 2,000/s. The server's CPU time per order is read from /proc.
//
//   git worktree add ../base <commit> && (cd ../base && npm ci)
//   BENCH_BASE=../base npm run bench:pair-orders
//
// Settings: BENCH_ROUNDS (8), BENCH_SECONDS (orders per round, 2), BENCH_CONNECTIONS (40),
// BENCH_PACED_SECONDS (0: no paced phase), BENCH_WARMUP_ROUNDS (1, not counted),
// BENCH_ENV_BASE / BENCH_ENV_HERE (JSON objects of extra server settings, to compare one setting
// on the same build: BENCH_BASE=. then).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processCpuMs } from './lib/metrics.ts';
import { FORM_HEADERS, orderFlow, orderRequests, restingBuyPrice, runAutocannon } from './lib/order-load.ts';
import { paced, quantile } from './lib/paced.ts';

const base = process.env.BENCH_BASE;
if (!base) throw new Error('BENCH_BASE names the other checkout (see the comment at the top)');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 0);
// why: the first round on a fresh server and a fresh client counts compilation, the store's first
// inline checkpoints and a growing young generation; a warm-up round on each side keeps them out.
const WARMUP_ROUNDS = Number(process.env.BENCH_WARMUP_ROUNDS ?? 1);

interface Side {
  name: string;
  server: ChildProcess;
  port: number;
  tokens: string[];
  price: string;
  dataDir: string;
  orders: number;
  health: number;
  cpuMs: number;
  latencies: number[];
}

type ServerLib = typeof import('./lib/server.ts');

async function startSide(name: string, root: string, extra: Record<string, string>): Promise<Side> {
  // why: each checkout's own helpers, so each side runs its own build of the server.
  const lib = (await import(path.resolve(root, 'bench/lib/server.ts'))) as ServerLib;
  const env = { ...lib.BENCH_ENV, DATABASE_URL: '', MARKET_MAKER: 'off', ...extra };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bourse-pair-${name}-`));
  const tokens = await lib.prepareUsers(env, dataDir, 'bench', CONNECTIONS);
  const port = await lib.freePort();
  const server = await lib.startServer(env, dataDir, port);
  const price = await restingBuyPrice(`http://127.0.0.1:${port}`);
  return { name, server, port, tokens, price, dataDir, orders: 0, health: 0, cpuMs: 0, latencies: [] };
}

/**
 * One round on one side: orders as fast as they come, `/healthz`, and the paced load; added to
 * the side's figures when `counted` (a warm-up round is not).
 */
async function runRound(side: Side, counted: boolean): Promise<void> {
  const url = `http://127.0.0.1:${side.port}`;
  const pid = side.server.pid as number;
  const before = processCpuMs(pid);
  const orders = await runAutocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: orderRequests(side.tokens, side.price),
  });
  const cpu = processCpuMs(pid) - before;
  const health = await runAutocannon({ url: `${url}/healthz`, connections: CONNECTIONS, duration: 1 });
  const latencies =
    PACED_SECONDS > 0
      ? (
          await paced({
            port: side.port,
            rate: 2000,
            seconds: PACED_SECONDS,
            flows: side.tokens.map((token) => orderFlow(token, side.price)),
            headers: FORM_HEADERS,
          })
        ).latencies
      : [];
  if (!counted) return;
  side.cpuMs += cpu;
  side.orders += orders.requests.total;
  side.health += health.requests.total;
  side.latencies.push(...latencies);
}

const parse = (text: string | undefined): Record<string, string> => (text ? JSON.parse(text) : {});
const sides = [
  await startSide('base', base, parse(process.env.BENCH_ENV_BASE)),
  await startSide('here', '.', parse(process.env.BENCH_ENV_HERE)),
];
try {
  for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
    // why: alternate which side goes first, so neither always follows the other's load.
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await runRound(side, round >= 0);
  }
  for (const side of sides) {
    const ordersPerSecond = side.orders / (SECONDS * ROUNDS);
    const healthPerSecond = side.health / ROUNDS;
    side.latencies.sort((a, b) => a - b);
    const latency = PACED_SECONDS
      ? ` paced p50 ${quantile(side.latencies, 0.5).toFixed(1)} ms p99 ${quantile(side.latencies, 0.99).toFixed(1)} ms`
      : '';
    console.log(
      `${side.name.padEnd(4)} orders/s ${ordersPerSecond.toFixed(0)} healthz/s ${healthPerSecond.toFixed(0)} ` +
        `ratio ${(ordersPerSecond / healthPerSecond).toFixed(3)} cpu µs/order ${((side.cpuMs * 1000) / side.orders).toFixed(1)}${latency}`,
    );
  }
} finally {
  for (const side of sides) {
    side.server.kill('SIGTERM');
    await new Promise((resolve) =>
      side.server.exitCode === null ? side.server.once('exit', resolve) : resolve(null),
    );
    fs.rmSync(side.dataDir, { recursive: true, force: true });
  }
}
