import {
  type ConsumerMessages,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, type NatsConnection, RequestError, TimeoutError } from '@nats-io/transport-node';
import {
  assertSubject,
  type Bus,
  type BusErrorHandler,
  type BusHandler,
  BusNoResponderError,
  type BusOptions,
  BusTimeoutError,
  decodeBusData,
  deliverIsolated,
  encodeBusData,
  reportToConsole,
  type Subscription,
} from './bus.ts';
import { type Clock, systemClock } from './clock.ts';

export interface NatsBusOptions extends BusOptions {
  /** e.g. `nats://127.0.0.1:4222`; several servers separated by commas. */
  url: string;
  /** Subject prefix and stream: events go to `<prefix>.<subject>` in stream `<PREFIX>`. */
  prefix: string;
  /** How long the stream keeps events (default one day); the bus itself never replays them. */
  maxAgeMs?: number;
  /** How long `connect` tries before giving up (default 5 s). */
  timeoutMs?: number;
}

/** The JetStream stream that holds a prefix's events: the prefix upper-cased, `.`/`-` as `_`. */
export function streamNameFor(prefix: string): string {
  return prefix.toUpperCase().replace(/[.-]/g, '_');
}

/** What is sent on the wire: the data and the publisher's time. */
interface Wire {
  ts: number;
  data: unknown;
}

/**
 * The bus on NATS JetStream: one stream per prefix (subjects `<prefix>.>`, file storage); the
 * event sequence is the stream sequence, so every node sees the same numbers. Each subscription
 * is an ordered consumer filtered to its subject, starting just after the stream's last event at
 * the time `subscribe` is called; handlers are called one at a time per subscription.
 */
export class NatsBus implements Bus {
  private readonly nc: NatsConnection;
  private readonly js: JetStreamClient;
  private readonly prefix: string;
  private readonly stream: string;
  private readonly clock: Clock;
  private readonly onError: BusErrorHandler;
  private readonly subscriptions = new Set<{ stop(): Promise<void> }>();
  private closed = false;

  private constructor(nc: NatsConnection, options: NatsBusOptions) {
    this.nc = nc;
    this.js = jetstream(nc);
    this.prefix = options.prefix;
    this.stream = streamNameFor(options.prefix);
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? reportToConsole;
  }

  /** Connects and makes sure the prefix's stream exists. */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    assertSubject(options.prefix);
    const nc = await connect({
      servers: options.url.split(',').map((url) => url.trim()),
      timeout: options.timeoutMs ?? 5000,
      name: `bourse-${options.prefix}`,
    });
    try {
      const bus = new NatsBus(nc, options);
      await ensureStream(await jetstreamManager(nc), bus.stream, options.prefix, options.maxAgeMs);
      return bus;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  async publish<T>(subject: string, data: T): Promise<bigint> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    // why: encode `data` on its own first so a value JSON cannot carry is refused, not dropped.
    const wire = `{"ts":${this.clock.now()},"data":${encodeBusData(data)}}`;
    const ack = await this.js.publish(`${this.prefix}.${subject}`, wire);
    return BigInt(ack.seq);
  }

  async subscribe<T>(subject: string, handler: BusHandler<T>): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    const jsm = await this.js.jetstreamManager();
    const { state } = await jsm.streams.info(this.stream);
    // why: start at the next stream sequence rather than "new": the consumer is created on the
    // server after this, and an event published in between must still reach the subscriber.
    const consumer = await this.js.consumers.get(this.stream, {
      filter_subjects: `${this.prefix}.${subject}`,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: state.last_seq + 1,
    });
    const messages: ConsumerMessages = await consumer.consume();
    let active = true;
    const loop = (async () => {
      for await (const message of messages) {
        if (!active) break;
        const wire = decodeBusData<Wire>(message.string());
        const event = { subject, seq: BigInt(message.seq), ts: wire.ts, data: wire.data as T };
        await deliverIsolated(handler, event, this.onError);
      }
    })();
    const entry = {
      stop: async () => {
        active = false;
        await messages.close();
        await loop.catch(() => {});
      },
    };
    this.subscriptions.add(entry);
    return {
      unsubscribe: async () => {
        this.subscriptions.delete(entry);
        active = false;
        // why: not waiting for the loop lets a handler unsubscribe itself.
        void entry.stop();
      },
    };
  }

  async serve<Q, A>(subject: string, handler: (data: Q) => Promise<A>): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    // why: core NATS, not the stream: a request is answered now or not at all, never replayed.
    const sub = this.nc.subscribe(this.#rpcSubject(subject), {
      callback: (error, message) => {
        if (error) return;
        void (async () => {
          let reply: unknown;
          try {
            reply = await handler(decodeBusData<Q>(message.string()));
          } catch (failure) {
            // why: a handler is meant to answer its refusals; a throw is reported, and the
            // requester times out rather than reading a half-made reply.
            this.onError(failure, { subject, seq: 0n, data: null, ts: this.clock.now() });
            return;
          }
          message.respond(encodeBusData(reply ?? null));
        })();
      },
    });
    const entry = { stop: async () => sub.unsubscribe() };
    this.subscriptions.add(entry);
    return {
      unsubscribe: async () => {
        this.subscriptions.delete(entry);
        sub.unsubscribe();
      },
    };
  }

  async request<Q, A>(subject: string, data: Q, timeoutMs: number): Promise<A> {
    if (this.closed) throw new Error('bus closed');
    assertSubject(subject);
    try {
      const reply = await this.nc.request(this.#rpcSubject(subject), encodeBusData(data), {
        timeout: timeoutMs,
      });
      return decodeBusData<A>(reply.string());
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders()) throw new BusNoResponderError(subject);
      if (
        error instanceof TimeoutError ||
        (error instanceof RequestError && error.cause instanceof TimeoutError)
      )
        throw new BusTimeoutError(subject, timeoutMs);
      throw error;
    }
  }

  /**
   * Where requests of `subject` travel: outside the stream's `<prefix>.>`, or the stream would
   * store the request and answer it with its own acknowledgement.
   */
  #rpcSubject(subject: string): string {
    return `rpc.${this.prefix}.${subject}`;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const all = [...this.subscriptions];
    this.subscriptions.clear();
    await Promise.all(all.map((s) => s.stop()));
    await this.nc.close();
  }
}

async function ensureStream(
  jsm: JetStreamManager,
  name: string,
  prefix: string,
  maxAgeMs = 24 * 60 * 60_000,
): Promise<void> {
  const config = {
    name,
    subjects: [`${prefix}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    // nanoseconds
    max_age: maxAgeMs * 1_000_000,
  };
  try {
    await jsm.streams.info(name);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
    try {
      await jsm.streams.add(config);
    } catch (addError) {
      // why: another node may have created it between our look and our add.
      await jsm.streams.info(name).catch(() => {
        throw addError;
      });
    }
  }
}
