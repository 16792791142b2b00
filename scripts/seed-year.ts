// `npm run seed:year`: a new store holding a year of an operator's data (see scripts/lib/seed-year.ts),
// to measure the platform on what an operator has after a year.
//
//   npm run seed:year -- --scale 0.01 --data-dir ./year
//   SEED_SCALE=0.1 DATA_DIR=./year DATABASE_URL=postgres://user@host/empty npm run seed:year
//
// The target must be new: a data folder without a store, or an empty PostgreSQL database (with a
// data folder for the keys). A seed that fails leaves a store to throw away.
import { parseArgs } from 'node:util';
import { seedYear } from './lib/seed-year.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
  },
});
const scale = Number(values.scale ?? process.env.SEED_SCALE ?? 1);
const dataDir = values['data-dir'] ?? process.env.DATA_DIR ?? './data-year';
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL ?? undefined;

console.log(
  `seeding a year at scale ${scale} into ${databaseUrl ? `${databaseUrl.replace(/\/\/[^@]*@/, '//')} (keys in ${dataDir})` : dataDir} …`,
);
const report = await seedYear({ scale, dataDir, databaseUrl: databaseUrl || undefined, log: console.log });
const width = Math.max(...Object.keys(report.counts).map((k) => k.length));
for (const [table, count] of Object.entries(report.counts).sort())
  console.log(`  ${table.padEnd(width)} ${count.toLocaleString('en-US')}`);
console.log(`active account: ${report.activeUsername} (user ${report.activeUserId})`);
console.log(`seed-year scale=${scale} seconds=${report.seconds.toFixed(1)}`);
