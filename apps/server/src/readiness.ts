import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { LedgerService } from './modules/ledger/service.ts';
import type { Bus, Subscription } from './platform/bus.ts';
import type { Clock } from './platform/clock.ts';
import type { Db } from './platform/db.ts';

/** ok: serving normally; degraded: serving, but something needs the operator; down: not serving. */
export type CheckStatus = 'ok' | 'degraded' | 'down';

export interface Check {
  status: CheckStatus;
  /** One line a person can act on. */
  detail: string;
  /** When the check's data was taken (unix ms). */
  at: number;
}

/** One index source of one market, as this node's feed sees it. */
export interface SourceStatus {
  venue: string;
  symbol: string;
  state: 'connecting' | 'up' | 'down';
}

export interface ReadinessReport {
  /** The worst of the checks. */
  status: CheckStatus;
  checks: {
    database: Check;
    bus: Check;
    feed: Check;
    ledger: Check;
    backup: Check;
    halt: Check;
    markets: Check;
  };
  /** Every real index source per market (empty with the simulated feed, or on a node not running it). */
  sources: SourceStatus[];
}

/** A ledger check's result: whether every invariant held, the problems, and when (unix ms). */
export interface LedgerCheck {
  ok: boolean;
  problems: string[];
  checkedAt: number;
}

const PROBE_SUBJECT = 'health.probe';
const RANK: Record<CheckStatus, number> = { ok: 0, degraded: 1, down: 2 };

export interface ReadinessDeps {
  db: Db;
  bus: Bus;
  clock: Clock;
  ledger: LedgerService;
  /** The bus subject the index feed publishes on; its last event tells the feed's freshness. */
  indexSubject: string;
  feedIntervalMs: number;
  /** How often the ledger's invariants are checked; the report shows the last result. */
  ledgerCheckEveryMs: number;
  /** How long a bus round trip may take before the bus counts as down. */
  probeTimeoutMs?: number;
  /** The real index's sources as this node's feed sees them (none with the simulated feed). */
  sources?: () => SourceStatus[];
  /** Active markets with no index tick within the staleness limit (contracts refused, settlements held). */
  staleSymbols?: () => string[];
  /** The last scheduled backup's time and result (ok when there is no backup module). */
  backup?: () => Promise<Check>;
  /**
   * Whether the markets' books and market data are loaded: warming while they load after the
   * server listens (ok when there are none to load).
   */
  markets?: () => Check;
  /**
   * The platform halt (the halt module): a failed ledger check records one, which stops new
   * business on every node until staff clear it; the report shows the halt that holds.
   */
  halt: {
    halt(input: { reason: 'ledger'; detail: string }): Promise<boolean>;
    current(): Promise<{ reason: string; detail: string; haltedAt: number } | undefined>;
  };
}

/**
 * What `/readyz` and the back-office dashboard report: the database answers, the bus carries an
 * event round trip, the index feed is fresh, the ledger's invariants held at the last check (a
 * periodic job on every node, in slices that give the event loop back; requests never run it),
 * no platform halt holds, and the markets' books are loaded. A failed check halts the platform.
 */
export class Readiness {
  readonly #deps: ReadinessDeps;
  readonly #waiting = new Map<string, () => void>();
  readonly #subscriptions: Subscription[] = [];
  #lastTickAt: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #ledger: Check;
  #ledgerResult: LedgerCheck | undefined;
  #probes = 0;
  #first: Promise<unknown> | undefined;

