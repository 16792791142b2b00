import { sql } from 'kysely';
import type { Clock } from './clock.ts';
import { type Db, executeSql, isPostgres, transactionOnce } from './db.ts';
import { toMillis } from './time.ts';

/**
 * What a product (spot now, every later product's markets too) does when this node gains or
 * loses a market. `gain` must fence the market at `epoch` in the product's own table and rebuild
 * its state from the store before it resolves; `lose` stops sequencing the market at once.
 */
export interface OwnedProduct {
  /** Every market the product runs now. */
  markets(): Promise<string[]>;
  gain(symbol: string, epoch: bigint): Promise<void>;
  /** Several nodes: after a gain, starts answering the other nodes' requests for the market. */
  listen(symbol: string): Promise<void>;
  /** Stops at once: commands waiting are refused as "not the owner" (they are routed again). */
  lose(symbol: string): Promise<void>;
  /** Lets the commands already queued finish, then stops, before the lease is handed back. */
  handOver(symbol: string): Promise<void>;
}

export interface MarketOwnershipOptions {
  db: Db;
  clock: Clock;
  /** This node's name in `market_leases.holder` and `cluster_nodes`. */
  nodeId: string;
  /** How long a lease lasts without renewal (`MARKET_LEASE_SECONDS`). */
  leaseMs: number;
  /**
   * Several nodes share the store: leases expire, markets are spread by share and taken over
   * when their owner stops renewing. Without it (one node, the embedded store) this node takes
   * every market at start, whatever an earlier process left.
   */
  cluster: boolean;
  product: OwnedProduct;
  log: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
}

/**
 * Who owns which market: a lease per market in `market_leases`, whose epoch grows by one at
 * every change of owner. Taking a lease is one atomic statement, so racing nodes end with one
 * holder; the epoch it answers is what the product fences its writes with, so a node that lost
 * its lease without noticing (paused, cut off) can no longer commit. On several nodes a round
 * every third of the lease renews what this node owns, takes its share of the markets nobody
 * owns (the markets divided by the live nodes, rounded up; any market whose lease has been
 * expired for a whole lease, whatever the share, since a node may be missing from the count), and
 * hands back one market above its share per round, so markets spread when a node joins.
 */
export class MarketOwnership {
  readonly #o: MarketOwnershipOptions;
  readonly #owned = new Map<string, bigint>();
  /** One node: the takes under way, by market. */
  readonly #taking = new Map<string, Promise<boolean>>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> = Promise.resolve();
  #lastRenewed = 0;
  #stopped = false;

  constructor(options: MarketOwnershipOptions) {
    this.#o = options;
  }

  get nodeId(): string {
    return this.#o.nodeId;
  }

  /** How long a lease lasts without renewal; the markets' batches are limited by it ({@link runOwnedBatch}). */
  get leaseMs(): number {
    return this.#o.leaseMs;
  }

  /** The epoch this node holds `symbol` at, or undefined. */
  epochOf(symbol: string): bigint | undefined {
    return this.#owned.get(symbol);
  }

