import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchIdleLimitMs } from '../src/platform/market-ownership.ts';
import { type Cluster, clusterSkipReason, startCluster } from './cluster.ts';
import {
  type Answer,
  api,
  type Customer,
  expectBooksMatchStore,
  expectLedgerHolds,
  indexOf,
  NoAnswer,
  newCustomer,
  onTick,
  perpMarkOf,
  placeLimit,
  placePerp,
  systemBalance,
} from './cluster-trading.ts';

/**
 * Perpetual markets on three nodes when a market's owner is paused (SIGSTOP) while its batch is
 * inside its transaction (`npm run test:faults`: it pauses nodes for seconds). Perpetual orders
 * cross through the nodes that do not own the market; the other markets — the other perpetual
 * and two spot markets, owned elsewhere — are traded all along and timed. PostgreSQL must end the
 * paused batch within the idle limit (half the lease), before the lease passes; no other market
 * may wait past that limit (the other perpetual not at all: it shares no row with the paused
 * batch); another node takes the market once the lease passes; the paused owner, resumed, commits
 * nothing under its old epoch. Books, positions, fees and the ledger hold afterwards.
 */

const LEASE_SECONDS = 4;
const IDLE_LIMIT_MS = batchIdleLimitMs(LEASE_SECONDS * 1000);
const VICTIM = 'BTCUSDT';
const OTHER_PERP = 'ETHUSDT';
const MARKET_UNAVAILABLE = 7050;
const BUSY = 1006;
const ORDER_ALREADY_REVOKED = 7014;
/** How long a request may go unanswered before it counts as a hang. */
const ANSWER_MS = 15_000;
/** How long an order is retried before it counts as never answered. */
const RETRY_MS = 30_000;

const skipReason = await clusterSkipReason();
if (skipReason) console.warn(`[skip] the perpetual faults of several nodes are skipped: ${skipReason}`);

/** One request to a market, timed: what the other markets' stalls are measured with. */
interface Timed {
  market: string;
  sentAt: number;
  answeredAt: number;
  code: number | 'timeout' | 'network';
  /** It did what it asked: placed, or the order is cancelled. */
  ok: boolean;
}

/** An order sent until a node acknowledged or refused it for good, with one key throughout. */
interface Sent {
  user: Customer;
  key: string;
  id?: string;
  answers: string[];
  refused?: number;
}

