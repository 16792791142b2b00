// `npm start`: build what is out of date, then run the platform in one process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../apps/server/src/node-flags.ts';
import { buildWebIfStale, root } from './web-build.mjs';

buildWebIfStale();
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'apps/server/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
