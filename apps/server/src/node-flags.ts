/**
 * The Node.js flags the server process runs with: `npm start` and everything that starts the
 * server the same way (benchmarks, tests that spawn it) pass these before the entry point
 * (the server package's own `start` script repeats them, as JSON cannot import).
 *
 * `--max-semi-space-size=64` (MB; V8 sizes it up to 16 by default): order entry makes short-lived
 * objects quickly, and a request's objects live for a batch and its sync (milliseconds). With
 * the small default young generation they survive one scavenge or two and are copied into the
 * old generation, and the scavenges themselves, run on V8's helper threads, took a fifth of the
 * process's CPU on two cores. Measured with `npm run bench:pair-orders` (same build, the flag on
 * one side): 15 % and 4 % less CPU per order, `/healthz` 17–25 % faster; 32 MB gave 7 % less
 * throughput than 64, and 128 no more than 64.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
