// An open-loop load at a steady rate: requests are scheduled at even intervals and each one's
// latency is counted from the moment it was due, not from when it was sent. A server (or a
// client) that falls behind therefore shows in the figures instead of slowing the offer down.
//
// why not autocannon's `overallRate`: it lets every connection send as fast as it can until it
// has made its share of the second, then pauses until the next second. "2,000/s" there is a burst
// of 2,000 requests at the start of each second, and its latency is that of a full closed loop.
//
// why raw sockets, not `node:http`: the client shares the machine's two cores with the server, and
// whatever it spends is taken from the server and, when its own event loop runs late, counted in
// every latency (a request is timed from its due time, so a late send is a slow answer). With
// `http.request` per order, the client's event loop was 26–38 % busy at 2,000/s and ran up to
// 10–15 ms late (p99). Here a request is one prepared string written to its flow's keep-alive
// socket and an answer is read by its `content-length`, as autocannon does for the closed loop.
import net from 'node:net';

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
  /** How late the client itself wrote each request after its due time, milliseconds, sorted. */
  sendDelays: number[];
  /** The client process's CPU time (user and system) while the load ran, milliseconds. */
  clientCpuMs: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection carrying one flow's requests, one at a time. */
class Connection {
  readonly #socket: net.Socket;
  #buffered: Buffer = Buffer.alloc(0);
  #onAnswer: ((status: number, body: string) => void) | undefined;
  #onError: ((error: Error) => void) | undefined;

  constructor(port: number) {
    this.#socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
    this.#socket.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#socket.on('error', (error) => this.#fail(error));
    this.#socket.on('close', () => this.#fail(new Error('connection closed')));
  }

  /** Writes one request; `onAnswer` gets its status and body. */
  send(
    request: string,
    onAnswer: (status: number, body: string) => void,
    onError: (error: Error) => void,
  ): void {
    this.#onAnswer = onAnswer;
    this.#onError = onError;
    this.#socket.write(request);
  }

  close(): void {
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    const onError = this.#onError;
    this.#onAnswer = undefined;
    this.#onError = undefined;
    onError?.(error);
  }

  #read(chunk: Buffer): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    const headerEnd = this.#buffered.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.#buffered.toString('latin1', 0, headerEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.#fail(new Error(`an answer without content-length: ${head.split('\r\n')[0]}`));
      this.close();
      return;
    }
    const bodyStart = headerEnd + HEADER_END.length;
    const bodyEnd = bodyStart + Number(length[1]);
    if (this.#buffered.length < bodyEnd) return;
    const status = Number(head.slice(9, 12));
    const body = this.#buffered.toString('utf8', bodyStart, bodyEnd);
    this.#buffered = this.#buffered.subarray(bodyEnd);
    const onAnswer = this.#onAnswer;
    this.#onAnswer = undefined;
    this.#onError = undefined;
    onAnswer?.(status, body);
  }
}

/**
 * Offers `rate` requests a second for `seconds` to `port` on loopback. Each request goes to the
 * next flow with nothing in flight (a flow is one user's place-then-cancel loop, on its own
 * keep-alive connection); when every flow is busy the request waits, and its wait counts.
 */
export async function paced(options: {
  port: number;
  rate: number;
  seconds: number;
  flows: PacedFlow[];
  headers: Record<string, string>;
}): Promise<PacedResult> {
  const { port, rate, seconds, flows, headers } = options;
  const fixedHeaders = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const requestText = ({ path, body }: PacedRequest): string =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${fixedHeaders}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const lanes = flows.map((flow) => ({ flow, connection: new Connection(port) }));
  const idle = [...lanes];
  const waiting: number[] = [];
  const latencies: number[] = [];
  const sendDelays: number[] = [];
  let completed = 0;
  let failed = 0;
  let inFlight = 0;

  const release = (lane: (typeof lanes)[number]): void => {
    inFlight--;
    const queued = waiting.shift();
    if (queued === undefined) idle.push(lane);
    else send(lane, queued);
  };
  const send = (lane: (typeof lanes)[number], due: number): void => {
    inFlight++;
    const text = requestText(lane.flow.next());
    sendDelays.push(performance.now() - due);
    lane.connection.send(
      text,
      (status, body) => {
        latencies.push(performance.now() - due);
        if (status === 200) completed++;
        else failed++;
        lane.flow.answer(status, body);
        release(lane);
      },
      () => {
        failed++;
        // why: the lane's connection is gone; its flow stays out of the rotation.
        inFlight--;
      },
    );
  };

  const cpuBefore = process.cpuUsage();
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
        const lane = idle.shift();
        if (lane) send(lane, due);
        else waiting.push(due);
      }
      if (offered < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  // why: left waiting only when every connection failed; each counts as failed.
  failed += waiting.length;
  const cpu = process.cpuUsage(cpuBefore);
  for (const { connection } of lanes) connection.close();
  latencies.sort((a, b) => a - b);
  sendDelays.sort((a, b) => a - b);
  return { offered, completed, failed, latencies, sendDelays, clientCpuMs: (cpu.user + cpu.system) / 1000 };
}

/** The `q` quantile of sorted values (0 when empty). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
}
