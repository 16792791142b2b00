import { type Clock, systemClock } from './clock.ts';

/**
 * One event as a subscriber receives it.
 *
 * `seq` is the event's position in its bus: strictly increasing in publish order across every
 * subject of one bus (one JetStream stream at scale), starting at 1, so a subscriber sees it rise
 * with gaps where other subjects' events fell. It is a `bigint` like every other sequence number
 * in Bourse: JetStream's stream sequence is an unsigned 64-bit integer, and a consumer that
 * records how far it has read stores it in a bigint column.
 */
export interface BusEvent<T = unknown> {
  subject: string;
  seq: bigint;
  data: T;
  /** The publisher's clock when it published, unix milliseconds. */
  ts: number;
}

/** Handles one event; an async handler is awaited before the same subscriber gets the next one. */
export type BusHandler<T> = (event: BusEvent<T>) => void | Promise<void>;

/** Where a subscriber's failure goes instead of reaching the publisher or other subscribers. */
export type BusErrorHandler = (error: unknown, event: BusEvent) => void;

export interface Subscription {
  /** Stops delivery to this handler; once it resolves no further call starts (one running may finish). */
  unsubscribe(): Promise<void>;
}

/**
 * Publish/subscribe between components: in one process `MemoryBus`; at scale `NatsBus` on NATS
 * JetStream, chosen by `NATS_URL`. Both pass the same contract suite (`bus.contract.test.ts`):
 *
 * - Delivery is asynchronous: a handler never runs inside the publisher's call stack.
 * - A handler that throws (or rejects) reaches neither the publisher nor other subscribers; the
 *   bus reports it to its `onError` callback and goes on with the next event.
 * - Each subscriber receives the events of its subject in publish order, one at a time, as its
 *   own copy of the data; a slow subscriber holds up only itself.
 * - A subscriber receives the events published after `subscribe` resolved (no replay).
 * - Data is what JSON carries plus `bigint` (money), and comes back exactly as published.
 * - Subjects are dot-separated tokens of letters, digits, `_` and `-` (no wildcards).
 */
export interface Bus {
  /** Publishes `data` on `subject`; resolves with the event's sequence once the bus has it. */
  publish<T>(subject: string, data: T): Promise<bigint>;
  /** Calls `handler` for every later event on `subject`; resolves when the subscription is live. */
  subscribe<T>(subject: string, handler: BusHandler<T>): Promise<Subscription>;
  /**
   * Answers requests on `subject` (request/reply, nothing stored): `handler`'s value is the reply.
   * Several responders on one subject are allowed; a requester takes the first reply.
   */
  serve<Q, A>(subject: string, handler: (data: Q) => Promise<A>): Promise<Subscription>;
  /**
   * Sends `data` to a responder of `subject` and resolves with its reply; rejects with
   * {@link BusNoResponderError} at once when nobody serves the subject, with
   * {@link BusTimeoutError} when no reply came within `timeoutMs`.
   */
  request<Q, A>(subject: string, data: Q, timeoutMs: number): Promise<A>;
  /** Ends every subscription and waits for running handlers; later publishes reject. */
  close(): Promise<void>;
}

/** Nobody serves the subject a request was sent to. */
export class BusNoResponderError extends Error {
  constructor(subject: string) {
    super(`no responder for ${subject}`);
    this.name = 'BusNoResponderError';
  }
}

