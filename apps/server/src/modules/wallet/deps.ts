// What the wallet's use cases share: their dependencies and the wallet's limits.

import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ImageUploads } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MarketsService, RecordedPrice } from '../markets/service.ts';
import type { Notifier } from '../notices/service.ts';
import type { UsersService } from '../users/service.ts';

/** Published conversion fee: 0.20 % of the converted value, taken in the coin received. */
export const DEFAULT_CONVERSION_FEE_BPS = 20;
/** Saved withdrawal addresses, and bank cards, per user. */
export const MAX_SAVED_PER_USER = 20;
/** Deposits a user may have waiting for review at once (each carries an image). */
export const MAX_PENDING_DEPOSITS = 10;
/** Name of the wallet's source of open reservations in the ledger's invariant check. */
export const WITHDRAWAL_RESERVATIONS = 'wallet.withdrawals';

/** What every wallet use case works with: the store, the clock and the modules it calls. */
export interface WalletDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  markets: MarketsService;
  users: UsersService;
  uploads: ImageUploads;
  /** This node's live index prices (the feed's), merged with the recorded ones; the newer wins. */
  livePrices?: () => readonly RecordedPrice[];
  conversionFeeBps?: number;
  /** Tells users of reviews (deposits credited or rejected, withdrawals passed or rejected). */
  notices?: Notifier;
  /**
   * The security module: whether an account has two-factor codes on (the withdrawal page says so)
   * and the check of its code. Required, so a missed wire fails at start instead of skipping it.
   */
  secondFactor: {
    isTotpEnabled(userId: bigint): Promise<boolean>;
    verifySecondFactor(userId: bigint, code: string | undefined): Promise<void>;
  };
  /** Refuses withdrawals that need a verified identity (the identity module's policy). Required. */
  identityGate: { requireForWithdrawal(userId: bigint, usdtValue: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  /**
   * Refuses withdrawal requests and conversions (PLATFORM_HALTED) while a platform halt holds
   * (the halt module). Required.
   */
  platformHalt: { requireRunning(): Promise<void> };
}
