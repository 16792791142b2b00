import type {
  StaffDeposit,
  StaffDepositQueue,
  StaffWithdrawal,
  StaffWithdrawalQueue,
} from '@bourse/shared/api';
import type { CoinSettings, NetworkSettings, WalletConfig } from '../wallet/config.ts';

/**
 * What the back office needs of the wallet module (its staff-side service methods). Each method
 * runs its own transaction and writes its own audit record with `staff.actor`. The shapes are the
 * wallet's own (`wallet/config.ts`, derived from the shared wire schemas).
 */
export interface StaffActorRef {
  staffId: bigint;
  username: string;
  /** `staff:<id>`. */
  actor: string;
  ip: string;
}

/** The wallet's configuration methods; each save is one transaction with its audit record. */
export interface WalletConfiguration {
  getConfig(): Promise<WalletConfig>;
  /** Refuses an unknown coin (COIN_UNAVAILABLE). */
  saveCoinSettings(input: { settings: CoinSettings; staff: StaffActorRef }): Promise<void>;
  /** Refuses an unknown coin, and a deposit address that fails its checksum (ADDRESS_INVALID). */
  saveNetwork(input: { network: NetworkSettings; staff: StaffActorRef }): Promise<void>;
}

export interface WalletReview extends WalletConfiguration {
  listDeposits(query: { status?: string; page: number }): Promise<StaffDepositQueue>;
  listWithdrawals(query: { status?: string; page: number }): Promise<StaffWithdrawalQueue>;
  confirmDeposit(input: {
    depositId: bigint;
    creditedAmount: bigint;
    staff: StaffActorRef;
  }): Promise<StaffDeposit>;
  rejectDeposit(input: { depositId: bigint; reason: string; staff: StaffActorRef }): Promise<StaffDeposit>;
  approveWithdrawal(input: { withdrawalId: bigint; staff: StaffActorRef }): Promise<StaffWithdrawal>;
  rejectWithdrawal(input: {
    withdrawalId: bigint;
    reason: string;
    staff: StaffActorRef;
  }): Promise<StaffWithdrawal>;
  /** Dashboard figures; optional until the wallet offers them. */
  reviewFigures?(since: number): Promise<{
    pendingDeposits: number;
    pendingWithdrawals: number;
    depositsToday: number;
    withdrawalsToday: number;
  }>;
}
