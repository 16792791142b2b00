// Order entry on PostgreSQL: one server, or several nodes of one exchange on one database and a
// NATS server of their own, the load spread over the nodes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Cluster, clusterSkipReason, startCluster } from '../../apps/server/test/cluster.ts';
import { processCpuMs } from './metrics.ts';
import { orderRequests, restingBuyPrice, runAutocannon } from './order-load.ts';
import { prepareUsers } from './server.ts';

export interface ModeFigures {
  mode: string;
  ordersPerSecond: number;
  /** Closed-loop latency p99 (ms); over several nodes, the worst node's. */
  p99Ms: number;
  /** CPU of every server process (all threads) over the order requests they answered, µs. */
  cpuUsPerOrder: number;
}

export function modeLine(row: ModeFigures): string {
  return (
    `http-orders mode=${row.mode} orders_per_s=${row.ordersPerSecond.toFixed(0)} ` +
    `p99_ms=${row.p99Ms.toFixed(1)} cpu_us_per_order=${row.cpuUsPerOrder.toFixed(1)}`
  );
}

/**
 * Funds `users` on a fresh PostgreSQL database, starts `nodes` server processes on it (one: the
 * in-process bus; several: NATS), and runs the place/cancel load for `seconds`: the connections
 * and users split evenly over the nodes, so orders reach every node in turn.
 */
export async function measureOnPostgres(options: {
  mode: string;
  nodes: number;
  users: number;
  connections: number;
  seconds: number;
  env: Record<string, string>;
}): Promise<ModeFigures> {
  const skip = await clusterSkipReason();
  if (skip) throw new Error(`mode ${options.mode}: ${skip}`);
  const prepDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-pg-'));
  let tokens: string[] = [];
  let cluster: Cluster | undefined;
  try {
    console.log(`${options.mode}: preparing ${options.users} funded users on a fresh PostgreSQL database …`);
    cluster = await startCluster({
      nodes: options.nodes,
      // why: one server alone measures PostgreSQL without the bus; several nodes need NATS.
      env: { ...options.env, ...(options.nodes === 1 ? { NATS_URL: '' } : {}) },
      prepare: async (env) => {
        tokens = await prepareUsers(
          { ...options.env, ...env, NATS_URL: '' },
          prepDir,
          'bench',
          options.users,
        );
      },
    });
    const urls = cluster.nodes.map((_, k) => cluster!.url(k + 1));
    const pids = cluster.nodes.map((_, k) => cluster!.pid(k + 1) as number);
    const price = await restingBuyPrice(urls[0]!);
    let placed = 0;
    let refused = 0;
    const cpuBefore = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
    const results = await Promise.all(
      urls.map((url, k) =>
        runAutocannon({
          url,
          connections: Math.max(1, Math.round(options.connections / urls.length)),
          duration: options.seconds,
          requests: orderRequests(
            tokens.filter((_, i) => i % urls.length === k),
            price,
            (accepted) => (accepted ? placed++ : refused++),
          ),
        }),
      ),
    );
    const cpuMs = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - cpuBefore;
    const total = results.reduce((sum, r) => sum + r.requests.total, 0);
    const non2xx = results.reduce((sum, r) => sum + r.non2xx, 0);
    const figures: ModeFigures = {
      mode: options.mode,
      ordersPerSecond: (total - non2xx) / options.seconds,
      p99Ms: Math.max(...results.map((r) => r.latency.p99)),
      cpuUsPerOrder: (cpuMs * 1000) / total,
    };
    console.log(
      `${options.mode}: ${total} requests in ${options.seconds} s over ${urls.length} node(s) ` +
        `(${placed} placed, ${refused} refused, ${non2xx} not 2xx); ${modeLine(figures)}`,
    );
    return figures;
  } finally {
    await cluster?.close();
    fs.rmSync(prepDir, { recursive: true, force: true });
  }
}
