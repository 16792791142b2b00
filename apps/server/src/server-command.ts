import path from 'node:path';

/**
 * The Node.js flags the server process runs with.
 *
 * `--max-semi-space-size=64` (MB; V8 sizes it up to 16 by default): order entry makes short-lived
 * objects quickly, and a request's objects live for a batch and its sync (milliseconds). With
 * the small default young generation they survive one scavenge or two and are copied into the
 * old generation, and the scavenges themselves, run on V8's helper threads, took a fifth of the
 * process's CPU on two cores. Measured with `npm run bench:pair-orders` (same build, the flag on
 * one side): 15 % and 4 % less CPU per order, `/healthz` 17–25 % faster; 32 MB gave 7 % less
 * throughput than 64, and 128 no more than 64.
 *
 * `--no-allocation-site-pretenuring`: V8 watches which object literals survive a scavenge and,
 * when nearly all of a site's do, allocates that site's objects in the old generation from then
 * on. Which sites it picks depends on what happened to be alive in the process's first seconds
 * (start-up, the first burst of requests), and the choice held for the process's life: in about
 * half the starts it pretenured objects of every request. Such an object dies young but counts as
 * live until the next full collection, so the young objects it points to survive each scavenge
 * and are promoted in turn: scavenges copied 6–10 MB and took 8–14 ms each, against 0.1–0.3 MB and
 * about 1 ms (`--trace-gc`), and those processes answered a fifth to a third fewer orders and a
 * third fewer `/healthz` requests. Without the decisions every start ran the fast way (17 of 17
 * runs of `npm run bench:http-orders`; with them 10 of 19 at its 40 connections started slow, and
 * 7 of 7 at 100–200; bench/README.md, 2026-11-27).
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--no-allocation-site-pretenuring'];

const SERVER_ENTRY = path.join(import.meta.dirname, 'server.ts');

/**
 * The arguments of `spawn(process.execPath, …)` that run the server as `npm start` does: its
 * flags, then `nodeOptions` (e.g. a CPU profile's), then its entry point. Everything that starts
 * the server in a process of its own (`npm start`, the benchmarks, tests, screenshot scripts)
 * goes through here.
 */
export function serverArgs(nodeOptions: readonly string[] = []): string[] {
  return [...SERVER_NODE_FLAGS, ...nodeOptions, SERVER_ENTRY];
}