/** A request got no reply in time (the responder may still act on it). */
export class BusTimeoutError extends Error {
  constructor(subject: string, timeoutMs: number) {
    super(`no reply from ${subject} within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

export interface BusOptions {
  /** Stamps `ts` on published events. */
  clock?: Clock;
  onError?: BusErrorHandler;
}

const SUBJECT_RE = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** Throws unless `subject` is a valid bus subject. */
export function assertSubject(subject: string): void {
  if (!SUBJECT_RE.test(subject) || subject.length > 200)
    throw new TypeError(`invalid bus subject: ${subject}`);
}

const BIGINT_TAG = '$bigint';

/** Encodes event data as JSON, keeping bigints exact (`{"$bigint":"…"}`). */
export function encodeBusData(data: unknown): string {
  let text: string | undefined;
  try {
    // why: most events carry no bigint (the spot batch event is all strings), and a replacer
    // costs a call per value; JSON.stringify throws on the first bigint it meets, and only then
    // is the event encoded again with the replacer.
    text = JSON.stringify(data);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    text = JSON.stringify(data, (_key, value) =>
      typeof value === 'bigint' ? { [BIGINT_TAG]: value.toString() } : value,
    );
  }
  if (text === undefined) throw new TypeError('bus data must be a JSON value');
  return text;
}

/** Decodes what `encodeBusData` wrote. */
export function decodeBusData<T>(text: string): T {
  // why: most events carry no bigint (the spot batch event is all strings), and a reviver costs a
  // call per value: the plain parse is several times faster (a share of order entry's profile).
  if (!text.includes(`"${BIGINT_TAG}"`)) return JSON.parse(text) as T;
  return JSON.parse(text, (_key, value) => {
    if (value !== null && typeof value === 'object' && BIGINT_TAG in value && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === BIGINT_TAG && typeof value[BIGINT_TAG] === 'string') {
        return BigInt(value[BIGINT_TAG]);
      }
    }
    return value;
  }) as T;
}

/** Calls a handler for one event, turning any failure into an `onError` report. */
export async function deliverIsolated<T>(
  handler: BusHandler<T>,
  event: BusEvent<T>,
  onError: BusErrorHandler,
): Promise<void> {
  try {
    await handler(event);
  } catch (error) {
    try {
      onError(error, event as BusEvent);
    } catch {
      // why: a failing error reporter must not stop delivery either.
    }
  }
}

export const reportToConsole: BusErrorHandler = (error, event) =>
  console.error(`bus subscriber failed on ${event.subject} #${event.seq}`, error);

interface Queued {
  subject: string;
  seq: bigint;
  ts: number;
  payload: string;
}

/** One subscriber's queue, drained in order on a later turn than the publish. */
class MemorySubscriber<T> {
  private readonly queue: Queued[] = [];
  private draining: Promise<void> | undefined;
  active = true;
  private readonly handler: BusHandler<T>;
  private readonly onError: BusErrorHandler;

  constructor(handler: BusHandler<T>, onError: BusErrorHandler) {
    this.handler = handler;
    this.onError = onError;
  }

  push(item: Queued): void {
    this.queue.push(item);
    // why: setImmediate (not a microtask) so delivery is outside the publisher's call stack and a
    // handler that publishes to itself cannot starve I/O.
    this.draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  private async drain(): Promise<void> {
    for (let item = this.queue.shift(); item && this.active; item = this.queue.shift()) {
      const data = decodeBusData<T>(item.payload);
      await deliverIsolated(
        this.handler,
        { subject: item.subject, seq: item.seq, ts: item.ts, data },
        this.onError,
      );
    }
    this.draining = undefined;
  }

  /** Stops delivery; `settled` waits for a handler call already running. */
  stop(): void {
    this.active = false;
    this.queue.length = 0;
  }

  async settled(): Promise<void> {
    await this.draining;
  }
}

/**
 * The in-process bus. Data is encoded once per publish and decoded per subscriber, exactly as on
 * NATS, so what works here works at scale and no subscriber sees another's mutations.
 */
export class MemoryBus implements Bus {
  private readonly subscribers = new Map<string, Set<MemorySubscriber<never>>>();
  private readonly responders = new Map<string, Set<(data: unknown) => Promise<unknown>>>();
  private seq = 0n;
  private closed = false;
  private readonly clock: Clock;
  private readonly onError: BusErrorHandler;

  constructor(options: BusOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? reportToConsole;
  }

  async publish<T>(subject: string, data: T): Promise<bigint> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    const payload = encodeBusData(data);
    this.seq += 1n;
    const item: Queued = { subject, seq: this.seq, ts: this.clock.now(), payload };
    for (const subscriber of this.subscribers.get(subject) ?? []) subscriber.push(item);
    return item.seq;
  }

  async subscribe<T>(subject: string, handler: BusHandler<T>): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    const subscriber = new MemorySubscriber(handler, this.onError);
    const set = this.subscribers.get(subject) ?? new Set();
    this.subscribers.set(subject, set);
    set.add(subscriber);
    return {
      unsubscribe: async () => {
        this.subscribers.get(subject)?.delete(subscriber);
        // why: not waiting for a running call lets a handler unsubscribe itself.
        subscriber.stop();
      },
    };
  }

  async serve<Q, A>(subject: string, handler: (data: Q) => Promise<A>): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    const set = this.responders.get(subject) ?? new Set();
    this.responders.set(subject, set);
    const entry = handler as (data: unknown) => Promise<unknown>;
    set.add(entry);
    return {
      unsubscribe: async () => {
        this.responders.get(subject)?.delete(entry);
      },
    };
  }

  async request<Q, A>(subject: string, data: Q, timeoutMs: number): Promise<A> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    const [responder] = this.responders.get(subject) ?? [];
    if (!responder) throw new BusNoResponderError(subject);
    // why: encoded both ways as on NATS, so neither side shares objects with the other.
    const payload = encodeBusData(data);
    await new Promise((resolve) => setImmediate(resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new BusTimeoutError(subject, timeoutMs)), timeoutMs);
    });
    try {
      const reply = await Promise.race([responder(decodeBusData(payload)), timeout]);
      return decodeBusData<A>(encodeBusData(reply ?? null));
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.responders.clear();
    const all = [...this.subscribers.values()].flatMap((set) => [...set]);
    this.subscribers.clear();
    for (const subscriber of all) subscriber.stop();
    await Promise.all(all.map((s) => s.settled()));
  }
}
