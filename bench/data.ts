// What a year of data costs: the same calls, timed on a fresh demo store and on a store holding a
// year of an operator's data (`npm run seed:year`), each served by the real server in its own
// process and called over HTTP as a customer and as staff. Prints a table (median ms per call),
// then one line: `data worst_ms=<n> healthz_p99_ms=<n> start_s=<n>`.
//
//   npm run bench:data                          (a year at BENCH_SCALE, seeded first when absent)
//   npm run bench:data -- --data-dir ./year     (a store seeded before, or one to seed there)
//   BENCH_DATABASE_URL=postgres://… npm run bench:data   (the year on PostgreSQL)
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDb } from '../apps/server/src/platform/db.ts';
import { DEMO_USERS } from '../apps/server/src/seed.ts';
import { serverArgs } from '../apps/server/src/server-command.ts';
import {
  ACTIVE_ACCOUNT,
  SEED_REPORT_FILE,
  SEED_STAFF,
  type SeedYearReport,
  seedYear,
} from '../scripts/lib/seed-year.ts';
import { quantile } from './lib/paced.ts';
import { BENCH_ENV, freePort } from './lib/server.ts';
import { staffToken } from './lib/staff.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
  },
});
const SCALE = Number(values.scale ?? process.env.BENCH_SCALE ?? 0.1);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const LARGE_DIR =
  values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), `bourse-year-${SCALE}`);
const LARGE_URL = values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? undefined;
// why: the fresh store on the same dialect as the year when an empty database is given for it.
const FRESH_URL = process.env.BENCH_FRESH_DATABASE_URL ?? undefined;

// why: the staff owner is known on both stores; the market maker and demo traders are off so
// the calls are the only load, and the periodic ledger check stays out of the way of the one
// asked for (its figure is its own row).
const ENV = {
  ...BENCH_ENV,
  MARKET_MAKER: 'off',
  LEDGER_CHECK_MINUTES: '1440',
  ADMIN_USER: SEED_STAFF.username,
  ADMIN_PASSWORD: SEED_STAFF.password,
};

interface StoreFigures {
  startS: number;
  booksS: number;
  medians: Map<string, number>;
  /** The check every posting's first run reads (the node starts it; the weekly one is the same). */
  full: Phase;
  /** The routine check staff ask for: every account, the postings since the last run, the reservations. */
  routine: Phase;
}

/** One check: how long it took, and /healthz meanwhile. */
interface Phase {
  ms: number;
  healthzP99Ms: number;
  samples: number;
}

/**
 * Runs `during` while /healthz is asked every 20 ms; answers how long it took and the 99th
 * percentile of /healthz's answers meanwhile.
 */
