// What the delivery module's parts share: their dependencies, the module's constants and the
// configuration's shapes.

import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ContractResultValue } from '../../platform/schema.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { Constituent } from '../markets/index-price.ts';
import type { Market } from '../markets/service.ts';
import type { UserAccount } from '../users/service.ts';

/** Bus subject published after a contract is settled or closed (`SettledEvent`). */
export const SETTLED_SUBJECT = 'delivery.settled';
/** Names of the module's sources of open reservations in the ledger's invariant check. */
export const RESERVATIONS = {
  real: 'delivery.contracts',
  trialContracts: 'delivery.trial_contracts',
  trialGrants: 'delivery.trial_grants',
  trialProfit: 'delivery.trial_profit',
} as const;
/** The settings key of the back office's trial turnover multiple (hundredths: `1000` is 10×). */
export const TURNOVER_MULTIPLE_SETTING = 'delivery.trial_turnover_multiple';
/** Accounts registered from one address within this time of each other are linked (the hedge rule). */
export const SAME_ADDRESS_WINDOW_MS = 24 * 60 * 60_000;

export const USDT = 'USDT';
export const DAY_MS = 24 * 60 * 60_000;
/** Most contracts (and grants) one run of the settlement job handles; the next run goes on. */
export const BATCH = 500;

/** One index tick as the delivery module needs it. */
export interface IndexTickValue {
  price: bigint;
  at: number;
  source: string;
  /** The sources' prices that made it; absent on ticks recorded before they were kept. */
  constituents?: readonly Constituent[];
}

/**
 * What delivery needs of the index (the markets module answers it): the latest tick this node
 * has seen, whether it is stale, and the recorded ticks a contract settles on.
 */
export interface IndexSource {
  latestIndex(symbol: string): (IndexTickValue & { symbol: string }) | undefined;
  isIndexStale(symbol: string, now: number): boolean;
  firstTickAtOrAfter(db: Db, symbol: string, at: number): Promise<IndexTickValue | undefined>;
  readonly indexStaleMs: number;
}

export interface DeliveryDeps {
  /** Refuses trading to unverified users when the operator's policy asks for it. */
  identityGate: { requireForTrading(userId: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  index: IndexSource;
  markets: { listMarkets(options: { activeOnly?: boolean }): Promise<Market[]> };
  users: { getAccount(userId: bigint): Promise<UserAccount | undefined> };
  bus?: Bus;
  /**
   * Accounts linked to a user for the hedge rule (referral edge, same identity, same registration
   * address within {@link SAME_ADDRESS_WINDOW_MS}), read in the caller's transaction.
   */
  accountLinks: { linkedAccounts(db: Db, userId: bigint): Promise<bigint[]> };
  /** The keyed hash of a user's approved identity document, undefined when not verified. */
  identities: { verifiedIdentityHash(db: Db, userId: bigint): Promise<string | undefined> };
  /** Where the back office's trial turnover multiple is kept. */
  settings: {
    get(key: string, db?: Db): Promise<string | undefined>;
    set(trx: Db, key: string, value: string): Promise<void>;
  };
  /** The trial turnover multiple until the back office sets one (config `TRIAL_TURNOVER_MULTIPLE`). */
  trialTurnoverMultiple: number;
  /** A contract whose expiry finds no index tick for this long is closed and refunded. */
  graceSeconds: number;
  onError?: (error: unknown, what: string) => void;
}

/** What the `delivery.settled` event carries (ids as strings). */
export interface SettledEvent {
  id: string;
  userId: string;
  symbol: string;
  status: 'settled' | 'closed';
  result: ContractResultValue;
}

export interface PeriodSettings {
  seconds: number;
  ratioBps: bigint;
  min: bigint;
  max: bigint;
}

export interface ProductSettings {
  symbol: string;
  status: 'open' | 'closed';
  maxExposure: bigint;
  periods: PeriodSettings[];
}

export interface PlanSettings {
  name: string;
  amount: bigint;
  validityDays: number;
  profitCapPercent: number;
  trigger: 'signup' | 'campaign';
  active: boolean;
}

/** Products and trial plans to add where missing (the demo seed). */
export interface DeliveryConfig {
  products: ProductSettings[];
  plans: PlanSettings[];
}
