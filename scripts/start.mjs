// `npm start`: build what is out of date, then run the platform in one process.
import { spawn } from 'node:child_process';
import { serverArgs } from '../apps/server/src/server-command.ts';
import { buildWebIfStale, root } from './web-build.mjs';

buildWebIfStale();
const server = spawn(process.execPath, serverArgs(), {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