  constructor(deps: ReadinessDeps) {
    this.#deps = deps;
    this.#ledger = {
      status: 'degraded',
      detail: 'warming: the first check is running',
      at: deps.clock.now(),
    };
  }

  /**
   * Subscribes and starts the ledger check without waiting for it: on a year of data the first
   * run reads every account, so the node serves first and `/readyz` says the ledger is warming
   * until it ends ({@link firstCheck}). It begins once `firstCheckAfter` settles (the markets'
   * books loaded), so that its reads do not slow the loading of the books the markets wait for.
   */
  async start(options: { firstCheckAfter?: Promise<unknown> } = {}): Promise<void> {
    this.#subscriptions.push(
      await this.#deps.bus.subscribe<{ id: string }>(PROBE_SUBJECT, (event) => {
        this.#waiting.get(event.data.id)?.();
      }),
      await this.#deps.bus.subscribe(this.#deps.indexSubject, (event) => {
        this.#lastTickAt = event.ts;
      }),
    );
    // why: an operational check on a real timer, not the scheduler's clock: it is not business
    // time, and tests that move a manual clock must not wait for it.
    this.#timer = setInterval(() => void this.checkLedger(), this.#deps.ledgerCheckEveryMs);
    this.#timer.unref();
    this.#first = (options.firstCheckAfter ?? Promise.resolve()).then(
      () => this.checkLedger(),
      () => this.checkLedger(),
    );
  }

  /** Settles when the check started with the node has ended (whatever it found). */
  async firstCheck(): Promise<void> {
    await this.#first;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#deps.ledger.stopChecks();
    await Promise.all(this.#subscriptions.map((s) => s.unsubscribe()));
  }

  /** The last ledger check's full result (run now when there has been none). */
  async lastLedgerCheck(): Promise<LedgerCheck> {
    if (!this.#ledgerResult) await this.checkLedger();
    return this.#ledgerResult ?? { ok: false, problems: [this.#ledger.detail], checkedAt: this.#ledger.at };
  }

  /**
   * Runs the ledger's routine check now (after any run still going) and keeps its result for the
   * report; a run that finds a problem records a platform halt. Every part of the check reads a
   * consistent state, so trading meanwhile cannot make it fail.
   */
  async checkLedger(): Promise<Check> {
    try {
      const run = await this.#deps.ledger.verify();
      const at = this.#deps.clock.now();
      this.#ledgerResult = { ok: run.ok, problems: run.problems, checkedAt: at };
      if (run.ok) {
        this.#ledger = { status: 'ok', detail: 'every invariant holds', at };
      } else {
        const detail = `${run.problems.length} problem(s): ${run.problems.slice(0, 3).join('; ')}`;
        this.#ledger = { status: 'degraded', detail, at };
        await this.#deps.halt.halt({ reason: 'ledger', detail: detail.slice(0, 2000) });
      }
    } catch (error) {
      const at = this.#deps.clock.now();
      this.#ledger = { status: 'degraded', detail: `check failed: ${(error as Error).message}`, at };
    }
    return this.#ledger;
  }

  async report(): Promise<ReadinessReport> {
    const [database, bus, backup, halt] = await Promise.all([
      this.#checkDatabase(),
      this.#checkBus(),
      this.#checkBackup(),
      this.#checkHalt(),
    ]);
    const sources = this.#deps.sources?.() ?? [];
    const markets = this.#deps.markets?.() ?? { status: 'ok', detail: 'no markets here', at: this.#now() };
    const checks = {
      database,
      bus,
      feed: this.#checkFeed(sources),
      ledger: this.#ledger,
      backup,
      halt,
      markets,
    };
    const status = Object.values(checks).reduce<CheckStatus>(
      (worst, check) => (RANK[check.status] > RANK[worst] ? check.status : worst),
      'ok',
    );
    return { status, checks, sources };
  }

  /** True when this node cannot serve at all: its database or its bus is down (`/readyz` answers 503). */
  static isUnavailable(report: ReadinessReport): boolean {
    return report.checks.database.status === 'down' || report.checks.bus.status === 'down';
  }

  async #checkDatabase(): Promise<Check> {
    const started = performance.now();
    try {
      await sql`select 1`.execute(this.#deps.db);
      return {
        status: 'ok',
        detail: `answered in ${(performance.now() - started).toFixed(1)} ms`,
        at: this.#now(),
      };
    } catch (error) {
      return { status: 'down', detail: (error as Error).message, at: this.#now() };
    }
  }

  /**
   * degraded while a platform halt holds: orders, withdrawals and conversions are refused, yet the
   * node serves everything else (cancels, reads), so `/readyz` still answers 200.
   */
  async #checkHalt(): Promise<Check> {
    try {
      const halt = await this.#deps.halt.current();
      if (!halt) return { status: 'ok', detail: 'not halted', at: this.#now() };
      return {
        status: 'degraded',
        detail: `halted since ${new Date(halt.haltedAt).toISOString()} (${halt.reason}): ${halt.detail}`,
        at: this.#now(),
      };
    } catch (error) {
      return { status: 'degraded', detail: `halt unknown: ${(error as Error).message}`, at: this.#now() };
    }
  }

  async #checkBackup(): Promise<Check> {
    if (!this.#deps.backup) return { status: 'ok', detail: 'scheduled backups are off', at: this.#now() };
    try {
      return await this.#deps.backup();
    } catch (error) {
      return {
        status: 'degraded',
        detail: `backup status unknown: ${(error as Error).message}`,
        at: this.#now(),
      };
    }
  }

  async #checkBus(): Promise<Check> {
    const id = `${process.pid}-${++this.#probes}`;
    const timeoutMs = this.#deps.probeTimeoutMs ?? 2000;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const arrived = new Promise<void>((resolve) => this.#waiting.set(id, resolve));
      await this.#deps.bus.publish(PROBE_SUBJECT, { id });
      const inTime = await Promise.race([
        arrived.then(() => true),
        new Promise<boolean>((resolve) => {
          // why: a real timer — the probe measures the bus, not the injectable clock.
          timer = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]);
      return inTime
        ? {
            status: 'ok',
            detail: `round trip in ${(performance.now() - started).toFixed(1)} ms`,
            at: this.#now(),
          }
        : { status: 'down', detail: `no round trip within ${timeoutMs} ms`, at: this.#now() };
    } catch (error) {
      return { status: 'down', detail: (error as Error).message, at: this.#now() };
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(id);
    }
  }

  /**
   * down: an active market has no index within the staleness limit (its contracts are refused
   * and its settlements wait); degraded: no tick seen yet, ticks have stopped arriving, or a
   * source is down (named); ok otherwise.
   */
  #checkFeed(sources: readonly SourceStatus[]): Check {
    const last = this.#lastTickAt;
    const now = this.#now();
    if (last === undefined) return { status: 'degraded', detail: 'no index tick yet', at: now };
    const stale = this.#deps.staleSymbols?.() ?? [];
    if (stale.length > 0) {
      return { status: 'down', detail: `index stale for ${listed(stale)}`, at: now };
    }
    const age = now - last;
    // why: a few missed intervals are normal under load; ten mean the feed has stopped.
    const limit = Math.max(10 * this.#deps.feedIntervalMs, 5000);
    if (age > limit) {
      return {
        status: 'degraded',
        detail: `last tick ${Math.round(age / 1000)} s ago (limit ${limit / 1000} s)`,
        at: now,
      };
    }
    const down = sources.filter((s) => s.state === 'down').map((s) => `${s.venue} (${s.symbol})`);
    if (down.length > 0) return { status: 'degraded', detail: `source down: ${listed(down)}`, at: now };
    return { status: 'ok', detail: `last tick ${age} ms ago`, at: now };
  }

  #now(): number {
    return this.#deps.clock.now();
  }
}

/** The first few of a list, and how many more, for a one-line detail. */
function listed(items: readonly string[]): string {
  const shown = items.slice(0, 5).join(', ');
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}

/**
 * `/readyz` and `/healthz`. For load balancers and orchestrators, `/readyz` answers 503 only when
 * this node cannot serve (database or bus down); a stale index (down: contracts refused,
 * settlements held), a source down, a ledger check or the markets' books still warming (an order
 * for a market not loaded yet waits for its book), a failed check, or the platform halt it records
 * is reported with 200, since the node still serves everything else (cancels and reads).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  readiness: Readiness,
  node: { db: Db; store: string; feed: string },
): void {
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const report = await readiness.report();
    return reply.code(Readiness.isUnavailable(report) ? 503 : 200).send(report);
  });
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    await sql`select 1`.execute(node.db);
    return reply.send({ status: 'ok', store: node.store, feed: node.feed, node: process.version });
  });
}
