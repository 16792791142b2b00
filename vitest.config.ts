import { configDefaults, defineConfig } from 'vitest/config';

// why: these suites kill, crash or start several servers, or back up under load, and they measure
// what happens meanwhile; they run one at a time after the others, alone on the machine.
const SERIAL_SERVER_SUITES = [
  'apps/server/test/*-kill.test.ts',
  'apps/server/test/*-crash.test.ts',
  'apps/server/test/multinode.test.ts',
  'apps/server/test/backups.test.ts',
  // why: it stops a server of its own with SIGTERM under a burst and times the drain.
  'apps/server/test/graceful-stop.test.ts',
  // why: it spawns a server on real-time venue fixtures whose staleness window (10 s) load can pass.
  'apps/server/test/index-sources.test.ts',
];

// why: the server suites mostly wait on sockets and stores, so three workers keep two cores busy
// (measured: 292 s against 522 s one file at a time). Projects of one group share a worker count.
const PARALLEL_WORKERS = 3;

// why: the browser suites run one file at a time. Two at a time beside the server suites (a second
// Vitest run) shortened `npm test` (808 s against 1,045 s on one day), but the machine is then
// CPU-bound and browser waits of 10–60 s time out (eleven tests in that run): see the README.
const BROWSER_WORKERS = 1;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            // why: the server's pure parts; one mocks node:crypto, which needs a file of its own.
            'apps/server/src/**/*.test.ts',
          ],
          maxWorkers: PARALLEL_WORKERS,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERIAL_SERVER_SUITES],
          pool: 'forks',
          globalSetup: ['apps/server/test/store-templates.ts'],
          // why: each file imported the whole server afresh in a new process (2 s of CPU, 226 s in
          // all, as much as the tests' own work); a worker now imports it once and runs file after
          // file. The suites share no module state but the password-hashing cost, which each
          // server sets when it is built.
          isolate: false,
          maxWorkers: PARALLEL_WORKERS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-serial',
          include: SERIAL_SERVER_SUITES,
          pool: 'forks',
          globalSetup: ['apps/server/test/store-templates.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          pool: 'forks',
          // why: a worker keeps its modules from file to file, so the files it runs share its one
          // Chromium (e2e/harness.ts launchChromium).
          isolate: false,
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
