import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

/** A platform halt (the halt module's): 1 in `active` while it holds, null once staff cleared it. */
export interface PlatformHaltsTable {
  id: Generated<bigint>;
  active: number | null;
  /** Why it was halted: `ledger` (a failed ledger check). */
  reason: 'ledger';
  detail: string;
  halted_at: Millis;
  cleared_by: string | null;
  cleared_at: Millis | null;
  clear_reason: string | null;
}
