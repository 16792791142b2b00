// Order entry while one of the long jobs runs on a large store: the real server in its own process
// on a store holding a year of data, a steady offered rate of orders (paced, open loop) and
// `/healthz` asked every 20 ms, first idle, then while the job runs: a backup (by the server
// itself, what `BACKUP_EVERY_HOURS` runs, or `npm run backup` in a process of its own), a reserves
// snapshot (what the daily job takes), or the routine ledger check (what runs every
// `LEDGER_CHECK_MINUTES`). Prints the idle p99, the p99 during the job, `/healthz` meanwhile, how
// long the job took (and for a backup the WAL's size before, at its largest and after), then one line.
//
//   npm run bench:jobs -- --job snapshot --data-dir ./year   (a store seeded by `npm run seed:year`)
//   npm run bench:jobs -- --job check --data-dir ./year-keys --database-url postgres://…/year
//   npm run bench:backup -- --data-dir ./year                (the same as --job backup)
//   BENCH_BACKUP=cli npm run bench:backup -- --data-dir ./year
//   npm run bench:jobs                                       (seeds a year at BENCH_SCALE first)
//
// The orders are written into that store (the bench's users are registered and funded once). A
// backup by `npm run backup` beside the server (BENCH_BACKUP=cli) is of a SQLite store only; on
// PostgreSQL the server's backup runs `pg_dump`.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { serverArgs } from '../apps/server/src/server-command.ts';
import { seedYear } from '../scripts/lib/seed-year.ts';
import { FORM_HEADERS, orderFlow, restingBuyPrice } from './lib/order-load.ts';
import { paced, quantile } from './lib/paced.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';

const JOBS = ['backup', 'snapshot', 'check'] as const;
type JobName = (typeof JOBS)[number];

const { values } = parseArgs({
  options: {
    job: { type: 'string' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    scale: { type: 'string' },
    serve: { type: 'boolean' },
  },
});

if (values.serve) {
  await serve();
} else {
  await measure();
}

/**
 * The server as `npm start` runs it, which also runs one of the jobs, as its schedule would, when
 * the bench asks (a message on the IPC channel), and answers how it went.
 */
async function serve(): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { holdDataDirLock } = await import('../apps/server/src/platform/data-dir-lock.ts');
  const config = loadConfig();
  const lock = holdDataDirLock(config.dataDir);
  const app = await buildApp({ config });
  const run = async (job: JobName): Promise<{ ok: boolean; detail: string }> => {
    if (job === 'backup') {
      if (!app.ctx.backups) throw new Error('no backups module');
      return app.ctx.backups.runNow();
    }
    if (job === 'snapshot') {
      if (!app.ctx.reserves) throw new Error('no reserves module');
      return { ok: true, detail: `snapshot ${await app.ctx.reserves.service.takeSnapshot(Date.now())}` };
    }
    const check = await app.ctx.ledger.verify();
    return { ok: check.problems.length === 0, detail: check.problems.slice(0, 3).join('; ') || 'balanced' };
  };
  // why: `/healthz` is asked one at a time, so a long block of the event loop counts once in its
  // figures; the loop's own delay while the job runs tells a blocked loop from a waiting store.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const delay = () =>
    `event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms max ${(loop.max / 1e6).toFixed(1)} ms`;
  process.on('message', (message) => {
    const job = message as JobName;
    if (!JOBS.includes(job)) return;
    loop.reset();
    void run(job).then(
      (outcome) => process.send?.({ done: { ...outcome, detail: `${outcome.detail}; ${delay()}` } }),
      (error: unknown) => process.send?.({ done: { ok: false, detail: `${String(error)}; ${delay()}` } }),
    );
  });
  process.once('SIGTERM', () => {
    void app.close().then(() => {
      lock.release();
      process.exit(0);
    });
  });
  await app.listen({ port: config.port, host: config.host });
}

