/**
 * The engine benchmark: `npm run bench:engine`. See packages/engine/README.md for the method.
 *
 * The parent process runs one child process per (variant, book), one after another, so each book is
 * measured single-threaded with its own heap and JIT state — as a sequencer that owns one book type
 * would run it. Every child regenerates the same workload from the seed and reports its checksum;
 * the parent checks that all children ran the same operations and ended with the same book.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Command, createNaiveBook, FAST_BOOK, NAIVE_BOOK, type OrderBook } from '../src/index.ts';
import {
  CountingSink,
  canonicalizeSnapshot,
  checksumCommands,
  formatCount,
  formatNanos,
  type LatencySummary,
  measureHostStalls,
  summarizeLatencies,
} from './measure.ts';
import { PeerAdapter } from './peer-adapter.ts';
import { BENCH_SPEC, generateWorkload, type WorkloadVariant } from './workload.ts';

const OPERATIONS = Number(process.env.BENCH_OPS ?? 1_000_000);
const SEED = Number(process.env.BENCH_SEED ?? 20_260_101);
/** Timed throughput passes per book and variant; the median is reported. */
const PASSES = Number(process.env.BENCH_PASSES ?? 5);
/** Per-operation latency passes; each percentile is the median over these passes. */
const LATENCY_PASSES = Number(process.env.BENCH_LATENCY_PASSES ?? 3);
/** One untimed pass over the whole workload first, so every contender is JIT-compiled before timing. */
const WARMUP = OPERATIONS;
const PEER_NAME = 'nodejs-order-book';
const BOOK_NAMES = ['fast', 'naive', PEER_NAME] as const;
type BookName = (typeof BOOK_NAMES)[number];

const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** What a child reports (one JSON line on stdout). */
interface Measurement {
  name: BookName;
  variant: WorkloadVariant;
  workloadChecksum: string;
  mix: { limit: number; cancel: number; market: number };
  opsPerSecond: number;
  passRates: number[];
  latency: LatencySummary;
  latencyPasses: LatencySummary[];
  /** Timer-only loop in the same process: gaps over 20 µs per second. */
  hostStallsPerSecond: number;
  book: string[];
  events: string;
}

interface Contender {
  /** Starts from an empty book. */
  reset(): void;
  /** Runs operations [from, to) without timing each. */
  runRange(from: number, to: number): void;
  /** Runs every operation, writing each one's latency in ns. */
  runTimed(latencies: Float64Array): void;
  readBook(): string[];
  describeEvents(): string;
}

/**
 * Books and sinks of finished passes. why: when an old book dies, the next full GC discards every
 * optimised function that embedded references to it, and the following pass would start out
 * unoptimised; a production book lives as long as its market, so old ones are kept alive instead.
 */
const retired: unknown[] = [];

function createEngineContender(create: () => OrderBook, commands: Command[]): Contender {
  let book = create();
  let sink = new CountingSink();
  return {
    reset() {
      retired.push(book, sink);
      book = create();
      sink = new CountingSink();
    },
    runRange(from, to) {
      for (let i = from; i < to; i++) book.apply(commands[i], sink);
    },
    runTimed(latencies) {
      // why: back-to-back stamps, one timer read per operation; performance.now() allocates far
      // less than hrtime.bigint(), so the measurement itself triggers fewer GC pauses.
      let previous = performance.now();
      for (let i = 0; i < commands.length; i++) {
        book.apply(commands[i], sink);
        const now = performance.now();
        latencies[i] = (now - previous) * 1e6;
        previous = now;
      }
    },
    readBook: () => canonicalizeSnapshot(book.takeSnapshot()),
    describeEvents: () => sink.describe(),
  };
}

