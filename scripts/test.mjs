// `npm test`: every suite (unit, server integration, end-to-end in Chromium), after the builds they need.
//
// One Vitest run takes its groups one after the other (vitest.config.ts), so `npm test` starts two
// runs side by side: the unit and server suites (three workers) and the browser suites (two
// workers), both mostly waiting on sockets, stores and pages. The suites that kill, crash or start
// several servers run last, alone on the machine. Each line is tagged with its run. Arguments
// (`npm test -- e2e/spot.test.ts`, `--project unit`) make it one plain Vitest run instead.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { CHROME_PATH } from './lib/platform.mjs';
import { buildWebIfStale, root } from './web-build.mjs';

if (!fs.existsSync(CHROME_PATH)) {
  console.error(
    `No Chromium at ${CHROME_PATH}. The end-to-end tests need it: install Debian's package (apt-get install -y chromium fonts-noto-cjk) or set CHROME_PATH.`,
  );
  process.exit(1);
}
buildWebIfStale();

/**
 * Runs `vitest run …args`; with a `tag`, every line it prints is prefixed with it. Resolves with
 * the run's exit status and wall time.
 * @param {string[]} args
 * @param {string} [tag]
 * @returns {Promise<{ status: number, seconds: number }>}
 */
function vitest(args, tag) {
  const started = Date.now();
  const child = spawn('npx', ['vitest', 'run', ...args], {
    cwd: root,
    stdio: tag ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (tag) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        if (lines.length > 0) out.write(lines.map((line) => `${tag} ${line}\n`).join(''));
      });
      stream.on('end', () => {
        if (rest) out.write(`${tag} ${rest}\n`);
      });
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) =>
      resolve({ status: code ?? (signal ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

const passThrough = process.argv.slice(2);
if (passThrough.length > 0) {
  const { status } = await vitest(passThrough);
  process.exit(status);
}

const [server, browser] = await Promise.all([
  vitest(['--project', 'unit', '--project', 'server'], '[server]'),
  vitest(['--project', 'e2e'], '[e2e]'),
]);
// why: these suites kill, crash or stop servers and time what follows; alone on the machine their
// figures mean what they say. Started beside the browser suites' last files they took 141 s
// instead of 93 and the whole run was no shorter.
const serial = await vitest(['--project', 'server-serial'], '[serial]');

const runs = [
  ['unit and server suites', server],
  ['browser suites', browser],
  ['kill, crash and several-node suites', serial],
];
console.log('\nnpm test:');
for (const [name, run] of runs) {
  console.log(`  ${run.status === 0 ? 'passed' : 'FAILED'}  ${name} (${run.seconds} s)`);
}
process.exit(runs.some(([, run]) => run.status !== 0) ? 1 : 0);