async function measure(): Promise<void> {
  const job = (values.job ?? process.env.BENCH_JOB ?? 'backup') as JobName;
  if (!JOBS.includes(job)) throw new Error(`--job is one of ${JOBS.join(', ')}`);
  const mode = job === 'backup' ? (process.env.BENCH_BACKUP ?? 'server') : 'server';
  if (mode !== 'server' && mode !== 'cli') throw new Error('BENCH_BACKUP is server or cli');
  const databaseUrl = values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? '';
  // why: on PostgreSQL the server's backup is `pg_dump` in a snapshot; `npm run backup` beside it is measured on SQLite.
  if (databaseUrl && mode === 'cli') throw new Error('BENCH_BACKUP=cli is of a SQLite store');
  const rate = Number(process.env.BENCH_RATE ?? 500);
  const users = Number(process.env.BENCH_USERS ?? 100);
  const idleSeconds = Number(process.env.BENCH_SECONDS ?? 15);
  const scale = Number(values.scale ?? process.env.BENCH_SCALE ?? 0.2);
  const dataDir = path.resolve(
    values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), `bourse-year-${scale}`),
  );
  const storeFile = path.join(dataDir, 'bourse.sqlite');
  if (!databaseUrl && !fs.existsSync(storeFile)) {
    console.log(`seeding a year at scale ${scale} into ${dataDir} …`);
    await seedYear({ scale, dataDir, log: () => {} });
  }
  // why: order entry and the job alone: no market maker, no scheduled backup or ledger check.
  const env = {
    ...BENCH_ENV,
    DATABASE_URL: databaseUrl,
    MARKET_MAKER: 'off',
    BACKUP_EVERY_HOURS: '0',
    LEDGER_CHECK_MINUTES: '1440',
  };
  const store = databaseUrl ? 'postgres' : 'sqlite';
  console.log(
    `${store} store${databaseUrl ? '' : ` ${(fs.statSync(storeFile).size / 2 ** 30).toFixed(2)} GB`}; ` +
      `preparing ${users} funded users …`,
  );
  // why: a run of its own registers users of its own (a user's demo credit is granted once).
  const tokens = await prepareUsers(env, dataDir, `bj${Date.now().toString(36)}x`, users);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-backup-'));
  let server: ChildProcess | undefined;
  try {
    server =
      mode === 'cli'
        ? await startServer(env, dataDir, port)
        : await startOwnServer({ ...env, BACKUP_DIR: backupDir }, dataDir, port);
    await firstCheckDone(base);
    const price = await restingBuyPrice(base);
    const flows = tokens.map((token) => orderFlow(token, price));
    const load = (seconds: number) => paced({ port, rate, seconds, flows, headers: FORM_HEADERS });

    // why: the first seconds of a server (compiling, filling its caches) are not its idle figure.
    await load(5);
    const idleHealthz = sampleHealthz(base);
    const idle = await load(idleSeconds);
    const idleHealth = await idleHealthz.stop();
    const walFile = `${storeFile}-wal`;
    const walSize = () => (fs.existsSync(walFile) ? fs.statSync(walFile).size : 0);
    const walBefore = walSize();
    let walLargest = walBefore;
    const watch = setInterval(() => {
      walLargest = Math.max(walLargest, walSize());
    }, 250);

    const started = performance.now();
    let finished: number | undefined;
    const healthz = sampleHealthz(base);
    const running = runJob(job, mode, server, dataDir, backupDir).finally(() => {
      finished = performance.now();
    });
    // why: the load runs in slices until the job ends, so its figures cover the job alone.
    const during: number[] = [];
    let failed = 0;
    while (finished === undefined) {
      const slice = await load(2);
      during.push(...slice.latencies);
      failed += slice.failed;
    }
    const outcome = await running;
    const health = await healthz.stop();
    const seconds = ((finished as number) - started) / 1000;
    // why: after a backup, a few seconds of load let the checkpointer start the WAL over.
    const after = await load(5);
    clearInterval(watch);
    during.sort((a, b) => a - b);
    const ms = (values: number[], q: number) => quantile(values, q).toFixed(1);
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(
      `idle, ${rate}/s offered: p50 ${ms(idle.latencies, 0.5)} ms p99 ${ms(idle.latencies, 0.99)} ms ` +
        `max ${ms(idle.latencies, 1)} ms; /healthz p99 ${ms(idleHealth, 0.99)} ms`,
    );
    console.log(
      `during the ${job} (${mode}, ${seconds.toFixed(1)} s, ${outcome}): p50 ${ms(during, 0.5)} ms ` +
        `p99 ${ms(during, 0.99)} ms max ${ms(during, 1)} ms, ${failed} failed; ` +
        `/healthz p99 ${ms(health, 0.99)} ms max ${ms(health, 1)} ms (${health.length} answers)`,
    );
    const wal = store === 'sqlite' ? ` wal_mb_before=${mb(walBefore)} wal_mb_max=${mb(walLargest)}` : '';
    if (wal) {
      console.log(
        `after it: p99 ${ms(after.latencies, 0.99)} ms; WAL ${mb(walBefore)} MB before, ` +
          `${mb(walLargest)} MB at its largest, ${mb(walSize())} MB after`,
      );
    }
    console.log(
      `job-load job=${job} mode=${mode} store=${store} idle_p99_ms=${ms(idle.latencies, 0.99)} ` +
        `job_p99_ms=${ms(during, 0.99)} job_max_ms=${ms(during, 1)} healthz_p99_ms=${ms(health, 0.99)} ` +
        `job_s=${seconds.toFixed(1)}${wal}`,
    );
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) =>
      server && server.exitCode === null ? server.once('exit', resolve) : resolve(null),
    );
    fs.rmSync(backupDir, { recursive: true, force: true });
  }
}

/** Waits until the node's first ledger check (every posting on a store with none recorded) is over. */
async function firstCheckDone(base: string): Promise<void> {
  for (;;) {
    const ready = (await (await fetch(`${base}/readyz`)).json()) as {
      checks: { ledger: { detail: string } };
    };
    if (!String(ready.checks.ledger.detail).startsWith('warming')) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Asks `/healthz` every 20 ms until stopped; answers each answer's latency (ms), sorted. */
function sampleHealthz(base: string): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      await fetch(`${base}/healthz`).then((answer) => answer.arrayBuffer());
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return latencies.sort((a, b) => a - b);
    },
  };
}

/** This file with `--serve`, run with the server's own Node flags; resolves once `/healthz` answers. */
async function startOwnServer(
  env: Record<string, string>,
  dataDir: string,
  port: number,
): Promise<ChildProcess> {
  // why: BENCH_CPU_PROF=<dir> profiles the server's main thread (the profile is written as it exits).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const args = [...serverArgs().slice(0, -1), ...profile, import.meta.filename, '--serve'];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}

/** Runs the job (a backup into `backupDir`, a snapshot or a check); resolves with a word on how it went. */
function runJob(
  job: JobName,
  mode: string,
  server: ChildProcess,
  dataDir: string,
  backupDir: string,
): Promise<string> {
  if (mode === 'cli') {
    const child = spawn(process.execPath, ['scripts/backup.ts', '--to', backupDir], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_DIR: backupDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return new Promise((resolve) =>
      child.once('exit', (code) => resolve(code === 0 ? 'made' : `exit ${code}`)),
    );
  }
  return new Promise((resolve) => {
    server.once('message', (message) => {
      const { done } = message as { done: { ok: boolean; detail: string } };
      resolve(done.ok ? `done: ${done.detail}` : `failed: ${done.detail}`);
    });
    server.send(job);
  });
}