function createPeerContender(commands: Command[]): Contender {
  const ops = PeerAdapter.prepare(commands);
  let peer = new PeerAdapter();
  return {
    reset() {
      retired.push(peer);
      peer = new PeerAdapter();
    },
    runRange(from, to) {
      for (let i = from; i < to; i++) peer.run(ops[i]);
    },
    runTimed(latencies) {
      let previous = performance.now();
      for (let i = 0; i < ops.length; i++) {
        peer.run(ops[i]);
        const now = performance.now();
        latencies[i] = (now - previous) * 1e6;
        previous = now;
      }
    },
    readBook: () => peer.readBook(),
    describeEvents: () => '(no event stream)',
  };
}

/** Median of each percentile over several latency passes; max is the worst of all. */
function combineLatencies(passes: LatencySummary[]): LatencySummary {
  const median = (pick: (summary: LatencySummary) => number): number => {
    const values = passes.map(pick).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  return {
    p50: median((l) => l.p50),
    p99: median((l) => l.p99),
    p999: median((l) => l.p999),
    p9999: median((l) => l.p9999),
    max: Math.max(...passes.map((l) => l.max)),
    stallsPerSecond: median((l) => l.stallsPerSecond),
  };
}

/** Child: measures one book on one variant and prints the result as JSON. */
function measureInChild(variant: WorkloadVariant, name: BookName): void {
  const commands = generateWorkload(variant, OPERATIONS, SEED, createNaiveBook(BENCH_SPEC));
  const mix = { limit: 0, cancel: 0, market: 0 };
  for (const c of commands) {
    if (c.type === 'cancel') mix.cancel++;
    else if (c.type === 'place' && c.orderType === 'market') mix.market++;
    else mix.limit++;
  }
  let contender: Contender;
  if (name === 'fast') contender = createEngineContender(() => FAST_BOOK.create(BENCH_SPEC), commands);
  else if (name === 'naive') contender = createEngineContender(() => NAIVE_BOOK.create(BENCH_SPEC), commands);
  else contender = createPeerContender(commands);

  contender.runRange(0, WARMUP);
  const passRates: number[] = [];
  let book: string[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    contender.reset();
    collectGarbage();
    const started = process.hrtime.bigint();
    contender.runRange(0, commands.length);
    const elapsed = Number(process.hrtime.bigint() - started);
    passRates.push((commands.length * 1e9) / elapsed);
    const final = contender.readBook();
    if (pass > 0 && final.join('\n') !== book.join('\n')) throw new Error(`${name}: passes disagree`);
    book = final;
  }
  const events = contender.describeEvents();
  const latencyPasses: LatencySummary[] = [];
  const latencies = new Float64Array(commands.length);
  for (let pass = 0; pass < LATENCY_PASSES; pass++) {
    contender.reset();
    collectGarbage();
    contender.runTimed(latencies);
    if (contender.readBook().join('\n') !== book.join('\n')) throw new Error(`${name}: timed pass disagrees`);
    latencyPasses.push(summarizeLatencies(latencies));
  }
  const hostStallsPerSecond = measureHostStalls(1);
  const sorted = [...passRates].sort((a, b) => a - b);
  const result: Measurement = {
    name,
    variant,
    workloadChecksum: checksumCommands(commands),
    mix,
    opsPerSecond: sorted[Math.floor(sorted.length / 2)],
    passRates,
    latency: combineLatencies(latencyPasses),
    latencyPasses,
    hostStallsPerSecond,
    book,
    events,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(variant: WorkloadVariant, name: BookName): Measurement {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...process.execArgv, script, '--measure', variant, name], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`benchmark child ${variant}/${name} failed (${child.status})`);
  const lines = child.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as Measurement;
}

function printRow(m: Measurement): void {
  const cells = [
    m.variant.padEnd(7),
    m.name.padEnd(18),
    formatCount(m.opsPerSecond).padStart(12),
    formatNanos(m.latency.p50).padStart(9),
    formatNanos(m.latency.p99).padStart(9),
    formatNanos(m.latency.p999).padStart(9),
    formatNanos(m.latency.p9999).padStart(9),
    formatNanos(m.latency.max).padStart(9),
  ];
  console.log(cells.join('  '));
}

function runVariant(variant: WorkloadVariant): Record<BookName, Measurement> {
  const started = Date.now();
  const results = {} as Record<BookName, Measurement>;
  for (const name of BOOK_NAMES) {
    results[name] = runChild(variant, name);
    printRow(results[name]);
  }
  const { fast, naive } = results;
  const peer = results[PEER_NAME];
  const all = Object.values(results);
  const sameWorkload = all.every((m) => m.workloadChecksum === fast.workloadChecksum);
  const reference = fast.book.join('\n');
  const sameBook = all.every((m) => m.book.join('\n') === reference);
  const sameEvents = fast.events === naive.events;
  const restingOrders = fast.book.reduce((sum, line) => sum + line.split(' ').length - 2, 0);
  const indent = ' '.repeat(9);
  console.log(
    `${indent}final books ${sameBook ? 'EQUAL' : 'DIFFER'} (fast = naive = ${PEER_NAME}): ${restingOrders} resting ` +
      `orders on ${fast.book.length} levels; same workload ${sameWorkload ? 'yes' : 'NO'} (checksum ` +
      `${fast.workloadChecksum}); mix ${formatCount(fast.mix.limit)} limit / ${formatCount(fast.mix.cancel)} ` +
      `cancel / ${formatCount(fast.mix.market)} market`,
  );
  console.log(`${indent}events ${sameEvents ? 'EQUAL' : 'DIFFER'} (fast = naive): ${fast.events}`);
  console.log(
    `${indent}fast: passes ${fast.passRates.map(formatCount).join(' / ')} ops/s; p99.99 per latency pass ` +
      `${fast.latencyPasses.map((l) => formatNanos(l.p9999)).join(' / ')}; ops > 20 µs per second of run ` +
      `${fast.latencyPasses.map((l) => formatCount(l.stallsPerSecond)).join(' / ')} vs host alone ` +
      `${formatCount(fast.hostStallsPerSecond)} (timer-only loop)`,
  );
  console.log(
    `${indent}fast / ${PEER_NAME} = ${(fast.opsPerSecond / peer.opsPerSecond).toFixed(1)}×, ` +
      `fast / naive = ${(fast.opsPerSecond / naive.opsPerSecond).toFixed(1)}× ` +
      `(${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  if (!sameWorkload || !sameBook || !sameEvents) process.exitCode = 1;
  return results;
}

function main(): void {
  const childAt = process.argv.indexOf('--measure');
  if (childAt !== -1) {
    measureInChild(process.argv[childAt + 1] as WorkloadVariant, process.argv[childAt + 2] as BookName);
    return;
  }
  console.log(
    `engine benchmark: ${formatCount(OPERATIONS)} operations per variant, seed ${SEED}; each book in its own ` +
      `process, one untimed warm-up pass, ops/s = median of ${PASSES} timed passes; node ${process.version}`,
  );
  console.log(
    `latency: every operation timed on its own (back-to-back performance.now() stamps, one timer read included); ` +
      `each percentile = median of ${LATENCY_PASSES} passes, max = worst of all`,
  );
  console.log('');
  const latencyHeads = ['p50', 'p99', 'p99.9', 'p99.99', 'max'].map((head) => head.padStart(9));
  console.log(['variant', 'book'.padEnd(18), 'ops/s'.padStart(12), ...latencyHeads].join('  '));
  runVariant('thin');
  const deep = runVariant('deep');
  console.log('');
  console.log(
    `deep fast=${Math.round(deep.fast.opsPerSecond)} naive=${Math.round(deep.naive.opsPerSecond)} ` +
      `${PEER_NAME}=${Math.round(deep[PEER_NAME].opsPerSecond)} ` +
      `ratio=${(deep.fast.opsPerSecond / deep[PEER_NAME].opsPerSecond).toFixed(1)}`,
  );
}

main();
