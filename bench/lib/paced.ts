// An open-loop load at a steady rate: requests are scheduled at even intervals and each one's
// latency is counted from the moment it was due, not from when it was sent. A server (or a
// client) that falls behind therefore shows in the figures instead of slowing the offer down.
//
// why not autocannon's `overallRate`: it lets every connection send as fast as it can until it
// has made its share of the second, then pauses until the next second. "2,000/s" there is a burst
// of 2,000 requests at the start of each second, and its latency is that of a full closed loop.
import http from 'node:http';

export interface PacedRequest {
  path: string;
  body: string;
}

export interface PacedFlow {
  /** The next request of a flow that has nothing in flight. */
  next(): PacedRequest;
  /** Its answer (status and body). */
  answer(status: number, body: string): void;
}

export interface PacedResult {
  offered: number;
  completed: number;
  failed: number;
  /** Latency from the due time, milliseconds, sorted. */
  latencies: number[];
}

/**
 * Offers `rate` requests a second for `seconds` to `port` on loopback. Each request goes to the
 * next flow with nothing in flight (a flow is one user's place-then-cancel loop), over keep-alive
 * connections; when every flow is busy the request waits, and its wait counts.
 */
export async function paced(options: {
  port: number;
  rate: number;
  seconds: number;
  flows: PacedFlow[];
  headers: Record<string, string>;
}): Promise<PacedResult> {
  const { port, rate, seconds, flows, headers } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: flows.length });
  const idle = [...flows];
  const waiting: number[] = [];
  const latencies: number[] = [];
  let completed = 0;
  let failed = 0;
  let inFlight = 0;

  const send = (flow: PacedFlow, due: number): void => {
    const { path, body } = flow.next();
    inFlight++;
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          latencies.push(performance.now() - due);
          const status = response.statusCode ?? 0;
          if (status === 200) completed++;
          else failed++;
          flow.answer(status, Buffer.concat(chunks).toString());
          inFlight--;
          const queued = waiting.shift();
          if (queued === undefined) idle.push(flow);
          else send(flow, queued);
        });
      },
    );
    request.on('error', () => {
      failed++;
      inFlight--;
      idle.push(flow);
    });
    request.end(body);
  };

  const start = performance.now();
  const total = Math.round(rate * seconds);
  let offered = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      // why: every request due by now goes out now, with its own due time; timers are coarse.
      while (offered < total && start + (offered * 1000) / rate <= now) {
        const due = start + (offered * 1000) / rate;
        offered++;
        const flow = idle.shift();
        if (flow) send(flow, due);
        else waiting.push(due);
      }
      if (offered < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  while (inFlight > 0 || waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { offered, completed, failed, latencies };
}

/** The `q` quantile of sorted values (0 when empty). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
}
