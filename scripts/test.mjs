// `npm test`: every suite (unit, server integration, end-to-end in Chromium), after the builds they need.
// The order is vitest.config.ts's: unit and server suites three at a time, then the browser suites,
// then the suites that kill, crash or start several servers, alone.
import { spawnSync } from 'node:child_process';
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
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
