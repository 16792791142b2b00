import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type Bus,
  type BusErrorHandler,
  type BusEvent,
  BusNoResponderError,
  BusTimeoutError,
  MemoryBus,
} from '../src/platform/bus.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { NatsBus, streamNameFor } from '../src/platform/nats-bus.ts';

const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

async function probeNats(): Promise<string | null> {
  try {
    const nc = await connect({ servers: NATS_URL, timeout: 1500, maxReconnectAttempts: 0 });
    try {
      await (await jetstreamManager(nc)).getAccountInfo();
      return null;
    } finally {
      await nc.close();
    }
  } catch (error) {
    return `NATS JetStream at ${NATS_URL} did not answer (${(error as Error).message})`;
  }
}

const natsSkipReason = await probeNats();
if (natsSkipReason) console.warn(`[skip] NATS bus contract suite skipped: ${natsSkipReason}`);

/** A fresh prefix per run, so parallel runs and leftovers never share a stream. */
const RUN_PREFIX = `bourse_test_${process.pid}_${randomBytes(3).toString('hex')}`;
const createdPrefixes = new Set<string>();

interface Made {
  bus: Bus;
  clock: ManualClock;
  errors: { error: unknown; event: BusEvent }[];
}

interface Implementation {
  name: string;
  skip: boolean;
  /** A new bus on `prefix`; the same prefix twice is two nodes on one stream. */
  make(prefix: string): Promise<Made>;
}

function collectErrors(): { errors: Made['errors']; onError: BusErrorHandler } {
  const errors: Made['errors'] = [];
  return { errors, onError: (error, event) => errors.push({ error, event }) };
}

const IMPLEMENTATIONS: Implementation[] = [
  {
    name: 'MemoryBus',
    skip: false,
    make: async () => {
      const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0, 0));
      const { errors, onError } = collectErrors();
      return { bus: new MemoryBus({ clock, onError }), clock, errors };
    },
  },
  {
    name: 'NatsBus',
    skip: natsSkipReason !== null,
    make: async (prefix) => {
      const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0, 0));
      const { errors, onError } = collectErrors();
      createdPrefixes.add(prefix);
      const bus = await NatsBus.connect({ url: NATS_URL, prefix, clock, onError });
      return { bus, clock, errors };
    },
  },
];

afterAll(async () => {
  if (createdPrefixes.size === 0) return;
  const nc = await connect({ servers: NATS_URL });
  const jsm = await jetstreamManager(nc);
  for (const prefix of createdPrefixes) await jsm.streams.delete(streamNameFor(prefix)).catch(() => {});
  await nc.close();
});

