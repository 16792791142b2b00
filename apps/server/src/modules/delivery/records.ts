// Contract and grant rows as customers see them, and the trial arithmetic the service and the back
// office share.

import { AppError, fromAtoms, MAX_AMOUNT_ATOMS } from '@bourse/shared';
import type { ContractRecord, TrialGrant } from '@bourse/shared/api';
import { fromMillis } from '../../platform/time.ts';
import { readWireConstituents } from '../markets/constituents.ts';
import type { PeriodSettings, PlanSettings } from './deps.ts';
import type * as repo from './repository.ts';
import { formatRatio, RATIO_SCALE } from './settlement.ts';

export type ContractRow = repo.ContractRow;
export type GrantRow = NonNullable<Awaited<ReturnType<typeof repo.findGrant>>>;

export const ms = (value: bigint | null) => (value === null ? null : fromMillis(value));

export const DONE_STATUSES = ['settled', 'closed'] as const;

export function toContractRecord(row: ContractRow): ContractRecord {
  return {
    id: String(row.id),
    symbol: row.symbol,
    direction: row.direction,
    period: Number(row.period),
    amount: fromAtoms(row.amount),
    funding: row.funding,
    ratio: formatRatio(row.ratio_bps),
    status: row.status,
    result: row.result,
    open_price: row.open_price === null ? null : fromAtoms(row.open_price),
    open_at: ms(row.open_price_at),
    open_source: row.open_source,
    open_constituents: row.open_constituents === null ? null : readWireConstituents(row.open_constituents),
    expires_at: fromMillis(row.expires_at),
    close_price: row.close_price === null ? null : fromAtoms(row.close_price),
    close_at: ms(row.close_at),
    close_source: row.close_source,
    close_constituents: row.close_constituents === null ? null : readWireConstituents(row.close_constituents),
    profit: row.profit === null ? null : fromAtoms(row.profit),
    settled_at: ms(row.settled_at),
    created_at: fromMillis(row.opened_at),
  };
}

export function grantStatus(row: GrantRow, now: number): TrialGrant['status'] {
  if (row.status === 'expired' || fromMillis(row.expires_at) <= now) return 'expired';
  return row.remaining === 0n ? 'used' : 'active';
}

export function toTrialGrant(row: GrantRow, now: number): TrialGrant {
  return {
    id: String(row.id),
    name: row.name,
    // why: only the welcome grant is made by the platform itself (`grantVerifiedTrials`).
    signup: row.granted_by === 'system',
    amount: fromAtoms(row.amount),
    remaining: fromAtoms(row.remaining),
    profit_cap: fromAtoms(row.profit_cap),
    profit_paid: fromAtoms(row.profit_paid),
    profit_locked: fromAtoms(row.profit_locked),
    turnover_left: fromAtoms(turnoverLeft(row)),
    expires_at: fromMillis(row.expires_at),
    status: grantStatus(row, now),
  };
}

/** Real turnover the grant still needs to release its locked profit; 0 when none is locked. */
export function turnoverLeft(row: GrantRow): bigint {
  const left = row.turnover_required - row.turnover_done;
  return row.profit_locked > 0n && left > 0n ? left : 0n;
}

/** `"10"`, `"12.5"`, `"13.34"` from a multiple in hundredths. */
export function formatMultiple(hundredths: bigint): string {
  const fraction = String(hundredths % 100n)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${hundredths / 100n}.${fraction}` : String(hundredths / 100n);
}

/**
 * Real turnover that releases `profit` at `multiple` (hundredths), rounded up to the atom: never
 * in the user's favour.
 */
export function requiredTurnover(profit: bigint, multiple: bigint): bigint {
  const required = (profit * multiple + 99n) / 100n;
  // why: the 64-bit column holds it; no account places more than any amount may be, so a
  // requirement above that is as good as never met, and the settlement that records it must not fail.
  return required < MAX_AMOUNT_ATOMS ? required : MAX_AMOUNT_ATOMS;
}

/**
 * The least turnover multiple (hundredths, rounded up) at which releasing trial profit has an
 * expected value of at most zero, for a highest payout ratio of `maxRatioBps`: a real contract
 * loses (1 − r) / 2 per unit on average, so the multiple m must have m × (1 − r) / 2 ≥ 1, i.e.
 * m ≥ 2 / (1 − r). Undefined when r ≥ 1 (no multiple is enough); 1× when no period is offered.
 */
export function minTurnoverMultiple(maxRatioBps: bigint): bigint | undefined {
  if (maxRatioBps <= 0n) return 100n;
  if (maxRatioBps >= RATIO_SCALE) return undefined;
  const least = (2n * RATIO_SCALE * 100n + (RATIO_SCALE - maxRatioBps) - 1n) / (RATIO_SCALE - maxRatioBps);
  return least < 100n ? 100n : least;
}

export function toPeriodValues(p: PeriodSettings) {
  return {
    seconds: BigInt(p.seconds),
    ratio_bps: p.ratioBps,
    min_amount: p.min,
    max_amount: p.max,
  };
}

export function toPlanValues(plan: PlanSettings): repo.PlanValues {
  return {
    name: plan.name,
    amount: plan.amount,
    validity_days: BigInt(plan.validityDays),
    profit_cap_percent: BigInt(plan.profitCapPercent),
    trigger: plan.trigger,
    active: plan.active ? 1n : 0n,
  };
}

export function sameContract(
  row: ContractRow,
  input: { symbol: string; direction: string; period: number; amount: bigint; trial: boolean },
): ContractRecord {
  if (
    row.symbol !== input.symbol ||
    row.direction !== input.direction ||
    Number(row.period) !== input.period ||
    row.amount !== input.amount ||
    (row.funding === 'trial') !== input.trial
  )
    throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return toContractRecord(row);
}
