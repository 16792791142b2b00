// `npm test`: every suite (unit, server integration, end-to-end in Chromium), after the builds they need.
// The order is vitest.config.ts's: unit and server suites three at a time, then the browser suites,
// then the suites that kill, crash or start several servers, alone. At the end it prints the wall
// time and the processor time the whole machine spent meanwhile (Chromium's and the platforms'
// processes included, which no parent's accounting sees).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROME_PATH } from './lib/platform.mjs';
import { buildWebIfStale, root } from './web-build.mjs';

if (!fs.existsSync(CHROME_PATH)) {
  console.error(
    `No Chromium at ${CHROME_PATH}. The end-to-end tests need it: install Debian's package (apt-get install -y chromium fonts-noto-cjk) or set CHROME_PATH.`,
  );
  process.exit(1);
}

/** Seconds every core has spent busy since the machine started. */
function busySeconds() {
  let ms = 0;
  for (const { times } of os.cpus()) ms += times.user + times.nice + times.sys + times.irq;
  return ms / 1000;
}

buildWebIfStale();
const started = Date.now();
const busyBefore = busySeconds();
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  // why: every test worker, and every platform the browser suites start, compiles the server's
  // modules again; Node keeps the compiled code here between processes (about 0.4 s of CPU a start).
  env: { ...process.env, NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/node-compile') },
});
const wall = Math.round((Date.now() - started) / 1000);
const busy = Math.round(busySeconds() - busyBefore);
console.log(
  `\nnpm test: ${wall} s, ${busy} s of processor time on ${os.cpus().length} cores (the whole machine's)`,
);
process.exit(result.status ?? 1);
