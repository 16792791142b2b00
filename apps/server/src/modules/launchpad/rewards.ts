// Pure referral-reward arithmetic (products §2 rules 3–5). No I/O: the distribution feeds it what
// the store says and posts what it returns.

const BP = 10_000n;

/** The referral programme as the operator configured it (products §2 "Data"). */
export interface ReferralConfig {
  /** Rates per generation in basis points, Σ ≤ 1,000. */
  ratesBp: [bigint, bigint, bigint];
  /** 1: first generation only (the production default); 3: generations 2 and 3 too. */
  generations: 1 | 3;
  /** Atoms of the quote coin one beneficiary may earn per project and per calendar month (UTC). */
  capPerProject: bigint;
  capPerMonth: bigint;
  /** The share of a project's raise set aside for rewards, unless the project says otherwise. */
  budgetBp: bigint;
  /** KYC countries (ISO 3166 alpha-2) where rewards are not paid. */
  blockedCountries: string[];
  /** Who acknowledged the legal warning for generations 2–3, and when; null while nobody has. */
  acknowledgedBy: string | null;
  acknowledgedAt: number | null;
}

const ATOMS = 100_000_000n;

export const DEFAULT_REFERRAL: ReferralConfig = {
  ratesBp: [300n, 100n, 50n],
  generations: 1,
  capPerProject: 1_000n * ATOMS,
  capPerMonth: 5_000n * ATOMS,
  budgetBp: 500n,
  blockedCountries: [],
  acknowledgedBy: null,
  acknowledgedAt: null,
};

/** reward = floor(paid · rate / 10,000). */
export function rewardOf(paid: bigint, rateBp: bigint): bigint {
  return (paid * rateBp) / BP;
}

/** The budget a raise sets aside: floor(raise · budget / 10,000). */
export function budgetOf(raise: bigint, budgetBp: bigint): bigint {
  return (raise * budgetBp) / BP;
}

/**
 * Splits what is due into what may be paid and what is over a cap: the room left under the
 * beneficiary's project and month caps and the project's remaining budget.
 */
export function applyCaps(
  due: bigint,
  room: { project: bigint; month: bigint; budget: bigint },
): { amount: bigint; capped: bigint } {
  let allowed = room.project;
  if (room.month < allowed) allowed = room.month;
  if (room.budget < allowed) allowed = room.budget;
  if (allowed < 0n) allowed = 0n;
  const amount = due < allowed ? due : allowed;
  return { amount, capped: due - amount };
}

/** `YYYY-MM` of a time (UTC): the monthly cap's period. */
export function monthOf(at: number): string {
  return new Date(at).toISOString().slice(0, 7);
}