  /** Takes the first share (every market on one node) and, on several nodes, starts the rounds. */
  async start(): Promise<void> {
    if (!this.#o.cluster) {
      for (const symbol of await this.#o.product.markets()) await this.takeSole(symbol);
      return;
    }
    await this.#runRound();
    const every = Math.max(100, Math.floor(this.#o.leaseMs / 3));
    this.#timer = setInterval(() => {
      this.#round = this.#round.then(() => this.#runRound());
    }, every);
    this.#timer.unref();
  }

  /**
   * One node on its own store: takes `symbol` whatever its lease says (a market added after the
   * start, or every market at start). Answers whether this node owns it afterwards.
   */
  async takeSole(symbol: string): Promise<boolean> {
    if (this.#o.cluster || this.#stopped) return false;
    // why: the server listens while the books load, so the start's own take and a request for
    // the same market can both arrive here; one take serves both (each answered once the book is
    // loaded), or the second would seize a newer epoch and rebuild the book the first is loading.
    let taking = this.#taking.get(symbol);
    if (!taking) {
      if (this.#owned.has(symbol)) return true;
      taking = this.#seize(symbol)
        .then((epoch) => this.#gain(symbol, epoch))
        .finally(() => this.#taking.delete(symbol));
      this.#taking.set(symbol, taking);
    }
    return taking;
  }

  /**
   * The product stopped `symbol` for good: a newer epoch wrote it (`fenced`: forget it), or its
   * state could not be rebuilt (`broken`: hand the lease back, so a node, this one included,
   * takes it up again with a new epoch and a fresh rebuild).
   */
  fenced(symbol: string, epoch: bigint, reason: 'fenced' | 'broken'): void {
    if (this.#owned.get(symbol) !== epoch) return;
    this.#owned.delete(symbol);
    if (reason === 'fenced') {
      this.#o.log('warn', 'market fenced: another node owns it now', { symbol, epoch: String(epoch) });
      return;
    }
    this.#o.log(
      'error',
      'market stopped: its book no longer matches the store; it is taken up again and rebuilt',
      { symbol, epoch: String(epoch) },
    );
    void this.#release(symbol, epoch);
  }

  /** Hands every market back (their queues finish first) and leaves the cluster's count. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#round;
    for (const [symbol, epoch] of [...this.#owned]) await this.#handBack(symbol, epoch);
    if (this.#o.cluster) {
      await this.#o.db
        .deleteFrom('cluster_nodes')
        .where('node_id', '=', this.#o.nodeId)
        .execute()
        .catch(() => {});
    }
  }

  /** Every market's lease as stored (the back office shows who owns what). */
  async leases(): Promise<{ symbol: string; holder: string; epoch: bigint; live: boolean }[]> {
    const now = this.#o.clock.now();
    const rows = await this.#o.db.selectFrom('market_leases').selectAll().orderBy('symbol').execute();
    return rows.map((row) => ({
      symbol: row.symbol,
      holder: row.holder,
      epoch: row.epoch,
      live: !this.#o.cluster || Number(row.expires_at) > now,
    }));
  }

  async #runRound(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#round1();
    } catch (error) {
      this.#o.log('error', 'market ownership round failed', { err: error });
      // why: renewals could not be written; past the lease another node may own these markets,
      // so this one stops sequencing them rather than rely on the fence alone.
      if (this.#o.clock.now() - this.#lastRenewed > this.#o.leaseMs) {
        for (const symbol of [...this.#owned.keys()]) await this.#lose(symbol);
      }
    }
  }

  async #round1(): Promise<void> {
    const { db, clock, nodeId, leaseMs, product } = this.#o;
    const now = clock.now();
    await db
      .insertInto('cluster_nodes')
      .values({ node_id: nodeId, started_at: toMillis(now), expires_at: toMillis(now + leaseMs) })
      .onConflict((oc) => oc.column('node_id').doUpdateSet({ expires_at: toMillis(now + leaseMs) }))
      .execute();
    for (const [symbol, epoch] of [...this.#owned]) {
      const renewed = await db
        .updateTable('market_leases')
        .set({ expires_at: toMillis(now + leaseMs) })
        .where('symbol', '=', symbol)
        .where('holder', '=', nodeId)
        .where('epoch', '=', epoch)
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) === 0) await this.#lose(symbol);
    }
    this.#lastRenewed = now;
    if (this.#stopped) return;
    const live = await db
      .selectFrom('cluster_nodes')
      .select(sql<bigint>`count(*)`.as('n'))
      .where('expires_at', '>', toMillis(now))
      .executeTakeFirstOrThrow();
    const markets = await product.markets();
    const share = Math.ceil(markets.length / Math.max(1, Number(live.n)));
    const leases = new Map(
      (await db.selectFrom('market_leases').selectAll().execute()).map((row) => [row.symbol, row]),
    );
    // why: nodes start looking at a different market, so racing nodes rarely want the same one.
    const offset = hashOf(nodeId) % Math.max(1, markets.length);
    const order = [...markets.slice(offset), ...markets.slice(0, offset)];
    for (const symbol of order) {
      if (this.#stopped || this.#owned.has(symbol)) continue;
      const lease = leases.get(symbol);
      const expiredAt = lease ? Number(lease.expires_at) : Number.NEGATIVE_INFINITY;
      if (expiredAt > now) continue;
      const abandoned = expiredAt <= now - leaseMs;
      if (this.#owned.size >= share && !abandoned) continue;
      const epoch = await this.#acquire(symbol, now);
      if (epoch !== null && (await this.#gain(symbol, epoch))) await product.listen(symbol);
    }
    if (this.#owned.size > share && Number(live.n) > 1) {
      const [symbol, epoch] = [...this.#owned].at(-1)!;
      await this.#handBack(symbol, epoch);
    }
  }

  /** Takes `symbol` when its lease is missing or expired; answers the new epoch, or null. */
  async #acquire(symbol: string, now: number): Promise<bigint | null> {
    const { db, nodeId, leaseMs } = this.#o;
    const row = await db
      .insertInto('market_leases')
      .values({ symbol, holder: nodeId, epoch: 1n, expires_at: toMillis(now + leaseMs) })
      .onConflict((oc) =>
        oc
          .column('symbol')
          .doUpdateSet({
            holder: (eb) => eb.ref('excluded.holder'),
            epoch: sql`market_leases.epoch + 1`,
            expires_at: (eb) => eb.ref('excluded.expires_at'),
          })
          .where('market_leases.expires_at', '<=', toMillis(now)),
      )
      .returning(['holder', 'epoch'])
      .executeTakeFirst();
    return row?.holder === nodeId ? BigInt(row.epoch) : null;
  }

  /** Takes `symbol` whatever its lease says, with a new epoch (one node on its own store). */
  async #seize(symbol: string): Promise<bigint> {
    const { db, nodeId, clock, leaseMs } = this.#o;
    // why: not renewed on one node (nobody else reads it), and a cluster started later on the
    // same store must be able to take it.
    const expires = toMillis(clock.now() + leaseMs);
    const row = await db
      .insertInto('market_leases')
      .values({ symbol, holder: nodeId, epoch: 1n, expires_at: expires })
      .onConflict((oc) =>
        oc.column('symbol').doUpdateSet({
          holder: (eb) => eb.ref('excluded.holder'),
          epoch: sql`market_leases.epoch + 1`,
          expires_at: (eb) => eb.ref('excluded.expires_at'),
        }),
      )
      .returning('epoch')
      .executeTakeFirstOrThrow();
    return BigInt(row.epoch);
  }

  async #gain(symbol: string, epoch: bigint): Promise<boolean> {
    this.#owned.set(symbol, epoch);
    try {
      await this.#o.product.gain(symbol, epoch);
      this.#o.log('info', 'market owned', { symbol, epoch: String(epoch), node: this.#o.nodeId });
      return true;
    } catch (error) {
      this.#owned.delete(symbol);
      this.#o.log('error', 'market refused: it could not be taken up', { symbol, err: error });
      await this.#release(symbol, epoch);
      return false;
    }
  }

  async #lose(symbol: string): Promise<void> {
    this.#owned.delete(symbol);
    this.#o.log('warn', 'market lease lost', { symbol, node: this.#o.nodeId });
    await this.#o.product.lose(symbol);
  }

  async #handBack(symbol: string, epoch: bigint): Promise<void> {
    this.#owned.delete(symbol);
    await this.#o.product.handOver(symbol);
    await this.#release(symbol, epoch);
  }

  async #release(symbol: string, epoch: bigint): Promise<void> {
    await this.#o.db
      .updateTable('market_leases')
      .set({ expires_at: toMillis(0) })
      .where('symbol', '=', symbol)
      .where('holder', '=', this.#o.nodeId)
      .where('epoch', '=', epoch)
      .execute()
      .catch((error) => this.#o.log('warn', 'market lease release failed', { symbol, err: error }));
  }
}

/**
 * How long a batch of an owned market may sit idle inside its transaction: half the lease. The
 * owner renews its leases every third of the lease, so when it stops between two statements of a
 * batch (paused, its event loop stalled, its host frozen) its lease still has two thirds to run;
 * PostgreSQL ends the batch's session at this limit, before the lease can pass, with a sixth of
 * the lease to spare for a late renewal. The batch's row locks go with it: the node that takes the
 * market next does not wait for them, the markets whose rows the batch held (its users'
 * accounts) wait at most this long, and the owner, resumed, finds its batch gone: it commits
 * nothing of it, and its next batch fails its fence once a newer epoch holds the market.
 */
export function batchIdleLimitMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 2));
}

/**
 * Runs one batch of an owned market (spot, perpetual) in ONE transaction: not run again by the
 * store on a conflict (the sequencer changed its memory in it, and rebuilds before it tries
 * again), and on PostgreSQL idle inside for at most {@link batchIdleLimitMs} of `leaseMs`. `work`
 * fences the batch on its epoch (its first write), so no batch of an older owner commits once a
 * newer epoch holds the market.
 */
export function runOwnedBatch<T>(db: Db, leaseMs: number, work: (trx: Db) => Promise<T>): Promise<T> {
  return transactionOnce(db).execute(async (trx) => {
    // why: local to the transaction (`set_config(…, true)`): the pool's connections serve other
    // work afterwards, whose transactions may legitimately wait longer.
    if (isPostgres(trx)) {
      await executeSql(trx, "select set_config('idle_in_transaction_session_timeout', ?, true)", [
        `${batchIdleLimitMs(leaseMs)}ms`,
      ]);
    }
    return work(trx);
  });
}

function hashOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

/** A command reached a sequencer that no longer owns its market: it is routed again. */
export class NotOwnerError extends Error {
  constructor(symbol: string) {
    super(`this node does not own ${symbol}`);
    this.name = 'NotOwnerError';
  }
}

/**
 * The batch's fence failed: another epoch wrote the market since this node's last commit
 * (`fenced`), or an order row it changes was not as its book holds it (`broken`: the book must be
 * rebuilt before it takes another command).
 */
export class FencedError extends Error {
  readonly reason: 'fenced' | 'broken';
  constructor(reason: 'fenced' | 'broken') {
    super(reason);
    this.reason = reason;
  }
}
