import { AppError } from '@bourse/shared';
import type { MiningIncome, MiningType } from '../../platform/schema.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';

/** Who acts, of the back office's actor: the demo seeding acts as the system, with no name. */
export type MiningActor = Pick<StaffActor, 'staffId' | 'actor' | 'ip'>;

export interface ProductTerms {
  name: string;
  type: MiningType;
  feeHashrate: bigint;
  feeElectricityDay: bigint;
  feeManagement: bigint;
  coin: string;
  incomeType: MiningIncome;
  dailyQ: bigint;
  dailyValue: bigint;
  days: number;
  capacity: number;
  minShareBp: number;
  stepBp: number;
  holdCoin: string;
  minHold: bigint;
  minReferrals: number;
  maxOrders: number;
  releaseDelayDays: number;
}

/** Refuses terms no machine can be sold on (MINE_PRODUCT_INVALID). */
export function validateTerms(t: ProductTerms): void {
  const share =
    t.type === 'sole' ||
    (t.minShareBp > 0 && t.stepBp > 0 && t.minShareBp <= 10_000 && 10_000 % t.stepBp === 0);
  const income = t.incomeType === 'constant' ? t.dailyQ > 0n : t.dailyValue > 0n;
  const ok =
    t.name.trim().length > 0 &&
    /^[A-Z0-9]{2,16}$/.test(t.coin) &&
    /^[A-Z0-9]{2,16}$/.test(t.holdCoin) &&
    t.feeHashrate >= 0n &&
    t.feeElectricityDay >= 0n &&
    t.feeManagement >= 0n &&
    t.feeHashrate + t.feeElectricityDay + t.feeManagement > 0n &&
    t.days >= 1 &&
    t.days <= 3650 &&
    t.capacity >= 1 &&
    t.minHold >= 0n &&
    t.minReferrals >= 0 &&
    t.maxOrders >= 1 &&
    t.releaseDelayDays >= 0 &&
    share &&
    income;
  if (!ok) throw new AppError('MINE_PRODUCT_INVALID');
}
