// `/ws` fan-out: the real server in its own process on a fresh SQLite store, 1,000 WebSocket
// clients on loopback subscribed to one market's depth and trades, and order entry over HTTP
// moving that market (pairs of users crossing at the index, taking turns on each side). Counts
// the updates the clients receive per second (depth and trades) and their delivery latency:
// receive time minus the depth delta's `ts`, the moment its batch was committed and published
// (a batch's trades leave in the same write; their `at` is the trade time, before the commit).
//
//   npm run bench:ws-fanout            (figures, then one summary line)
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { FORM_HEADERS, placeBody, SYMBOL } from './lib/order-load.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 8);
/** Orders offered per second, all drivers together: a steady load, not the most the store takes. */
const RATE = Number(process.env.BENCH_RATE ?? 100);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const QTY = '0.0002';

const ENV = {
  ...BENCH_ENV,
  WS_CONNECTIONS_PER_IP: String(CLIENTS + 100),
  // why: the bench's orders are the whole load; the market maker would add its own.
  MARKET_MAKER: 'off',
  // why: SQLite by default (its commits block the event loop, so they show in the latency);
  // BENCH_DATABASE_URL names an empty PostgreSQL database to compare.
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
};

let stopping = false;
/** What the clients saw; `measuring` opens the window the figures come from. */
const seen = { measuring: false, deliveries: 0, latencies: [] as number[], dropped: 0, gaps: 0 };
// why: regular expressions, not JSON.parse: the clients share one core with the driver, and
// the numbers are all the measure needs.
const PREV_SEQ = /"prev_seq":(\d+)/;
const SEQ = /"seq":(\d+)/;
const TS = /"ts":(\d+)/;

/** Opens one client, subscribes it to depth and trades, and resolves once both snapshots came. */
function openClient(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { perMessageDeflate: false });
    let snapshots = 0;
    let seq = -1;
    socket.once('error', reject);
    socket.on('open', () => {
      socket.send(JSON.stringify({ op: 'subscribe', channel: `depth:${SYMBOL}` }));
      socket.send(JSON.stringify({ op: 'subscribe', channel: `trades:${SYMBOL}` }));
    });
    socket.on('close', () => {
      if (!stopping) seen.dropped++;
    });
    socket.on('message', (raw: Buffer) => {
      const text = raw.toString();
      if (snapshots < 2) {
        snapshots++;
        if (text.startsWith(`{"channel":"depth:`)) seq = JSON.parse(text).data.seq;
        if (snapshots === 2) resolve(socket);
        return;
      }
      const depth = text.startsWith(`{"channel":"depth:`);
      if (depth) {
        // why: the sequence contract is checked as well.
        if (Number(PREV_SEQ.exec(text)?.[1]) !== seq) seen.gaps++;
        seq = Number(SEQ.exec(text)?.[1]);
      }
      if (!seen.measuring) return;
      seen.deliveries++;
      if (depth) seen.latencies.push(Date.now() - Number(TS.exec(text)?.[1]));
    });
  });
}

/**
 * One driver: two users crossing at `price` (a resting sell, then the buy that fills it), swapping
 * sides each round, paced to its share of `RATE`, until `stopping`.
 */
async function drive(
  url: string,
  tokens: [string, string],
  price: string,
  counts: { orders: number; refused: number },
) {
  let [seller, buyer] = tokens;
  const place = async (token: string, side: 'buy' | 'sell') => {
    const response = await fetch(`${url}/apiv/Trade/place`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: placeBody(price, token, { side, qty: QTY }),
    });
    const answer = (await response.json()) as { code: number };
    if (answer.code === 1000) counts.orders++;
    else counts.refused++;
  };
  const pairEveryMs = (2 * DRIVERS * 1000) / RATE;
  let next = Date.now() + Math.random() * pairEveryMs;
  while (!stopping) {
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    next = Math.max(next + pairEveryMs, Date.now());
    await place(seller, 'sell');
    await place(buyer, 'buy');
    [seller, buyer] = [buyer, seller];
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-fanout-'));
let server: ChildProcess | undefined;
const sockets: WebSocket[] = [];
try {
  console.log(
    `preparing ${DRIVERS * 2} funded users on a fresh ${ENV.DATABASE_URL ? 'PostgreSQL' : 'SQLite'} store …`,
  );
  const tokens = await prepareUsers(ENV, dataDir, 'fanout', DRIVERS * 2);
  const port = await freePort();
  server = await startServer(ENV, dataDir, port);
  const url = `http://127.0.0.1:${port}`;
  const tickers = (await (await fetch(`${url}/apiv/Market/tickers`)).json()) as {
    data: { symbol: string; price: string }[];
  };
  const index = tickers.data.find((t) => t.symbol === SYMBOL)?.price;
  if (!index) throw new Error(`no index for ${SYMBOL}`);
  const price = Number(index).toFixed(2);

  console.log(`opening ${CLIENTS} clients subscribed to depth:${SYMBOL} and trades:${SYMBOL} …`);
  for (let i = 0; i < CLIENTS; i += 100) {
    const batch = Array.from({ length: Math.min(100, CLIENTS - i) }, () => openClient(url));
    sockets.push(...(await Promise.all(batch)));
  }

  const counts = { orders: 0, refused: 0 };
  const drivers = Array.from({ length: DRIVERS }, (_, i) =>
    drive(url, [tokens[2 * i], tokens[2 * i + 1]], price, counts),
  );
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  const ordersBefore = counts.orders;
  seen.measuring = true;
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  seen.measuring = false;
  const orders = counts.orders - ordersBefore;
  stopping = true;
  await Promise.all(drivers);

  const deliveriesPerSecond = seen.deliveries / SECONDS;
  const sorted = seen.latencies.sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  console.log(
    `order entry: ${orders} orders in ${SECONDS} s (${(orders / SECONDS).toFixed(0)}/s of ${RATE}/s offered, ` +
      `${counts.refused} refused in all)`,
  );
  console.log(
    `fan-out: ${seen.deliveries} updates to ${CLIENTS} clients in ${SECONDS} s, ` +
      `${deliveriesPerSecond.toFixed(0)}/s; latency p50 ${p50} ms p99 ${p99} ms max ${sorted.at(-1) ?? 0} ms; ` +
      `${seen.dropped} clients dropped, ${seen.gaps} depth sequence gaps`,
  );
  console.log(`ws-fanout deliveries_per_s=${deliveriesPerSecond.toFixed(0)} p99_ms=${p99}`);
} finally {
  stopping = true;
  for (const socket of sockets) socket.terminate();
  server?.kill('SIGTERM');
  await new Promise((resolve) => server?.once('exit', resolve) ?? resolve(undefined));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
