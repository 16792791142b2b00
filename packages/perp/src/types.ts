/**
 * The perpetual market's parameters and the figures the rules work on. Units (perpetual.md §1):
 * money in atoms of 10^-8 USDT, quantities in atoms of 10^-8 of the base coin, prices in integer
 * ticks, rates as integers over {@link RS} (0.01 % = 10 000). Everything is a bigint.
 */

/** Atoms per unit (money and quantity). */
export const ATOMS = 100_000_000n;
/** Scale of every rate: 10^8 = 100 %. */
export const RS = 100_000_000n;

/** One row of the risk-limit table: a position of notional up to `maxNotional` may use `maxLeverage`. */
export interface Tier {
  /** Upper bound of the tier's notional in USDT atoms (inclusive); null = no bound (the last tier). */
  maxNotional: bigint | null;
  maxLeverage: number;
  /** Maintenance margin rate over RS. */
  mmr: bigint;
  /** Maintenance amount in USDT atoms: cum_n = floor_n·ΔMMR + cum_{n−1}. */
  cum: bigint;
}

export interface PerpSpec {
  symbol: string;
  /** USDT atoms per tick (TA). */
  tickAtoms: bigint;
  /** Base atoms per lot; `(lotAtoms · tickAtoms) mod 10^8 = 0` keeps every value exact. */
  lotAtoms: bigint;
  /** Tiers by ascending `maxNotional`. */
  tiers: readonly Tier[];
  makerRate: bigint;
  takerRate: bigint;
  /** Price band b over RS (5 % = 5 000 000). */
  bandRate: bigint;
  /** Funding interval T in milliseconds (8 h). */
  fundingIntervalMs: number;
  /** Interest rate I_r per interval over RS (0.01 % = 10 000). */
  interestRate: bigint;
  /** Bound of the inner clamp of the funding rate over RS (0.05 % = 50 000). */
  fundingClamp: bigint;
  /** Cap of the funding rate over RS (0.75 · MMR₁ = 1 500 000). */
  fundingCap: bigint;
  /** Impact margin notional in USDT atoms (200 · max leverage = 1 000 USDT). */
  impactNotional: bigint;
  /**
   * The mark's clamp c over RS (0.5 % = 500 000): the mark never leaves I·(1 ± c), so no customer's
   * orders can move it further from the index (perpetual.md §1, §4b.1). At most MMR₁/4.
   */
  markClamp: bigint;
  /** Highest leverage any tier allows. */
  maxLeverage: number;
}

/** A position as the rules see it: signed quantity, entry value, isolated margin, leverage. */
export interface PositionFigures {
  /** Signed base atoms: > 0 long, < 0 short. */
  qty: bigint;
  /** Entry value E in USDT atoms: the exact sum of the open fills' values. */
  entry: bigint;
  /** Isolated margin M in USDT atoms. */
  margin: bigint;
  leverage: number;
}
