// `npm run nodes`: three nodes of one exchange on this machine — the local PostgreSQL (database
// `bourse_nodes`, made when missing) and the local NATS server — on ports 3001 to 3003. Ctrl-C
// stops them all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { serverArgs } from '../apps/server/src/server-command.ts';
import { buildWebIfStale, root } from './web-build.mjs';

const NODES = 3;
const FIRST_PORT = 3001;
const database = 'bourse_nodes';
const adminUrl = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const dataRoot = path.join(root, 'data', 'nodes');

buildWebIfStale();
fs.mkdirSync(dataRoot, { recursive: true });

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
if (exists.rowCount === 0) await admin.query(`create database ${database}`);
await admin.end();
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${database}`;

// why: every node must read what another wrote with the keys (staff TOTP secrets, customers'
// sealed fields, the reserves' signatures), so the three share one set, kept for the next run.
const keysFile = path.join(dataRoot, 'secret-keys.json');
const KEY_NAMES = ['STAFF_SECRET_KEY', 'USER_SECRET_KEY', 'POR_KEY', 'POR_SIGNING_KEY'];
if (!fs.existsSync(keysFile)) {
  const keys = Object.fromEntries(KEY_NAMES.map((name) => [name, randomBytes(32).toString('hex')]));
  fs.writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
}
const keys = JSON.parse(fs.readFileSync(keysFile, 'utf8'));
for (const name of KEY_NAMES) if (process.env[name]) keys[name] = process.env[name];

const children = [];
let stopping = false;

function startNode(i) {
  const port = FIRST_PORT + i - 1;
  const dataDir = path.join(dataRoot, `n${i}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, serverArgs(), {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      ...keys,
      NODE_ID: `n${i}`,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl.toString(),
      NATS_URL: natsUrl,
      NATS_PREFIX: process.env.NATS_PREFIX || 'bourse-nodes',
    },
  });
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`node n${i} stopped (${signal ?? `exit ${code}`})`);
  });
  children.push(child);
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Resolves once `url` answers `/readyz`, or rejects after a minute or when the process ends. */
async function ready({ child, url }) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/readyz`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within a minute`);
}

function stopAll(signal) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal));

try {
  // why: the first node seeds the demo data alone; the others start once it is done.
  const first = startNode(1);
  await ready(first);
  const rest = Array.from({ length: NODES - 1 }, (_, k) => startNode(k + 2));
  await Promise.all(rest.map(ready));
  console.log(
    `\n${NODES} nodes on ${database} and ${natsUrl}:\n` +
      [first, ...rest].map(({ url }, k) => `  n${k + 1}  ${url}`).join('\n') +
      '\nCtrl-C stops them all.\n',
  );
} catch (error) {
  console.error(`Could not start the nodes: ${error.message}`);
  stopAll('SIGTERM');
  process.exitCode = 1;
}
await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