async function withHealthz(base: string, during: () => Promise<void>): Promise<Phase> {
  const samples: number[] = [];
  let running = true;
  const sampler = (async () => {
    const pending: Promise<void>[] = [];
    while (running) {
      const sent = performance.now();
      pending.push(
        fetch(`${base}/healthz`)
          .then((r) => r.arrayBuffer())
          .then(() => {
            samples.push(performance.now() - sent);
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(pending);
  })();
  const started = performance.now();
  try {
    await during();
  } finally {
    running = false;
  }
  const ms = performance.now() - started;
  await sampler;
  return {
    ms,
    healthzP99Ms: quantile(
      samples.sort((a, b) => a - b),
      0.99,
    ),
    samples: samples.length,
  };
}

/**
 * Forgets the ledger check's recorded runs, so the node's first check reads every posting: what the
 * weekly full check costs, measured at start.
 */
async function forgetLedgerChecks(store: { dataDir: string; databaseUrl?: string }): Promise<void> {
  if (!store.databaseUrl && !fs.existsSync(path.join(store.dataDir, 'bourse.sqlite'))) return;
  const handle = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl, poolSize: 1 });
  try {
    await handle.db.deleteFrom('ledger_checks').execute();
  } finally {
    await handle.close();
  }
}

/** The year's store: the one at LARGE_DIR (and LARGE_URL), seeded first when it holds none. */
async function largeStore(): Promise<SeedYearReport> {
  const reportFile = path.join(LARGE_DIR, SEED_REPORT_FILE);
  if (fs.existsSync(reportFile)) return JSON.parse(fs.readFileSync(reportFile, 'utf8')) as SeedYearReport;
  if (!LARGE_URL) fs.rmSync(LARGE_DIR, { recursive: true, force: true });
  console.log(`no seeded store at ${LARGE_DIR}: seeding a year at scale ${SCALE} …`);
  const report = await seedYear({ scale: SCALE, dataDir: LARGE_DIR, databaseUrl: LARGE_URL });
  console.log(`seeded in ${report.seconds.toFixed(0)} s`);
  return report;
}

async function startServer(dataDir: string, databaseUrl: string | undefined) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      ...ENV,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (performance.now() - started > 30 * 60_000) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const startS = (performance.now() - started) / 1000;
  // why: the node answers before its books are loaded (/readyz says `markets` warming meanwhile);
  // an order for a market waits for its book, so when they are all loaded is a figure of its own.
  for (;;) {
    const ready = (await (await fetch(`${base}/readyz`)).json()) as {
      checks: { markets: { detail: string } };
    };
    if (!String(ready.checks.markets.detail).startsWith('warming')) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, base, startS, booksS: (performance.now() - started) / 1000 };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One call's answer, refused unless it is a success envelope. */
async function call(url: string, init?: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  const body = (await response.json()) as { code: number; msg: string; data: unknown };
  if (body.code !== 1000)
    throw new Error(`${url.replace(/token=[^&]+/, 'token=…')}: ${body.code} ${body.msg}`);
  return body.data;
}

async function median(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return quantile(
    times.sort((a, b) => a - b),
    0.5,
  );
}

/**
 * The back office's deep pages: about nine tenths of the way down the year's lists at this scale.
 * (The customer's lists page by cursor: their deep pages are asked below an id, see `measure`.)
 */
function deepPages(report: SeedYearReport) {
  const page = (rows: number, size = 20) => Math.max(2, Math.min(10_000, Math.floor((rows * 0.9) / size)));
  return {
    deposits: page(report.counts.deposits ?? 0),
    contracts: page(report.counts.delivery_contracts ?? 0),
  };
}

/**
 * A cursor about nine tenths of the way down a customer's list, newest first: the year's rows are
 * spread evenly over its ids, so a tenth of the first page's last id is as deep as the ninth tenth
 * of the rows (at least 1: the fresh store's lists are short).
 */
function deepCursor(firstPage: { list: { id: string }[] }): number {
  return Math.max(1, Math.floor(Number(firstPage.list.at(-1)?.id ?? 1) * 0.1));
}

async function measure(
  label: string,
  store: { dataDir: string; databaseUrl?: string },
  customer: { username: string; password: string },
  deep: ReturnType<typeof deepPages>,
): Promise<StoreFigures> {
  console.log(`${label}: starting the server …`);
  const { child, base, startS, booksS } = await startServer(store.dataDir, store.databaseUrl);
  try {
    console.log(
      `${label}: /healthz answered after ${startS.toFixed(1)} s, the books loaded after ${booksS.toFixed(1)} s`,
    );
    const login = await call(`${base}/apiv/Login/loginsubmit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', Lang: 'en-us' },
      body: new URLSearchParams({ email: customer.username, lpwd: customer.password }).toString(),
    });
    const token = login.token as string;
    const staff = await staffToken(base, store.dataDir, SEED_STAFF);
    const api = (p: string, q: Record<string, string | number> = {}) =>
      call(`${base}/apiv${p}?${new URLSearchParams({ ...q, token } as Record<string, string>)}`);
    const admin = (p: string, q: Record<string, string | number> = {}) =>
      call(`${base}/admin-api${p}?${new URLSearchParams(q as Record<string, string>)}`, {
        headers: { Authorization: `Bearer ${staff}`, Lang: 'en-us' },
      });

    // why: the checks first, on a server nothing else is calling, with /healthz sampled every
    // 20 ms meanwhile: what each costs everyone else. The node's own first check reads every
    // posting (the runs were forgotten before the start); staff then ask for the routine one.
    const full = await withHealthz(base, async () => {
      for (;;) {
        const ready = (await (await fetch(`${base}/readyz`)).json()) as {
          checks: { ledger: { status: string; detail: string } };
        };
        if (!String(ready.checks.ledger.detail).startsWith('warming')) {
          if (ready.checks.ledger.status !== 'ok')
            console.log(`${label}: the first ledger check: ${ready.checks.ledger.detail}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    const routine = await withHealthz(base, async () => {
      const check = await call(`${base}/admin-api/ledger/check`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${staff}`, Lang: 'en-us', 'content-type': 'application/json' },
        body: '{}',
      });
      if (!check.ok)
        console.log(`${label}: the ledger check found problems: ${check.problems.slice(0, 5).join('; ')}`);
    });

    const firstBills = await api('/user/mybill');
    const lastId = Number(firstBills.list.at(-1)?.id ?? 1);
    // why: the customer's lists page by `before` (page numbers stop 1,000 rows down); the deep
    // pages are asked below an id as far down as the page numbers reached before.
    const deepTrades = deepCursor(await api('/Trade/mytrades'));
    const deepSettled = deepCursor(await api('/Contract/ctbill', { status: 'settled' }));
    const calls: [string, () => Promise<unknown>][] = [
      ['bills, first page', () => api('/user/mybill')],
      ['bills, deep page', () => api('/user/mybill', { before: Math.max(1, Math.floor(lastId * 0.05)) })],
      ['spot candles 1m', () => api('/Market/candles', { symbol: 'BTCUSDT', interval: '1m' })],
      ['spot candles 1d', () => api('/Market/candles', { symbol: 'BTCUSDT', interval: '1d' })],
      ['my trades, first page', () => api('/Trade/mytrades')],
      ['my trades, deep page', () => api('/Trade/mytrades', { before: deepTrades })],
      [
        'contracts settled, deep page',
        () => api('/Contract/ctbill', { status: 'settled', before: deepSettled }),
      ],
      ['contracts, open tab', () => api('/Contract/ctbill', { status: 'open' })],
      ['my open spot orders', () => api('/Trade/openorders')],
      ['my spot orders, revoked tab', () => api('/Trade/tradebill', { status: 'revoked' })],
      ['spot tickers', () => api('/Market/spottickers')],
      ['back office: user search', () => admin('/users', { q: 'year1' })],
      ['back office: audit by action', () => admin('/audit', { action: 'deposit.confirm' })],
      ['back office: deposits, deep page', () => admin('/deposits', { page: deep.deposits })],
      ['back office: contracts, deep page', () => admin('/delivery/contracts', { page: deep.contracts })],
      ['back office: delivery P&L', () => admin('/delivery/pnl')],
      ['back office: dashboard', () => admin('/dashboard')],
    ];
    const medians = new Map<string, number>();
    for (const [name, run] of calls) medians.set(name, await median(run));
    return { startS, booksS, medians, full, routine };
  } finally {
    await stop(child);
  }
}

const report = await largeStore();
const deep = deepPages(report);
const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-data-'));
let fresh: StoreFigures;
try {
  const demo = DEMO_USERS[0];
  fresh = await measure('fresh demo store', { dataDir: freshDir, databaseUrl: FRESH_URL }, demo, deep);
} finally {
  fs.rmSync(freshDir, { recursive: true, force: true });
}
await forgetLedgerChecks({ dataDir: LARGE_DIR, databaseUrl: LARGE_URL });
const large = await measure(
  `a year at scale ${report.scale}`,
  { dataDir: LARGE_DIR, databaseUrl: LARGE_URL },
  ACTIVE_ACCOUNT,
  deep,
);

const rows: [string, string, string][] = [
  ['start until /healthz answers (s)', fresh.startS.toFixed(2), large.startS.toFixed(2)],
  ['start until the books are loaded (s)', fresh.booksS.toFixed(2), large.booksS.toFixed(2)],
  ['ledger check, every posting (at start)', fresh.full.ms.toFixed(0), large.full.ms.toFixed(0)],
  [
    `/healthz p99 meanwhile (${fresh.full.samples} / ${large.full.samples} samples)`,
    fresh.full.healthzP99Ms.toFixed(1),
    large.full.healthzP99Ms.toFixed(1),
  ],
  ['ledger check, routine (staff, now)', fresh.routine.ms.toFixed(0), large.routine.ms.toFixed(0)],
  [
    `/healthz p99 meanwhile (${fresh.routine.samples} / ${large.routine.samples} samples)`,
    fresh.routine.healthzP99Ms.toFixed(1),
    large.routine.healthzP99Ms.toFixed(1),
  ],
  ...[...large.medians.keys()].map((name): [string, string, string] => [
    name,
    fresh.medians.get(name)!.toFixed(1),
    large.medians.get(name)!.toFixed(1),
  ]),
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log(`\n${'median ms per call'.padEnd(width)}  ${'fresh'.padStart(9)}  ${'year'.padStart(9)}`);
for (const [name, a, b] of rows) console.log(`${name.padEnd(width)}  ${a.padStart(9)}  ${b.padStart(9)}`);
const postings = report.counts.postings ?? 0;
console.log(
  `\nthe year: scale ${report.scale}, ${report.counts.users} users, ${postings.toLocaleString('en-US')} postings, ` +
    `${(report.counts.spot_orders ?? 0).toLocaleString('en-US')} orders, on ${LARGE_URL ? 'PostgreSQL' : 'SQLite'}; ` +
    `${REPEAT} timed calls each after one warm-up`,
);
const worst = Math.max(...large.medians.values());
console.log(
  `data worst_ms=${worst.toFixed(0)} healthz_p99_ms=${Math.max(large.full.healthzP99Ms, large.routine.healthzP99Ms).toFixed(0)} start_s=${large.startS.toFixed(1)}`,
);
