import type { ContractDirection, ContractResult } from '@bourse/shared/api';
import type { Posting } from '../ledger/service.ts';

/** Ratios are basis points: 8000 is 0.80. */
export const RATIO_SCALE = 10_000n;

/** Up wins when the close is above the open, down when below; equal prices are a draw. */
export function outcomeOf(
  direction: ContractDirection,
  open: bigint,
  close: bigint,
): 'win' | 'loss' | 'draw' {
  if (close === open) return 'draw';
  const up = close > open;
  return (direction === 'up') === up ? 'win' : 'loss';
}

/** The profit of a win on `amount` at `ratioBps`, truncated to the atom (never in the user's favour). */
export function winProfit(amount: bigint, ratioBps: bigint): bigint {
  return (amount * ratioBps) / RATIO_SCALE;
}

export interface SettledContract {
  userId: bigint;
  amount: bigint;
  ratioBps: bigint;
  funding: 'real' | 'trial';
}

export interface Settlement {
  /** Everything returned to the user: principal (real or trial) plus real profit. */
  payout: bigint;
  /** The user's signed result in USDT: profit paid, minus the amount lost, or 0. */
  profit: bigint;
  /** Real USDT profit taken from the grant's cap, credited locked to `trial_profit` (trial wins only). */
  trialProfitPaid: bigint;
  postings: Posting[];
}

const USDT = 'USDT';

/**
 * The ledger postings of a settlement. Real money: a win returns the frozen amount plus
 * amount × ratio from `house`; a loss moves the amount to `house`; a draw or refund returns it.
 * Trial money: the principal goes back to the user's trial money while the grant is alive
 * (`trialPrincipalToUser`), else to the `trial` account; a loss returns it to the `trial`
 * account; a win's profit is real USDT from `house`, at most `trialCapLeft`, credited to the user's
 * locked `trial_profit` balance (real turnover releases it; docs/trial-money.md).
 */
export function settle(
  contract: SettledContract,
  result: ContractResult,
  trial: { trialPrincipalToUser: boolean; trialCapLeft: bigint } = {
    trialPrincipalToUser: false,
    trialCapLeft: 0n,
  },
): Settlement {
  const user = { userId: contract.userId };
  const house = { system: 'house' as const };
  const { amount } = contract;
  const postings: Posting[] = [];
  const move = (owner: Posting['owner'], kind: Posting['kind'], value: bigint) => {
    if (value !== 0n) postings.push({ owner, asset: USDT, kind, amount: value });
  };

  if (contract.funding === 'real') {
    move(user, 'frozen', -amount);
    if (result === 'win') {
      const profit = winProfit(amount, contract.ratioBps);
      move(user, 'available', amount + profit);
      move(house, 'available', -profit);
      return { payout: amount + profit, profit, trialProfitPaid: 0n, postings };
    }
    if (result === 'loss') {
      move(house, 'available', amount);
      return { payout: 0n, profit: -amount, trialProfitPaid: 0n, postings };
    }
    move(user, 'available', amount);
    return { payout: amount, profit: 0n, trialProfitPaid: 0n, postings };
  }

  const trialAccount = { system: 'trial' as const };
  move(user, 'trial_frozen', -amount);
  if (result === 'loss') {
    move(trialAccount, 'available', amount);
    return { payout: 0n, profit: -amount, trialProfitPaid: 0n, postings };
  }
  if (trial.trialPrincipalToUser) move(user, 'trial', amount);
  else move(trialAccount, 'available', amount);
  if (result !== 'win') return { payout: amount, profit: 0n, trialProfitPaid: 0n, postings };
  const capLeft = trial.trialCapLeft > 0n ? trial.trialCapLeft : 0n;
  const full = winProfit(amount, contract.ratioBps);
  const paid = full < capLeft ? full : capLeft;
  move(house, 'available', -paid);
  move(user, 'trial_profit', paid);
  return { payout: amount + paid, profit: paid, trialProfitPaid: paid, postings };
}

/** `"0.80"` from 8000 basis points: at least two decimals, at most four. */
export function formatRatio(bps: bigint): string {
  const whole = bps / RATIO_SCALE;
  const fraction = String(bps % RATIO_SCALE)
    .padStart(4, '0')
    .replace(/0{1,2}$/, '');
  return `${whole}.${fraction.length < 2 ? fraction.padEnd(2, '0') : fraction}`;
}

/** 8000 basis points from `"0.80"` (at most four decimals, checked by the schema). */
export function parseRatio(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * RATIO_SCALE + BigInt(fraction.padEnd(4, '0').slice(0, 4) || '0');
}
