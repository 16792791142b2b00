import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { AuditService } from './service.ts';

/** The audit log has no customer routes; the back office reads it through the service. */
export function registerAuditModule(deps: { db: Db; clock: Clock }): AuditService {
  return new AuditService({ clock: deps.clock });
}
