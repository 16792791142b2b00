// The wallet: coin switches and networks, deposits, withdrawals, conversions and bank cards.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

/** A coin's wallet switches; written by the wallet module. */
export interface WalletCoinsTable {
  coin: string;
  icon: Generated<string>;
  display_decimals: Generated<bigint>;
  convertible: Generated<bigint>;
  deposit_enabled: Generated<bigint>;
  withdraw_enabled: Generated<bigint>;
}

/** A coin's network: deposit address and limits in atoms; written by the wallet module. */
export interface WalletNetworksTable {
  id: Generated<bigint>;
  coin: string;
  network: string;
  /** `btc`, `eth`, `trx`, ... (address validation) or `bank` (withdrawal to a bank card). */
  address_format: string;
  deposit_address: Generated<string>;
  min_deposit: Generated<bigint>;
  min_withdraw: Generated<bigint>;
  max_withdraw: Generated<bigint>;
  withdraw_fee: Generated<bigint>;
  enabled: Generated<bigint>;
  sort: Generated<bigint>;
}

export type DepositStatus = 'confirming' | 'credited' | 'rejected';

export interface DepositsTable {
  id: Generated<bigint>;
  user_id: bigint;
  coin: string;
  network: string;
  address: string;
  amount: bigint;
  credited_amount: Generated<bigint>;
  tx_hash: Generated<string>;
  /** File name of the voucher image in the upload store. */
  voucher: string;
  status: DepositStatus;
  reason: Generated<string>;
  reviewed_by: Generated<string>;
  created_at: Millis;
  reviewed_at: Millis | null;
}

export type WithdrawalStatus = 'review' | 'passed' | 'rejected';

export interface WithdrawalsTable {
  id: Generated<bigint>;
  user_id: bigint;
  coin: string;
  network: string;
  type: 'address' | 'bank';
  destination: string;
  amount: bigint;
  fee: bigint;
  status: WithdrawalStatus;
  reason: Generated<string>;
  idempotency_key: string;
  reviewed_by: Generated<string>;
  created_at: Millis;
  reviewed_at: Millis | null;
  /** When the customer's notice of the outcome was written; null before, or if none was. */
  notified_at: Generated<Millis | null>;
}

export interface ConversionsTable {
  id: Generated<bigint>;
  user_id: bigint;
  from_coin: string;
  to_coin: string;
  amount: bigint;
  /** Atoms of `to_coin` per unit of `from_coin`, before the fee. */
  rate: bigint;
  fee: bigint;
  received: bigint;
  idempotency_key: string;
  created_at: Millis;
}

export interface BankCardsTable {
  id: Generated<bigint>;
  user_id: bigint;
  number: string;
  name: string;
  bank: string;
  bank_code: string;
  created_at: Millis;
}
