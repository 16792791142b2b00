/**
 * What the back office needs of the wallet module (its staff-side service methods). Each method
 * runs its own transaction and writes its own audit record with `staff.actor`.
 */
export interface StaffActorRef {
  staffId: bigint;
  username: string;
  /** `staff:<id>`. */
  actor: string;
  ip: string;
}

/** A coin's wallet switches (the wallet's `CoinSettings`). */
export interface ConfigCoin {
  coin: string;
  icon: string;
  displayDecimals: number;
  convertible: boolean;
  depositEnabled: boolean;
  withdrawEnabled: boolean;
}

/** A coin's network (the wallet's `NetworkSettings`); amounts in atoms, `maxWithdraw` 0 = no maximum. */
export interface ConfigNetwork {
  coin: string;
  network: string;
  addressFormat: string;
  depositAddress: string;
  minDeposit: bigint;
  minWithdraw: bigint;
  maxWithdraw: bigint;
  withdrawFee: bigint;
  enabled: boolean;
  sort: number;
}

/** The wallet's configuration methods; each save is one transaction with its audit record. */
export interface WalletConfiguration {
  getConfig(): Promise<{ coins: ConfigCoin[]; networks: ConfigNetwork[] }>;
  /** Refuses an unknown coin (COIN_UNAVAILABLE). */
  saveCoinSettings(input: { settings: ConfigCoin; staff: StaffActorRef }): Promise<void>;
  /** Refuses an unknown coin or format, and a deposit address that fails its checksum (ADDRESS_INVALID). */
  saveNetwork(input: { network: ConfigNetwork; staff: StaffActorRef }): Promise<void>;
}

export interface WalletReview extends WalletConfiguration {
  listDeposits(query: { status?: string; page: number }): Promise<unknown>;
  listWithdrawals(query: { status?: string; page: number }): Promise<unknown>;
  confirmDeposit(input: {
    depositId: bigint;
    creditedAmount: bigint;
    staff: StaffActorRef;
  }): Promise<unknown>;
  rejectDeposit(input: { depositId: bigint; reason: string; staff: StaffActorRef }): Promise<unknown>;
  approveWithdrawal(input: { withdrawalId: bigint; staff: StaffActorRef }): Promise<unknown>;
  rejectWithdrawal(input: { withdrawalId: bigint; reason: string; staff: StaffActorRef }): Promise<unknown>;
  /** Dashboard figures; optional until the wallet offers them. */
  reviewFigures?(since: number): Promise<{
    pendingDeposits: number;
    pendingWithdrawals: number;
    depositsToday: number;
    withdrawalsToday: number;
  }>;
}