describe.skipIf(skipReason !== null)('perpetual markets on three nodes when an owner is paused', () => {
  let cluster: Cluster;
  /** A connection of its own for the row-lock probes (they open transactions). */
  let probe: pg.Client;
  let failed = false;
  /** The paused market's traders (A also trades spot: it shares its USDT row with the paused batch). */
  let a: Customer;
  let b: Customer;
  /** The other perpetual market's traders, and the spot traders: nobody the paused batch touches. */
  let c1: Customer;
  let c2: Customer;
  let d1: Customer;
  let d2: Customer;
  const steps = new Map<string, { tick: bigint; lot: bigint }>();

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 3,
      leaseSeconds: LEASE_SECONDS,
      env: {
        MARKET_MAKER: 'off',
        // why: a paused node may be the index feed's; its job moves within seconds, and the
        // perpetual markets must not freeze for want of an index meanwhile.
        INDEX_STALE_MS: '120000',
        ADJUSTMENT_APPROVAL_THRESHOLD: '10000000',
      },
    });
    await cluster.settled();
    probe = new pg.Client({ connectionString: cluster.databaseUrl });
    probe.on('error', () => {});
    await probe.connect();
    // why: every batch of a perpetual market writes its row; this records each write with its
    // epoch in the writing transaction, so only committed batches leave a line, and since a batch
    // holds the row from its fence to its commit, the lines of one market are in commit order.
    await cluster.pg.query(`create table test_perp_writes (id bigserial primary key, symbol text not null,
      epoch bigint not null, at bigint not null)`);
    await cluster.pg.query(`create function test_note_perp_write() returns trigger language plpgsql as $$
      begin
        insert into test_perp_writes (symbol, epoch, at)
          values (new.symbol, new.epoch, (extract(epoch from clock_timestamp()) * 1000)::bigint);
        return new;
      end $$`);
    await cluster.pg.query(`create trigger test_perp_writes after update on perp_markets
      for each row execute function test_note_perp_write()`);
    const tag = randomBytes(3).toString('hex');
    a = await newCustomer(cluster, 1, `pfa_${tag}`, { USDT: '200000' });
    b = await newCustomer(cluster, 2, `pfb_${tag}`, { USDT: '200000' });
    c1 = await newCustomer(cluster, 3, `pfc1_${tag}`, { USDT: '20000' });
    c2 = await newCustomer(cluster, 1, `pfc2_${tag}`, { USDT: '20000' });
    d1 = await newCustomer(cluster, 2, `pfd1_${tag}`, { USDT: '20000' });
    d2 = await newCustomer(cluster, 3, `pfd2_${tag}`, { USDT: '20000' });
    const { rows } = await cluster.pg.query<{ symbol: string; tick_size: string; lot_size: string }>(
      'select symbol, tick_size::text, lot_size::text from perp_markets',
    );
    for (const row of rows) steps.set(row.symbol, { tick: BigInt(row.tick_size), lot: BigInt(row.lot_size) });
    for (const user of [a, b]) {
      const answer = await api(
        cluster.url(1),
        'POST',
        '/Perp/leverage',
        { symbol: VICTIM, leverage: '5' },
        user.token,
      );
      expect(answer.code, JSON.stringify(answer)).toBe(1000);
    }
  }, 240_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') failed = true;
    for (let i = 1; i <= cluster.nodes.length; i++) {
      cluster.resume(i);
      if (!cluster.running(i)) await cluster.start(i);
    }
  }, 120_000);

  afterAll(async () => {
    if (failed) console.warn(`[perp faults] node logs kept in ${cluster?.dir}`);
    await probe?.end().catch(() => {});
    await cluster?.close({ keepLogs: failed });
  }, 60_000);

  /** The node (1-based) holding `lease` now. */
  async function ownerNode(lease: string): Promise<number> {
    const owner = await cluster.ownerOf(lease);
    if (!owner) throw new Error(`${lease} has no lease`);
    return cluster.indexOf(owner.holder);
  }

  /** Whether another transaction holds the row `select` finds (it is locked and released at once if not). */
  async function isLocked(select: string, params: unknown[]): Promise<boolean> {
    await probe.query('begin');
    try {
      await probe.query(`${select} for update nowait`, params);
      return false;
    } catch (error) {
      if ((error as { code?: string }).code === '55P03') return true;
      throw error;
    } finally {
      await probe.query('rollback');
    }
  }
  const victimRowLocked = () => isLocked('select 1 from perp_markets where symbol = $1', [VICTIM]);
  const usdtRowLocked = (user: Customer) =>
    isLocked(`select 1 from ledger_accounts where owner = $1 and asset = 'USDT' and kind = 'available'`, [
      `user:${user.userId}`,
    ]);

  /** Polls `condition` every 20 ms until it holds; fails after `ms`, with `seen()` in the message. */
  async function until(
    condition: () => Promise<boolean> | boolean,
    what: string,
    ms: number,
    seen: () => string = () => '',
  ) {
    const deadline = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms. ${seen()}`);
      await sleep(20);
    }
  }

  /** What the paused market's orders were answered so far, by answer, for a failure's message. */
  function answersOf(sent: Sent[]): string {
    const tally = new Map<string, number>();
    for (const order of sent)
      for (const answer of order.answers) tally.set(answer, (tally.get(answer) ?? 0) + 1);
    const refused = sent.filter((order) => order.refused !== undefined).map((order) => order.refused);
    return `${sent.length} orders sent; answers ${JSON.stringify(Object.fromEntries(tally))}; refused ${JSON.stringify(refused.slice(0, 5))}`;
  }

  /**
   * Load on every market while a test runs: A buys and B sells the paused market at one price
   * through `through` (never its owner), one order after another, each retried with its key until
   * acknowledged or refused; the other perpetual and two spot markets get resting orders,
   * cancelled at once, every call timed.
   */
  function startLoad(through: number[], spot: [string, string], prices: Record<string, bigint>) {
    const state = { running: true, sent: [] as Sent[], timed: [] as Timed[], acked: 0 };
    let turn = 0;
    const node = () => through[turn++ % through.length]!;

    async function send(user: Customer, side: 'buy' | 'sell') {
      const order: Sent = { user, key: `pf-${randomUUID()}`, answers: [] };
      state.sent.push(order);
      const deadline = Date.now() + RETRY_MS;
      while (Date.now() < deadline) {
        let answer: Answer;
        try {
          answer = await placePerp(
            cluster.url(node()),
            user,
            { symbol: VICTIM, side, price: prices[VICTIM]!, qty: steps.get(VICTIM)!.lot, key: order.key },
            ANSWER_MS,
          );
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
          order.answers.push(error.kind);
          continue;
        }
        order.answers.push(String(answer.code));
        if (answer.code === 1000) {
          order.id = answer.data[0].id;
          state.acked += 1;
          return;
        }
        if (answer.code === MARKET_UNAVAILABLE || answer.code === BUSY) {
          await sleep(50);
          continue;
        }
        order.refused = answer.code;
        return;
      }
    }

    /**
     * `cancel`: a cancel whose attempt through the bus outlasted the routing's wait is sent to the
     * owner again by the node that routes it, and that repeat answers that the order is already
     * revoked: the order is cancelled either way.
     */
    async function timed(market: string, call: () => Promise<Answer>, cancel = false) {
      const sentAt = Date.now();
      try {
        const answer = await call();
        const ok = answer.code === 1000 || (cancel && answer.code === ORDER_ALREADY_REVOKED);
        state.timed.push({ market, sentAt, answeredAt: Date.now(), code: answer.code, ok });
        return answer;
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        state.timed.push({ market, sentAt, answeredAt: Date.now(), code: error.kind, ok: false });
        return undefined;
      }
    }

    async function perpResting(user: Customer, side: 'buy' | 'sell') {
      const { tick, lot } = steps.get(OTHER_PERP)!;
      const price = onTick(prices[OTHER_PERP]!, side === 'buy' ? -200n : 200n, tick);
      const placed = await timed(`perp:${OTHER_PERP}`, () =>
        placePerp(cluster.url(node()), user, { symbol: OTHER_PERP, side, price, qty: lot }, ANSWER_MS),
      );
      if (placed?.code !== 1000) return;
      await timed(
        `perp:${OTHER_PERP}`,
        () =>
          api(cluster.url(node()), 'POST', '/Perp/cancel', { id: placed.data[0].id }, user.token, ANSWER_MS),
        true,
      );
    }

    async function spotResting(user: Customer, symbol: string) {
      const placed = await timed(symbol, () =>
        placeLimit(
          cluster.url(node()),
          user,
          { symbol, side: 'buy', price: prices[symbol]!, qty: prices[`${symbol}:qty`]! },
          ANSWER_MS,
        ),
      );
      if (placed?.code !== 1000) return;
      await timed(
        symbol,
        () =>
          api(cluster.url(node()), 'POST', '/Trade/cancel', { id: placed.data.id }, user.token, ANSWER_MS),
        true,
      );
    }

    const loop = async (step: () => Promise<void>) => {
      while (state.running) await step();
    };
    const workers = [
      loop(() => send(a, 'buy')),
      loop(() => send(b, 'sell')),
      loop(async () => {
        await perpResting(c1, 'buy');
        await perpResting(c2, 'sell');
      }),
      loop(async () => {
        await spotResting(d1, spot[0]);
        await spotResting(d2, spot[0]);
      }),
      // why: A's spot orders need its USDT row, which the paused batch holds: this market waits
      // for PostgreSQL to end that batch, and no longer.
      loop(() => spotResting(a, spot[1])),
    ];
    return {
      state,
      stop: async () => {
        state.running = false;
        await Promise.all(workers);
      },
    };
  }

  /** The prices the load uses: the paused market's crossing price, the others' references. */
  async function loadPrices(spot: [string, string]): Promise<Record<string, bigint>> {
    const base = cluster.url(1);
    const prices: Record<string, bigint> = {};
    for (const symbol of [VICTIM, OTHER_PERP]) {
      const { tick } = steps.get(symbol)!;
      prices[symbol] = ((await perpMarkOf(base, symbol)) / tick) * tick;
    }
    for (const symbol of spot) {
      const { rows } = await cluster.pg.query<{ tick_size: string; lot_size: string; min_notional: string }>(
        'select tick_size::text, lot_size::text, min_notional::text from spot_markets where symbol = $1',
        [symbol],
      );
      const tick = BigInt(rows[0]!.tick_size);
      const lot = BigInt(rows[0]!.lot_size);
      const price = onTick(await indexOf(base, symbol), -300n, tick);
      prices[symbol] = price;
      prices[`${symbol}:qty`] =
        ((2n * BigInt(rows[0]!.min_notional) * 100_000_000n) / price / lot + 1n) * lot;
    }
    return prices;
  }

  /** Two spot markets whose owners are not `node`. */
  async function spotMarketsNotOf(node: number): Promise<[string, string]> {
    const { rows } = await cluster.pg.query<{ symbol: string }>(
      'select symbol from spot_markets order by symbol',
    );
    const found: string[] = [];
    for (const { symbol } of rows) if ((await ownerNode(symbol)) !== node) found.push(symbol);
    expect(found.length, 'spot markets owned by the other nodes').toBeGreaterThanOrEqual(2);
    return [found[0]!, found[1]!];
  }

  /** The writes to the paused market's row under `epoch` committed after `from` (unix ms), or after a newer epoch's first. */
  async function writesUnderOldEpoch(epoch: bigint, from: number) {
    const { rows } = await cluster.pg.query<{ id: string; epoch: string; at: string }>(
      `select id::text, epoch::text, at::text from test_perp_writes
       where symbol = $1 and epoch = $2
         and (at >= $3 or id > coalesce((select min(id) from test_perp_writes where symbol = $1 and epoch > $2), id))`,
      [VICTIM, String(epoch), from],
    );
    return rows;
  }

  /** Sends two orders of the paused market to the paused node itself: they wait in its socket and are handled after SIGCONT. */
  function sendToPaused(node: number, price: bigint) {
    return [
      placePerp(
        cluster.url(node),
        a,
        { symbol: VICTIM, side: 'buy', price, qty: steps.get(VICTIM)!.lot },
        60_000,
      ),
      placePerp(
        cluster.url(node),
        b,
        { symbol: VICTIM, side: 'sell', price, qty: steps.get(VICTIM)!.lot },
        60_000,
      ),
    ].map((p) => p.catch((error: NoAnswer) => error));
  }

  /** The oracles after a pause: orders stored once, books equal the store, positions and fees and the ledger hold. */
  async function expectConsistent(
    sent: Sent[],
    stale: (Answer | NoAnswer)[],
    spot: [string, string],
    feesBefore: bigint,
  ) {
    const died = cluster.nodes.filter((_, k) => !cluster.running(k + 1)).map((node) => node.id);
    expect(died, 'nodes that died').toEqual([]);
    expect(
      stale.filter((answer) => answer instanceof NoAnswer).map((answer) => (answer as NoAnswer).message),
      'the resumed node answers what it got while paused',
    ).toEqual([]);
    const acked = sent.filter((order) => order.id !== undefined);
    const { rows } = await cluster.pg.query<{ idempotency_key: string; ids: string[] }>(
      `select idempotency_key, array_agg(distinct id::text) as ids from perp_orders
       where idempotency_key = any($1) group by idempotency_key`,
      [sent.map((order) => order.key)],
    );
    const stored = new Map(rows.map((row) => [row.idempotency_key, row.ids]));
    expect(
      acked.filter((order) => JSON.stringify(stored.get(order.key)) !== JSON.stringify([order.id])),
      'acknowledged orders not stored exactly once under their id',
    ).toEqual([]);
    expect(
      sent
        .filter((order) => order.id === undefined && order.refused === undefined)
        .map((order) => order.answers),
      `orders neither acknowledged nor refused within ${RETRY_MS / 1000} s`,
    ).toEqual([]);
    for (const answer of stale) {
      if (answer instanceof NoAnswer || answer.code !== 1000) continue;
      const found = await cluster.pg.query('select 1 from perp_orders where id = $1', [answer.data[0].id]);
      expect(found.rows, `the resumed node's acknowledged order ${answer.data[0].id} is stored`).toHaveLength(
        1,
      );
    }
    await expectBooksMatchStore(cluster, [VICTIM, OTHER_PERP], 15_000, 'perp');
    await expectBooksMatchStore(cluster, spot, 15_000);
    const health = await cluster.admin(1, 'GET', '/perp/health', undefined, await cluster.ownerToken());
    expect(health.code, JSON.stringify(health)).toBe(1000);
    expect(
      health.data.markets.flatMap((m: { symbol: string; invariants: { name: string; ok: boolean }[] }) =>
        m.invariants.filter((i) => !i.ok).map((i) => `${m.symbol} ${i.name}`),
      ),
      'perpetual invariants',
    ).toEqual([]);
    // the fees of each perpetual market are in its own account, to the atom; the shared one saw none
    for (const symbol of [VICTIM, OTHER_PERP]) {
      const { rows: fees } = await cluster.pg.query<{ total: string }>(
        'select coalesce(sum(fee), 0)::text as total from perp_orders where symbol = $1',
        [symbol],
      );
      expect(await systemBalance(cluster.pg, `perp_fees:${symbol}`, 'USDT'), `perp_fees:${symbol}`).toBe(
        BigInt(fees[0]!.total),
      );
    }
    expect(await systemBalance(cluster.pg, 'fees', 'USDT'), 'the shared fee account').toBe(feesBefore);
    await expectLedgerHolds(cluster);
  }

  it('paused inside a batch: PostgreSQL ends it within the idle limit and before the lease passes, no other market waits past it, and the resumed owner commits nothing at its old epoch', async () => {
    const zombie = await ownerNode(`perp:${VICTIM}`);
    const through = [1, 2, 3].filter((i) => i !== zombie);
    expect(await ownerNode(`perp:${OTHER_PERP}`), `perp:${OTHER_PERP} is owned by another node`).not.toBe(
      zombie,
    );
    const spot = await spotMarketsNotOf(zombie);
    const prices = await loadPrices(spot);
    const feesBefore = await systemBalance(cluster.pg, 'fees', 'USDT');
    const load = startLoad(through, spot, prices);
    let stale: Promise<Answer | NoAnswer>[] = [];
    try {
      await until(
        () => load.state.acked >= 10,
        'the paused market trades before the pause',
        30_000,
        () => answersOf(load.state.sent),
      );

      // pause the owner until it is caught inside a batch that holds the market's row and A's USDT
      let attempts = 0;
      for (;;) {
        attempts += 1;
        cluster.pause(zombie);
        // why: a statement the owner sent just before it stopped (its commit, say) still runs.
        await sleep(30);
        if ((await victimRowLocked()) && (await usdtRowLocked(a))) break;
        cluster.resume(zombie);
        if (attempts >= 500) throw new Error('the owner was never caught inside a batch');
        const acked = load.state.acked;
        await until(() => load.state.acked > acked, 'the next trade', 30_000);
      }
      const pausedAt = Date.now();
      const lease = (await cluster.ownerOf(`perp:${VICTIM}`))!;
      stale = sendToPaused(zombie, prices[VICTIM]!);

      // PostgreSQL ends the paused batch: its row is free again, before the lease has passed
      await until(
        async () => !(await victimRowLocked()),
        'the paused batch ended',
        LEASE_SECONDS * 1000 + 5000,
      );
      const releasedAt = Date.now();
      // a new owner takes the market and commits under its new epoch
      let taken = null as Awaited<ReturnType<Cluster['ownerOf']>>;
      await until(
        async () => {
          taken = await cluster.ownerOf(`perp:${VICTIM}`);
          if (!taken || taken.holder === cluster.nodes[zombie - 1]!.id || taken.epoch <= lease.epoch)
            return false;
          const { rows } = await cluster.pg.query(
            'select 1 from test_perp_writes where symbol = $1 and epoch = $2 limit 1',
            [VICTIM, String(taken.epoch)],
          );
          return rows.length > 0;
        },
        'another node takes the market and commits',
        LEASE_SECONDS * 1000 + 10_000,
      );
      const takenAt = Date.now();
      const ackedAtTakeover = load.state.acked;
      await until(() => load.state.acked > ackedAtTakeover, 'a trade through the new owner', 15_000);
      cluster.resume(zombie);
      const resumedAt = Date.now();
      const staleAnswers = await Promise.all(stale);
      const ackedAtResume = load.state.acked;
      await until(() => load.state.acked >= ackedAtResume + 10, 'trades after the resume', 30_000);
      await load.stop();

      const during = load.state.timed.filter((t) => t.answeredAt >= pausedAt && t.sentAt <= takenAt);
      const worst = (market: string) =>
        Math.max(0, ...during.filter((t) => t.market === market).map((t) => t.answeredAt - t.sentAt));
      const committed = (market: string) =>
        during.filter((t) => t.market === market && t.ok && t.sentAt >= pausedAt).length;
      const markets = [`perp:${OTHER_PERP}`, ...spot];
      console.log(
        `[perp faults] caught n${zombie} inside a batch after ${attempts} pause(s); its batch ended ` +
          `${releasedAt - pausedAt} ms into the pause (idle limit ${IDLE_LIMIT_MS} ms), ${lease.expiresAt - releasedAt} ms ` +
          `before its lease passed; ${taken!.holder} took the market at epoch ${taken!.epoch} ${takenAt - pausedAt} ms in; ` +
          `resumed after ${resumedAt - pausedAt} ms. Longest answer during the pause: ${markets
            .map((m) => `${m} ${worst(m)} ms (${committed(m)} committed)`)
            .join(', ')}; the paused node's queued requests answered ${staleAnswers
            .map((x) => (x instanceof NoAnswer ? x.kind : x.code))
            .join(',')}`,
      );
      expect(releasedAt - pausedAt, 'the paused batch ended within the idle limit').toBeLessThanOrEqual(
        IDLE_LIMIT_MS + 250,
      );
      expect(releasedAt, 'the paused batch ended before its lease passed').toBeLessThan(lease.expiresAt);
      for (const market of markets) {
        expect(committed(market), `${market} committed during the pause`).toBeGreaterThan(0);
        expect(
          during.filter((t) => t.market === market && !t.ok).map((t) => t.code),
          `${market}: calls that failed during the pause`,
        ).toEqual([]);
      }
      // why: the other perpetual market shares no row with the paused batch (its fees go to its
      // own account): it never waits for it. The spot markets share `fees:USDT` with one another,
      // so A's spot order, waiting on its USDT row, holds the other one up until PostgreSQL ends
      // the paused batch: both wait at most the idle limit.
      expect(worst(`perp:${OTHER_PERP}`), `perp:${OTHER_PERP} never waited on the paused batch`).toBeLessThan(
        IDLE_LIMIT_MS / 2,
      );
      for (const symbol of spot)
        expect(worst(symbol), `${symbol} waited no longer than the idle limit`).toBeLessThanOrEqual(
          IDLE_LIMIT_MS + 1000,
        );
      expect(
        await writesUnderOldEpoch(lease.epoch, resumedAt),
        'writes at the old epoch after the takeover',
      ).toEqual([]);
      await expectConsistent(load.state.sent, staleAnswers, spot, feesBefore);
    } finally {
      cluster.resume(zombie);
      if (load.state.running) await load.stop();
      await Promise.all(stale);
    }
  }, 180_000);

  it('paused between batches past its lease: nothing to end; resumed, its next batch fails its fence and commits nothing at its old epoch', async () => {
    const zombie = await ownerNode(`perp:${VICTIM}`);
    const through = [1, 2, 3].filter((i) => i !== zombie);
    const spot = await spotMarketsNotOf(zombie);
    const prices = await loadPrices(spot);
    const feesBefore = await systemBalance(cluster.pg, 'fees', 'USDT');
    const load = startLoad(through, spot, prices);
    let stale: Promise<Answer | NoAnswer>[] = [];
    try {
      await until(
        () => load.state.acked >= 10,
        'the market trades before the pause',
        30_000,
        () => answersOf(load.state.sent),
      );
      let attempts = 0;
      for (;;) {
        attempts += 1;
        cluster.pause(zombie);
        await sleep(30);
        if (!(await victimRowLocked())) break;
        cluster.resume(zombie);
        if (attempts >= 500) throw new Error('the owner was never caught between batches');
        const acked = load.state.acked;
        await until(() => load.state.acked > acked, 'the next trade', 30_000);
      }
      const lease = (await cluster.ownerOf(`perp:${VICTIM}`))!;
      stale = sendToPaused(zombie, prices[VICTIM]!);
      let taken = null as Awaited<ReturnType<Cluster['ownerOf']>>;
      await until(
        async () => {
          taken = await cluster.ownerOf(`perp:${VICTIM}`);
          if (!taken || taken.holder === cluster.nodes[zombie - 1]!.id || taken.epoch <= lease.epoch)
            return false;
          const { rows } = await cluster.pg.query(
            'select 1 from test_perp_writes where symbol = $1 and epoch = $2 limit 1',
            [VICTIM, String(taken.epoch)],
          );
          return rows.length > 0;
        },
        'another node takes the market and commits',
        LEASE_SECONDS * 1000 + 10_000,
      );
      cluster.resume(zombie);
      const resumedAt = Date.now();
      const staleAnswers = await Promise.all(stale);
      const ackedAtResume = load.state.acked;
      await until(() => load.state.acked >= ackedAtResume + 10, 'trades after the resume', 30_000);
      await load.stop();
      console.log(
        `[perp faults] caught n${zombie} between batches after ${attempts} pause(s); ${taken!.holder} took the market ` +
          `at epoch ${taken!.epoch}; the paused node's queued requests answered ${staleAnswers
            .map((x) => (x instanceof NoAnswer ? x.kind : x.code))
            .join(',')}`,
      );
      expect(
        await writesUnderOldEpoch(lease.epoch, resumedAt),
        'writes at the old epoch after the takeover',
      ).toEqual([]);
      await expectConsistent(load.state.sent, staleAnswers, spot, feesBefore);
    } finally {
      cluster.resume(zombie);
      if (load.state.running) await load.stop();
      await Promise.all(stale);
    }
  }, 180_000);
});
