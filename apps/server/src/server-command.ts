import path from 'node:path';

/**
 * The Node.js flags the server process runs with; the measurements behind each are in
 * bench/README.md.
 *
 * `--max-semi-space-size=64` (MB): a request's objects live for a batch and its sync, a few
 * milliseconds; in V8's smaller default young generation they survive a scavenge or two and are
 * copied into the old one, and scavenging took a fifth of the process's CPU.
 *
 * `--no-allocation-site-pretenuring`: otherwise V8 may decide, from whatever was alive in the
 * process's first seconds, to allocate some request objects in the old generation for the
 * process's whole life; they then keep the young objects they point to alive through every
 * scavenge, and such a process answers a fifth to a third fewer orders.
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--no-allocation-site-pretenuring'];

const SERVER_ENTRY = path.join(import.meta.dirname, 'main.ts');

/**
 * The arguments of `spawn(process.execPath, …)` that run the server as `npm start` does: its
 * flags, then `nodeOptions` (e.g. a CPU profile's), then its entry point. Everything that starts
 * the server in a process of its own (`npm start`, the benchmarks, tests, screenshot scripts)
 * goes through here.
 */
export function serverArgs(nodeOptions: readonly string[] = []): string[] {
  return [...SERVER_NODE_FLAGS, ...nodeOptions, SERVER_ENTRY];
}
