// Order entry while a backup of a large SQLite store runs: the real server in its own process on
// a store holding a year of data, a steady offered rate of orders (paced, open loop), first idle,
// then while a backup is made, either by the server itself (what `BACKUP_EVERY_HOURS` runs) or by
// `npm run backup` in a process of its own. Prints the idle p99, the p99 during the backup, how
// long the backup took and the WAL's size before, at its largest and after, then one line.
//
//   npm run bench:backup -- --data-dir ./year            (a store seeded by `npm run seed:year`)
//   BENCH_BACKUP=cli npm run bench:backup -- --data-dir ./year
//   npm run bench:backup                                 (seeds a year at BENCH_SCALE first)
//
// The orders are written into that store (the bench's users are registered and funded once).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverArgs } from '../apps/server/src/server-command.ts';
import { seedYear } from '../scripts/lib/seed-year.ts';
import { FORM_HEADERS, orderFlow, restingBuyPrice } from './lib/order-load.ts';
import { paced, quantile } from './lib/paced.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, scale: { type: 'string' }, serve: { type: 'boolean' } },
});

if (values.serve) {
  await serve();
} else {
  await measure();
}

/**
 * The server as `npm start` runs it, which also makes a backup, as its schedule would, when the
 * bench asks (a message on the IPC channel), and answers how it went.
 */
async function serve(): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { holdDataDirLock } = await import('../apps/server/src/platform/data-dir-lock.ts');
  const config = loadConfig();
  const lock = holdDataDirLock(config.dataDir);
  const app = await buildApp({ config });
  process.on('message', (message) => {
    if (message !== 'backup') return;
    const backups = app.ctx.backups;
    if (!backups) throw new Error('no backups module');
    void backups.runNow().then((run) => process.send?.({ backup: run }));
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
  const mode = process.env.BENCH_BACKUP ?? 'server';
  if (mode !== 'server' && mode !== 'cli') throw new Error('BENCH_BACKUP is server or cli');
  const rate = Number(process.env.BENCH_RATE ?? 500);
  const users = Number(process.env.BENCH_USERS ?? 100);
  const idleSeconds = Number(process.env.BENCH_SECONDS ?? 15);
  const scale = Number(values.scale ?? process.env.BENCH_SCALE ?? 0.2);
  const dataDir = path.resolve(
    values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), `bourse-year-${scale}`),
  );
  const storeFile = path.join(dataDir, 'bourse.sqlite');
  if (!fs.existsSync(storeFile)) {
    console.log(`seeding a year at scale ${scale} into ${dataDir} …`);
    await seedYear({ scale, dataDir, log: () => {} });
  }
  // why: order entry and the backup alone: no market maker, no scheduled backup or long ledger check.
  const env = {
    ...BENCH_ENV,
    DATABASE_URL: '',
    MARKET_MAKER: 'off',
    BACKUP_EVERY_HOURS: '0',
    LEDGER_CHECK_MINUTES: '1440',
  };
  console.log(
    `store ${(fs.statSync(storeFile).size / 2 ** 30).toFixed(2)} GB; preparing ${users} funded users …`,
  );
  // why: a run of its own registers users of its own (a user's demo credit is granted once).
  const tokens = await prepareUsers(env, dataDir, `bb${Date.now().toString(36)}x`, users);
  const port = await freePort();
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-backup-'));
  let server: ChildProcess | undefined;
  try {
    server =
      mode === 'cli'
        ? await startServer(env, dataDir, port)
        : await startOwnServer({ ...env, BACKUP_DIR: backupDir }, dataDir, port);
    const price = await restingBuyPrice(`http://127.0.0.1:${port}`);
    const flows = tokens.map((token) => orderFlow(token, price));
    const load = (seconds: number) => paced({ port, rate, seconds, flows, headers: FORM_HEADERS });

    // why: the first seconds of a server (compiling, filling its caches) are not its idle figure.
    await load(5);
    const idle = await load(idleSeconds);
    const walFile = `${storeFile}-wal`;
    const walSize = () => (fs.existsSync(walFile) ? fs.statSync(walFile).size : 0);
    const walBefore = walSize();
    let walLargest = walBefore;
    const watch = setInterval(() => {
      walLargest = Math.max(walLargest, walSize());
    }, 250);

    const started = performance.now();
    let finished: number | undefined;
    const backup = runBackup(mode, server, dataDir, backupDir).finally(() => {
      finished = performance.now();
    });
    // why: the load runs in slices until the backup ends, so its figures cover the backup alone.
    const during: number[] = [];
    let failed = 0;
    while (finished === undefined) {
      const slice = await load(2);
      during.push(...slice.latencies);
      failed += slice.failed;
    }
    const outcome = await backup;
    const seconds = ((finished as number) - started) / 1000;
    // why: after the backup, a few seconds of load let the checkpointer start the WAL over.
    const after = await load(5);
    clearInterval(watch);
    during.sort((a, b) => a - b);
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(
      `idle, ${rate}/s offered: p50 ${quantile(idle.latencies, 0.5).toFixed(1)} ms p99 ${quantile(idle.latencies, 0.99).toFixed(1)} ms ` +
        `max ${quantile(idle.latencies, 1).toFixed(1)} ms`,
    );
    console.log(
      `during the backup (${mode}, ${seconds.toFixed(1)} s, ${outcome}): p50 ${quantile(during, 0.5).toFixed(1)} ms ` +
        `p99 ${quantile(during, 0.99).toFixed(1)} ms max ${quantile(during, 1).toFixed(1)} ms, ${failed} failed`,
    );
    console.log(
      `after it: p99 ${quantile(after.latencies, 0.99).toFixed(1)} ms; WAL ${mb(walBefore)} MB before, ` +
        `${mb(walLargest)} MB at its largest, ${mb(walSize())} MB after`,
    );
    console.log(
      `backup-load mode=${mode} idle_p99_ms=${quantile(idle.latencies, 0.99).toFixed(1)} ` +
        `backup_p99_ms=${quantile(during, 0.99).toFixed(1)} backup_max_ms=${quantile(during, 1).toFixed(1)} ` +
        `backup_s=${seconds.toFixed(1)} wal_mb_before=${mb(walBefore)} wal_mb_max=${mb(walLargest)}`,
    );
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) =>
      server && server.exitCode === null ? server.once('exit', resolve) : resolve(null),
    );
    fs.rmSync(backupDir, { recursive: true, force: true });
  }
}

/** This file with `--serve`, run with the server's own Node flags; resolves once `/healthz` answers. */
async function startOwnServer(
  env: Record<string, string>,
  dataDir: string,
  port: number,
): Promise<ChildProcess> {
  const args = [...serverArgs().slice(0, -1), import.meta.filename, '--serve'];
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

/** Makes one backup into `backupDir`; resolves with a word on how it went. */
function runBackup(mode: string, server: ChildProcess, dataDir: string, backupDir: string): Promise<string> {
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
      const { backup } = message as { backup: { ok: boolean; detail: string } };
      resolve(backup.ok ? 'made' : `failed: ${backup.detail}`);
    });
    server.send('backup');
  });
}
