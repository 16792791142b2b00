import type { Db } from '../../platform/db.ts';
import type { Millis } from '../../platform/schema.ts';

/** The audit log: appended to, never changed (a trigger refuses UPDATE and DELETE). */

export async function insertAuditRow(
  db: Db,
  row: {
    actor: string;
    action: string;
    target: string;
    reason: string;
    beforeJson: string | null;
    afterJson: string | null;
    ip: string;
    now: Millis;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor: row.actor,
      action: row.action,
      target: row.target,
      reason: row.reason,
      before_json: row.beforeJson,
      after_json: row.afterJson,
      ip: row.ip,
      created_at: row.now,
    })
    .execute();
}

export function listAuditRows(
  db: Db,
  filter: {
    actor?: string;
    action?: string;
    target?: string;
    from?: Millis;
    to?: Millis;
    limit: number;
    beforeId?: bigint;
  },
) {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.actor) query = query.where('actor', '=', filter.actor);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.target) query = query.where('target', '=', filter.target);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
