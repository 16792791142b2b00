import { toAtoms } from '@bourse/shared';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as perpRepo from '../src/modules/perpetual/repository.ts';
import { PerpSequencer } from '../src/modules/perpetual/sequencer.ts';
import type { Db } from '../src/platform/db.ts';
import { batchIdleLimitMs, NotOwnerError } from '../src/platform/market-ownership.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const postgres = DIALECTS.find((d) => d.name === 'postgres')!;

/** Every door made: a test that fails with one shut must not leave its batch holding rows for the next. */
const doors: Door[] = [];

/** A promise with its resolve at hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A door inside a batch's transaction: once armed, the next batch stops at it — after its fence and
 * its ledger locks, idle inside its transaction, as an owner paused mid-batch would — and tells who
 * it is (its PostgreSQL backend) and the idle limit its transaction runs under, until it is opened.
 */
class Door {
  #armed = false;
  #entered = deferred<{ pid: bigint; idleLimit: string }>();
  #open = deferred<void>();

  constructor() {
    doors.push(this);
  }

  arm(): void {
    this.#armed = true;
  }

  get entered(): Promise<{ pid: bigint; idleLimit: string }> {
    return this.#entered.promise;
  }

  open(): void {
    this.#open.resolve();
  }

  /** The sequencer's `users` (asked inside every batch's transaction), with the door in it. */
  readonly users = {
    tradingStatuses: async (trx: Db) => {
      if (this.#armed) {
        this.#armed = false;
        const { rows } = await sql<{ pid: bigint; limit: string }>`select pg_backend_pid() as pid,
          current_setting('idle_in_transaction_session_timeout') as limit`.execute(trx);
        this.#entered.resolve({ pid: rows[0]!.pid, idleLimit: rows[0]!.limit });
        await this.#open.promise;
      }
      return new Map<bigint, 'ok' | 'frozen' | 'banned'>();
    },
  };
}

/**
 * The batches of owned markets on PostgreSQL, several nodes' store: a batch that sits idle inside
 * its transaction (its owner paused) is ended by PostgreSQL at half the lease, so its locks go
 * before the lease can pass and its owner commits nothing of it; no row is shared between two
 * perpetual markets' batches (fees included), so one market never waits on another's; and a batch
 * of an old epoch never commits after a newer epoch took the market.
 */
