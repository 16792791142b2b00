// The server's own view of a phase, read from its Prometheus `/metrics` (answered to loopback)
// before and after: how long it took to answer the orders (its request-latency histogram, from
// the request's arrival to the end of its answer), how long its event loop ran late, and its
// garbage collections. Printed beside the client's figures, it tells a slow server from a late
// client or a stalled machine without patching the server. Its CPU time comes from /proc.

import fs from 'node:fs';

/** One sample of a scrape: its metric name, its labels and its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One scrape: every sample, keyed by its metric name and its labels in name order. */
export type Samples = Map<string, Sample>;

export async function scrapeMetrics(url: string): Promise<Samples> {
  const response = await fetch(`${url}/metrics`);
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  return parseSamples(await response.text());
}

const SAMPLE_RE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL_RE = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Prometheus text format into samples; comments and malformed lines are skipped. */
export function parseSamples(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = SAMPLE_RE.exec(line.trim());
    if (!match) continue;
    const [, name = '', labelText = '', value] = match;
    const labels = Object.fromEntries(
      [...labelText.matchAll(LABEL_RE)].map(([, key, label]) => [key, label]),
    );
    const key = Object.keys(labels)
      .sort()
      .map((label) => `${label}=${labels[label]}`)
      .join(',');
    samples.set(`${name}{${key}}`, { name, labels, value: Number(value) });
  }
  return samples;
}

export interface ServerFigures {
  /** Requests to the matched routes answered in the phase. */
  requests: number;
  /** Share of them the server answered within 10 ms (a bucket bound of its histogram). */
  within10ms: number;
  /** The smallest bucket bound, in ms, under which 99 % of them were answered (Infinity past the last). */
  p99AtMostMs: number;
  /** The event loop's delay over the phase, ms (sampled every 10 ms by the server's metrics). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Garbage collections in the phase, per kind (minor, major, incremental, weakcb). */
  gc: Record<string, { count: number; ms: number }>;
}

/**
 * What the server reports for the phase between two scrapes, for the routes whose pattern
 * matches `route`. The event loop's figures are the second scrape's: the server's metrics reset
 * them at every scrape, so they cover the phase when nothing else scraped in between.
 */
export function serverFigures(before: Samples, after: Samples, route: RegExp): ServerFigures {
  const delta = (key: string): number => (after.get(key)?.value ?? 0) - (before.get(key)?.value ?? 0);
  const buckets = new Map<number, number>();
  for (const [key, { name, labels }] of after) {
    if (name !== 'http_request_duration_seconds_bucket' || !route.test(labels.route ?? '')) continue;
    const bound = labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(labels.le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + delta(key));
  }
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const requests = buckets.get(Number.POSITIVE_INFINITY) ?? 0;
  const within = (bound: number): number => buckets.get(bound) ?? 0;
  const p99Bound = bounds.find((bound) => within(bound) >= requests * 0.99) ?? Number.POSITIVE_INFINITY;
  const gc: ServerFigures['gc'] = {};
  for (const [key, { name, labels }] of after) {
    if (name !== 'nodejs_gc_duration_seconds_count') continue;
    gc[labels.kind ?? '?'] = {
      count: delta(key),
      ms: delta(key.replace('_count{', '_sum{')) * 1000,
    };
  }
  return {
    requests,
    within10ms: requests > 0 ? within(0.01) / requests : 0,
    p99AtMostMs: p99Bound * 1000,
    loopDelayP99Ms: (after.get('nodejs_eventloop_lag_p99_seconds{}')?.value ?? 0) * 1000,
    loopDelayMaxMs: (after.get('nodejs_eventloop_lag_max_seconds{}')?.value ?? 0) * 1000,
    gc,
  };
}

/** One line of {@link ServerFigures}. */
export function describeServer(figures: ServerFigures): string {
  const gc = Object.entries(figures.gc)
    .filter(([, { count }]) => count > 0)
    .map(([kind, { count, ms }]) => `${kind} ${count} (${ms.toFixed(0)} ms)`)
    .join(', ');
  const p99 = Number.isFinite(figures.p99AtMostMs) ? `≤ ${figures.p99AtMostMs} ms` : 'over the last bucket';
  return (
    `${figures.requests} answered, ${(figures.within10ms * 100).toFixed(1)} % within 10 ms, p99 ${p99}; ` +
    `event-loop delay p99 ${figures.loopDelayP99Ms.toFixed(1)} ms, max ${figures.loopDelayMaxMs.toFixed(1)} ms; ` +
    `collections: ${gc || 'none'}`
  );
}

/** User and system CPU time of a process, all its threads, milliseconds (Linux). */
export function processCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  // why: /proc counts clock ticks, 100 a second on Linux (USER_HZ).
  return ticks * 10;
}
