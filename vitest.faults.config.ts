import { defineConfig } from 'vitest/config';

// why: the fault loops kill, pause and restart processes for minutes, so they run in their own
// command (`npm run test:faults`), never within `npm test`.
export default defineConfig({
  test: {
    name: 'faults',
    include: ['apps/server/test/**/*.faults.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
