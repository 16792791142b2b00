// What the launchpad's use cases share: their dependencies, the module's limits and its ledger accounts.

import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService, Owner, Posting } from '../ledger/service.ts';
import type { SettingsService } from '../settings/service.ts';
import type { UserAccount } from '../users/service.ts';
import type * as repo from './repository.ts';

export const DAY_MS = 86_400_000;
/** A pending reward not claimed by verification within this many days is void (products §2 rule 6). */
export const PENDING_DAYS = 30;
export const REFERRAL_SETTING = 'launchpad.referral';
export const DEMO_SEEDED = 'launchpad.demo_seeded';
export const REALNAME_VERIFIED = 2n;
/** Most records (or rewards) one run of the job handles per step; the next run goes on. */
export const BATCH = 500;
export const PAGE = 20;

/** Names of the module's sources of open reservations in the ledger's invariant check. */
export const RESERVATIONS = { commitments: 'launchpad.commitments', locked: 'launchpad.locked' } as const;

/** A staff member acting through the back office: the staff routes pass who and from where, not the name. */
export type LaunchpadStaff = Pick<StaffActor, 'staffId' | 'actor' | 'ip'>;

/** What every launchpad use case works with: the store, the clock and the modules it calls. */
export interface LaunchpadDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  settings: SettingsService;
  users: {
    getAccount(userId: bigint, db?: Db): Promise<UserAccount | undefined>;
    listAncestors(db: Db, userId: bigint): Promise<{ userId: bigint; generation: number }[]>;
  };
  /** Refuses unverified users when the operator's policy asks for it (as for trading). */
  identityGate: { requireForTrading(userId: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  /** Adds the project's coin to the platform's coins (the markets module). */
  coins: { addCoin(trx: Db, coin: { symbol: string; name: string; displayDecimals: number }): Promise<void> };
}

export type ProjectRow = NonNullable<Awaited<ReturnType<typeof repo.findProject>>>;

export const system = (name: `${'lp_issuer' | 'lp_inventory' | 'lp_escrow'}`, id: bigint): Owner => ({
  system: `${name}:${id}`,
});

export const REWARDS: Owner = { system: 'rewards' };

/** Leaves out zero postings; an entry of fewer than two lines is not posted. */
export function lines(...postings: (Posting | false)[]): Posting[] {
  return postings.filter((p): p is Posting => p !== false && p.amount !== 0n);
}
