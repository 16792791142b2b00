import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import * as repo from './repository.ts';

export interface AuditEntry {
  /** Who acted, e.g. `staff:7`. */
  actor: string;
  /** What they did, e.g. `deposit.confirm`. */
  action: string;
  /** What it was done to, e.g. `deposit:12`. */
  target: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
  ip?: string;
}

export interface AuditRow {
  id: bigint;
  actor: string;
  action: string;
  target: string;
  reason: string;
  before: unknown;
  after: unknown;
  ip: string;
  createdAt: number;
}

// why: audit records hold bigint amounts and ids; JSON has no bigint, so they are kept as strings.
function toJson(value: unknown): string | null {
  if (value === undefined) return null;
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** The staff audit log (the `audit_log` table's owner): append-only, one row per staff action. */
export class AuditService {
  readonly #clock: Clock;

  constructor(deps: { clock: Clock }) {
    this.#clock = deps.clock;
  }

  /** Appends one record inside the caller's transaction, the same one as the change it records. */
  async record(trx: Db, entry: AuditEntry): Promise<void> {
    await repo.insertAuditRow(trx, {
      actor: entry.actor.slice(0, 64),
      action: entry.action.slice(0, 64),
      target: entry.target.slice(0, 128),
      reason: (entry.reason ?? '').slice(0, 500),
      beforeJson: toJson(entry.before),
      afterJson: toJson(entry.after),
      ip: (entry.ip ?? '').slice(0, 64),
      now: toMillis(this.#clock.now()),
    });
  }

  /** Records newest first, filtered by actor, action, target and time (unix ms, `to` exclusive). */
  async list(
    db: Db,
    filter: {
      actor?: string;
      action?: string;
      target?: string;
      from?: number;
      to?: number;
      limit: number;
      beforeId?: bigint;
    },
  ): Promise<AuditRow[]> {
    const rows = await repo.listAuditRows(db, {
      ...filter,
      from: filter.from === undefined ? undefined : toMillis(filter.from),
      to: filter.to === undefined ? undefined : toMillis(filter.to),
    });
    return rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      reason: row.reason,
      before: row.before_json === null ? null : JSON.parse(row.before_json),
      after: row.after_json === null ? null : JSON.parse(row.after_json),
      ip: row.ip,
      createdAt: fromMillis(row.created_at),
    }));
  }
}