/** Waits until `predicate` holds, polling; fails after `ms`. */
async function waitFor(predicate: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Long enough for a wrongly delivered event to have arrived, on either implementation. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

let testNumber = 0;

describe.each(IMPLEMENTATIONS)('bus contract: $name', (impl) => {
  const open: Bus[] = [];
  const make = async (prefix = `${RUN_PREFIX}_${++testNumber}`) => {
    const made = await impl.make(prefix);
    open.push(made.bus);
    return { ...made, prefix };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });

  describe.skipIf(impl.skip)('cases', () => {
    it('answers a request from a responder, with bigints exact, and refuses at once without one', async () => {
      const one = await make();
      // why: two nodes on one NATS; the in-process bus is one node, asking itself.
      const two = impl.name === 'NatsBus' ? await make(one.prefix) : one;
      await expect(two.bus.request('svc.owner', { n: 1n }, 2000)).rejects.toBeInstanceOf(BusNoResponderError);
      const served = await one.bus.serve<{ n: bigint }, { twice: bigint }>('svc.owner', async ({ n }) => ({
        twice: n * 2n,
      }));
      // why: the subscription reaches the server asynchronously on NATS.
      await waitFor(async () => {
        try {
          return (
            (await two.bus.request<{ n: bigint }, { twice: bigint }>('svc.owner', { n: 1n }, 500)).twice ===
            2n
          );
        } catch {
          return false;
        }
      });
      expect(await two.bus.request('svc.owner', { n: 2n ** 62n }, 2000)).toEqual({ twice: 2n ** 63n });
      await served.unsubscribe();
      await waitFor(async () =>
        two.bus.request('svc.owner', { n: 1n }, 500).then(
          () => false,
          (error) => error instanceof BusNoResponderError,
        ),
      );
    });

    it('times out a request whose responder does not answer in time', async () => {
      const { bus } = await make();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await bus.serve('svc.slow', async () => {
        await held;
        return 'late';
      });
      await expect(bus.request('svc.slow', {}, 200)).rejects.toBeInstanceOf(BusTimeoutError);
      release();
    });

    it('delivers asynchronously, never inside the publisher, with subject, seq, data and ts', async () => {
      const { bus, clock } = await make();
      const received: { event: BusEvent<{ n: number }>; afterPublishCall: boolean }[] = [];
      let afterPublishCall = false;
      await bus.subscribe<{ n: number }>('orders.created', (event) => {
        received.push({ event, afterPublishCall });
      });
      const pending = bus.publish('orders.created', { n: 1 });
      afterPublishCall = true;
      expect(received).toEqual([]);
      const seq = await pending;
      await waitFor(() => received.length === 1);
      expect(received[0]).toEqual({
        event: { subject: 'orders.created', seq, data: { n: 1 }, ts: clock.now() },
        afterPublishCall: true,
      });
      expect(typeof seq).toBe('bigint');
      expect(seq).toBeGreaterThanOrEqual(1n);
    });

    it('carries bigints and nested data exactly, and gives each subscriber its own copy', async () => {
      const { bus } = await make();
      const data = {
        atoms: 2n ** 63n - 1n,
        above53: 2n ** 53n + 1n,
        negative: -5n,
        list: [1n, 'x', null, { deep: [true, 0.5] }],
        text: '価格 "quoted" \\ $bigint',
        fake: { $bigint: 12 },
      };
      const first: unknown[] = [];
      const second: unknown[] = [];
      await bus.subscribe<typeof data>('balances.changed', (event) => {
        first.push(structuredClone(event.data));
        event.data.list.push('mutated');
        event.data.atoms = 0n;
      });
      await bus.subscribe<typeof data>('balances.changed', (event) => {
        second.push(event.data);
      });
      await bus.publish('balances.changed', data);
      await waitFor(() => first.length === 1 && second.length === 1);
      expect(first[0]).toEqual(data);
      expect(second[0]).toEqual(data);
      expect(data.list).toHaveLength(4);
    });

    it('keeps a throwing subscriber away from the publisher and the other subscribers', async () => {
      const { bus, errors } = await make();
      const good: number[] = [];
      const boom = new Error('subscriber failed');
      await bus.subscribe<number>('trades', () => {
        throw boom;
      });
      await bus.subscribe<number>('trades', async () => {
        await Promise.resolve();
        throw new Error('async failure');
      });
      await bus.subscribe<number>('trades', (event) => {
        good.push(event.data);
      });
      const seqs: bigint[] = [];
      for (let n = 1; n <= 5; n++) seqs.push(await bus.publish('trades', n));
      await waitFor(() => good.length === 5 && errors.length === 10);
      expect(good).toEqual([1, 2, 3, 4, 5]);
      const sync = errors.filter((e) => e.error === boom);
      expect(sync.map((e) => e.event.seq)).toEqual(seqs);
      expect(sync.map((e) => e.event.data)).toEqual([1, 2, 3, 4, 5]);
      expect(errors.filter((e) => (e.error as Error).message === 'async failure')).toHaveLength(5);
    });

    it('numbers events with strictly increasing sequences across subjects, in publish order', async () => {
      const { bus } = await make();
      const a: BusEvent<number>[] = [];
      const b: BusEvent<number>[] = [];
      await bus.subscribe<number>('depth.btc', (event) => void a.push(event));
      await bus.subscribe<number>('depth.eth', (event) => void b.push(event));
      const published: { subject: string; seq: bigint; n: number }[] = [];
      for (let n = 0; n < 40; n++) {
        const subject = n % 3 === 0 ? 'depth.eth' : 'depth.btc';
        published.push({ subject, seq: await bus.publish(subject, n), n });
      }
      await waitFor(() => a.length + b.length === 40);
      const allSeqs = published.map((p) => p.seq);
      for (let i = 1; i < allSeqs.length; i++) expect(allSeqs[i]! > allSeqs[i - 1]!).toBe(true);
      const expectFor = (subject: string) =>
        published.filter((p) => p.subject === subject).map((p) => ({ subject, seq: p.seq, data: p.n }));
      expect(a.map(({ subject, seq, data }) => ({ subject, seq, data }))).toEqual(expectFor('depth.btc'));
      expect(b.map(({ subject, seq, data }) => ({ subject, seq, data }))).toEqual(expectFor('depth.eth'));
    });

    it('delivers one at a time per subscriber: a slow subscriber holds up only itself', async () => {
      const { bus } = await make();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow: number[] = [];
      const fast: number[] = [];
      let running = 0;
      let maxRunning = 0;
      await bus.subscribe<number>('klines', async (event) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await gate;
        slow.push(event.data);
        running--;
      });
      await bus.subscribe<number>('klines', (event) => void fast.push(event.data));
      for (let n = 1; n <= 4; n++) await bus.publish('klines', n);
      await waitFor(() => fast.length === 4);
      expect(fast).toEqual([1, 2, 3, 4]);
      expect(slow).toEqual([]);
      release();
      await waitFor(() => slow.length === 4);
      expect(slow).toEqual([1, 2, 3, 4]);
      expect(maxRunning).toBe(1);
    });

    it('delivers only the subscribed subject, only after subscribe, and nothing after unsubscribe', async () => {
      const { bus } = await make();
      await bus.publish('notices', 'before');
      const got: string[] = [];
      const marker: string[] = [];
      const subscription = await bus.subscribe<string>('notices', (event) => void got.push(event.data));
      await bus.subscribe<string>('notices.user', (event) => void marker.push(event.data));
      await bus.publish('notices', 'one');
      await bus.publish('notices.user', 'other subject');
      await waitFor(() => got.length === 1 && marker.length === 1);
      await subscription.unsubscribe();
      await bus.publish('notices', 'after');
      await settle();
      expect(got).toEqual(['one']);
    });

    it('lets a handler unsubscribe itself', async () => {
      const { bus } = await make();
      const got: number[] = [];
      const subscription = await bus.subscribe<number>('once', async (event) => {
        got.push(event.data);
        await subscription.unsubscribe();
      });
      await bus.publish('once', 1);
      await waitFor(() => got.length === 1);
      await bus.publish('once', 2);
      await settle();
      expect(got).toEqual([1]);
    });

    it('rejects invalid subjects and data, and publishing after close', async () => {
      const { bus } = await make();
      await expect(bus.publish('has space', 1)).rejects.toThrow('invalid bus subject');
      await expect(bus.publish('wild.*', 1)).rejects.toThrow('invalid bus subject');
      await expect(bus.publish('wild.>', 1)).rejects.toThrow('invalid bus subject');
      await expect(bus.subscribe('', () => {})).rejects.toThrow('invalid bus subject');
      await expect(bus.publish('fine', undefined)).rejects.toThrow('JSON value');
      await bus.close();
      await expect(bus.publish('fine', 1)).rejects.toThrow('bus closed');
    });

    it.runIf(impl.name === 'NatsBus')(
      'shares one sequence between two nodes on the same stream',
      async () => {
        const one = await make();
        const two = await make(one.prefix);
        const seenOnTwo: BusEvent<string>[] = [];
        const seenOnOne: BusEvent<string>[] = [];
        await two.bus.subscribe<string>('ticker', (event) => void seenOnTwo.push(event));
        await one.bus.subscribe<string>('ticker', (event) => void seenOnOne.push(event));
        const s1 = await one.bus.publish('ticker', 'from one');
        const s2 = await two.bus.publish('ticker', 'from two');
        expect(s2).toBe(s1 + 1n);
        await waitFor(() => seenOnTwo.length === 2 && seenOnOne.length === 2);
        expect(seenOnTwo.map((e) => [e.seq, e.data])).toEqual([
          [s1, 'from one'],
          [s2, 'from two'],
        ]);
        expect(seenOnOne.map((e) => [e.seq, e.data])).toEqual(seenOnTwo.map((e) => [e.seq, e.data]));
      },
    );
  });
});