describe.skipIf(postgres.skip)('batches of owned markets on PostgreSQL', () => {
  let server: TestServer;
  const db = () => server.app.ctx.store.db;

  beforeAll(async () => {
    server = await startServer('postgres', { env: { DEMO: 'on' } });
  }, 120_000);

  afterEach(() => {
    for (const door of doors.splice(0)) door.open();
  });

  afterAll(async () => {
    await expectLedgerInvariants(server);
    await server?.close();
  });

  /**
   * Makes this test the owner of `symbol` at the next epoch, as a node gaining it does, with a
   * sequencer whose batches pass `door` and run under `leaseMs`.
   */
  async function own(symbol: string, leaseMs: number, door: Door, fenced: string[] = []) {
    const market = await perpRepo.findMarket(db(), symbol);
    const epoch = market!.epoch + 1n;
    expect(await perpRepo.takeMarketEpoch(db(), symbol, epoch)).toBe(true);
    const { ledger, audit } = server.app.ctx;
    const sequencer = new PerpSequencer(
      symbol,
      epoch,
      { db: db(), clock: server.clock, ledger, audit, users: door.users, node: { leaseMs } },
      (reason) => fenced.push(reason),
    );
    await sequencer.load();
    return sequencer;
  }

  const stored = async (symbol: string) => {
    const row = await perpRepo.findMarket(db(), symbol);
    return { epoch: row!.epoch, seq: row!.seq, mark: row!.mark };
  };
  const isAlive = async (pid: bigint) =>
    (await sql<{ n: bigint }>`select count(*) as n from pg_stat_activity where pid = ${pid}`.execute(db()))
      .rows[0]!.n > 0n;
  const lockWaiters = async () =>
    (
      await sql<{ n: bigint }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db())
    ).rows[0]!.n;
  /** Polls `condition` until it holds; fails after `ms`. */
  async function until(condition: () => Promise<boolean>, what: string, ms = 10_000) {
    const deadline = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const btcMark = (usdt: string) => ({
    kind: 'mark' as const,
    mark: toAtoms(usdt) / 10_000_000n,
    index: toAtoms(usdt),
  });
  const ethMark = (usdt: string) => ({
    kind: 'mark' as const,
    mark: toAtoms(usdt) / 1_000_000n,
    index: toAtoms(usdt),
  });

  it('limits a batch to half the lease idle inside its transaction', () => {
    expect(batchIdleLimitMs(5000)).toBe(2500);
    expect(batchIdleLimitMs(2000)).toBe(1000);
  });

  it('commits another perpetual market’s batch while a batch of the first sits inside its transaction', async () => {
    const door = new Door();
    const btc = await own('BTCUSDT', 60_000, door);
    const eth = await own('ETHUSDT', 60_000, new Door());
    door.arm();
    const held = btc.submit(btcMark('60100'));
    const inside = await door.entered;
    expect(inside.idleLimit).toBe('30s');

    // why: ETHUSDT's batch takes none of the rows BTCUSDT's holds (its fees go to its own
    // account); were one shared, it would wait on it until BTCUSDT's batch ended.
    let settled = false;
    const outcome = await Promise.race([
      eth.submit(ethMark('3100')).then(() => 'committed'),
      until(async () => settled || (await lockWaiters()) > 0n, 'a lock wait').then(() => 'waits on a lock'),
    ]);
    settled = true;
    expect(outcome).toBe('committed');
    expect((await stored('ETHUSDT')).mark).toBe(toAtoms('3100'));
    expect(await isAlive(inside.pid), 'BTCUSDT’s batch is still inside its transaction').toBe(true);
    expect((await stored('BTCUSDT')).mark).not.toBe(toAtoms('60100'));

    door.open();
    await held;
    expect((await stored('BTCUSDT')).mark).toBe(toAtoms('60100'));
  });

  it('ends a batch idle past half the lease: its row is free at once, it commits nothing, and its owner is fenced', async () => {
    const door = new Door();
    const fenced: string[] = [];
    const btc = await own('BTCUSDT', 400, door, fenced);
    const before = await stored('BTCUSDT');
    door.arm();
    const held = btc.submit(btcMark('60200'));
    const inside = await door.entered;
    expect(inside.idleLimit).toBe('200ms');
    await until(async () => !(await isAlive(inside.pid)), 'PostgreSQL ends the idle batch');

    // a new owner takes the market without waiting: the ended batch holds nothing
    expect(await perpRepo.takeMarketEpoch(db(), 'BTCUSDT', btc.epoch + 1n)).toBe(true);
    door.open();
    await expect(held).rejects.toBeInstanceOf(Error);
    expect(await stored('BTCUSDT')).toEqual({ ...before, epoch: btc.epoch + 1n });
    await expect(btc.submit(btcMark('60300'))).rejects.toBeInstanceOf(NotOwnerError);
    expect(await stored('BTCUSDT')).toEqual({ ...before, epoch: btc.epoch + 1n });
    expect(fenced).toEqual(['fenced']);
  });

  it('commits a batch that passed its fence before a takeover ahead of the new epoch, and nothing after it', async () => {
    const door = new Door();
    const fenced: string[] = [];
    const btc = await own('BTCUSDT', 60_000, door, fenced);
    const before = await stored('BTCUSDT');
    door.arm();
    const held = btc.submit(btcMark('60400'));
    await door.entered;
    let taken = false;
    const takeover = perpRepo.takeMarketEpoch(db(), 'BTCUSDT', btc.epoch + 1n).then((ok) => {
      taken = true;
      return ok;
    });
    await until(async () => (await lockWaiters()) > 0n, 'the takeover waits for the batch’s row');
    expect(taken).toBe(false);

    door.open();
    await held;
    expect(await takeover).toBe(true);
    const after = await stored('BTCUSDT');
    expect(after).toEqual({ ...before, epoch: btc.epoch + 1n, mark: toAtoms('60400') });
    await expect(btc.submit(btcMark('60500'))).rejects.toBeInstanceOf(NotOwnerError);
    expect(await stored('BTCUSDT')).toEqual(after);
    expect(fenced).toEqual(['fenced']);
  });
});
