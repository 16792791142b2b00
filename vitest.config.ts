import { configDefaults, defineConfig } from 'vitest/config';

// why: these suites kill, crash or start several servers, or back up under load, and they measure
// what happens meanwhile; they run one at a time after the others, alone on the machine.
const SERIAL_SERVER_SUITES = [
  'apps/server/test/*-kill.test.ts',
  'apps/server/test/*-crash.test.ts',
  'apps/server/test/multinode.test.ts',
  'apps/server/test/backups.test.ts',
  // why: it spawns a server on real-time venue fixtures whose staleness window (10 s) load can pass.
  'apps/server/test/index-sources.test.ts',
];

// why: the server suites mostly wait on sockets and stores, so three workers keep two cores busy
// (measured: 292 s against 522 s one file at a time). Projects of one group share a worker count.
const PARALLEL_WORKERS = 3;

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
          ],
          maxWorkers: PARALLEL_WORKERS,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERIAL_SERVER_SUITES],
          pool: 'forks',
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
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
