import { AppError, type ResultKey } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import * as repo from './repository.ts';

/** A halt that holds: why, the problems found, and since when (unix ms). */
export interface PlatformHalt {
  id: bigint;
  reason: 'ledger';
  detail: string;
  haltedAt: number;
}

/** What `clearAsStaff` can answer besides the codes every route can. */
export const CLEAR_HALT_ERRORS = [
  'PARAM_ERROR',
  'LEDGER_CHECK_FAILED',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];

/** How long a node trusts what it last read of the halt; a halt reaches every node within it. */
export const HALT_CACHE_MS = 1000;

export interface PlatformHaltDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** Runs the ledger's invariant check now (and keeps its result where the dashboard reads it). */
  verifyLedger: () => Promise<{ ok: boolean; problems: string[] }>;
  /** Overrides HALT_CACHE_MS (tests); never above it. */
  cacheMs?: number;
}

/**
 * The platform halt (the `platform_halts` table's owner). A failed ledger check records one (the
 * readiness check calls `halt`); while it holds, new spot orders, withdrawal requests and
 * conversions are refused with PLATFORM_HALTED on every node, since their gate reads the database;
 * cancelling and reading stay open, so customers can still take their orders off the book. Staff
 * with `platform.resume` clear it, and only once the ledger checks clean again.
 */
export class PlatformHaltService {
  readonly #deps: PlatformHaltDeps;
  readonly #cacheMs: number;
  #known: { halted: boolean; until: number } | undefined;
  #reading: Promise<boolean> | undefined;
  /** Bumped whenever this node changes the halt, so a read begun before is not believed. */
  #generation = 0;

  constructor(deps: PlatformHaltDeps) {
    this.#deps = deps;
    this.#cacheMs = Math.min(deps.cacheMs ?? HALT_CACHE_MS, HALT_CACHE_MS);
  }

  /**
   * The gate: throws PLATFORM_HALTED while a halt holds. What a node read is trusted for up to
   * a second (a real monotonic timer: it bounds how late a halt recorded on another node takes
   * effect here, whatever the business clock says), and concurrent callers share one read, so a
   * burst of orders costs one query a second, not one each.
   */
  async requireRunning(): Promise<void> {
    if (await this.#halted()) throw new AppError('PLATFORM_HALTED');
  }

  /** The halt that holds now, read from the store (no cache). */
  async current(): Promise<PlatformHalt | undefined> {
    const row = await repo.findActive(this.#deps.db);
    return row && toHalt(row);
  }

  /**
   * Records a halt (the system's act, audited in the same transaction); answers false when one
   * already holds, which it keeps (the first failure's time and problems).
   */
  async halt(input: { reason: 'ledger'; detail: string }): Promise<boolean> {
    const { db, clock, audit } = this.#deps;
    try {
      await db.transaction().execute(async (trx) => {
        if (await repo.findActive(trx)) throw new AppError('ILLEGAL_OPERATION');
        const id = await repo.insertHalt(trx, { ...input, now: clock.now() });
        await audit.record(trx, {
          actor: 'system',
          action: 'platform.halt',
          target: `halt:${id}`,
          after: { reason: input.reason, detail: input.detail },
        });
      });
    } catch (error) {
      // why: another node recorded it first (the unique index on `active`), or it already held.
      if (error instanceof AppError || isUniqueViolation(error)) return false;
      throw error;
    } finally {
      this.#forget();
    }
    return true;
  }

  /**
   * Clears the halt on a staff member's word, with their reason, after running the ledger check
   * again: a ledger still broken answers LEDGER_CHECK_FAILED and the halt stays. The clear and its
   * audit record are one transaction; a halt already cleared answers ILLEGAL_OPERATION.
   */
  async clearAsStaff(staff: StaffActor, input: { reason: string }): Promise<PlatformHalt> {
    const reason = input.reason.trim();
    if (reason.length === 0) throw new AppError('PARAM_ERROR');
    const { db, clock, audit } = this.#deps;
    if (!(await repo.findActive(db))) throw new AppError('ILLEGAL_OPERATION');
    const check = await this.#deps.verifyLedger();
    if (!check.ok) throw new AppError('LEDGER_CHECK_FAILED');
    try {
      return await db.transaction().execute(async (trx) => {
        const cleared = await repo.clearActive(trx, { by: staff.actor, reason, now: clock.now() });
        if (!cleared) throw new AppError('ILLEGAL_OPERATION');
        await audit.record(trx, {
          actor: staff.actor,
          action: 'platform.resume',
          target: `halt:${cleared.id}`,
          before: { reason: cleared.reason, detail: cleared.detail, haltedAt: fromMillis(cleared.halted_at) },
          after: { ledgerOk: true },
          reason,
          ip: staff.ip,
        });
        return toHalt(cleared);
      });
    } finally {
      this.#forget();
    }
  }

  async #halted(): Promise<boolean> {
    const known = this.#known;
    if (known && performance.now() < known.until) return known.halted;
    if (!this.#reading) {
      const reading = this.#read().finally(() => {
        if (this.#reading === reading) this.#reading = undefined;
      });
      this.#reading = reading;
    }
    return this.#reading;
  }

  async #read(): Promise<boolean> {
    const generation = this.#generation;
    // why: trusted from when the read began, so nothing older than the cache time is believed.
    const started = performance.now();
    const halted = (await repo.findActive(this.#deps.db)) !== undefined;
    if (generation === this.#generation) this.#known = { halted, until: started + this.#cacheMs };
    return halted;
  }

  #forget(): void {
    this.#generation += 1;
    this.#known = undefined;
    this.#reading = undefined;
  }
}

function toHalt(row: { id: bigint; reason: 'ledger'; detail: string; halted_at: bigint }): PlatformHalt {
  return { id: row.id, reason: row.reason, detail: row.detail, haltedAt: fromMillis(row.halted_at) };
}
