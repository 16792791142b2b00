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

export interface WalletReview {
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
