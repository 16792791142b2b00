/**
 * The perpetual rules as pure formulas (perpetual.md §1): value, margin, fees, tiers, PnL,
 * liquidation and bankruptcy prices, price band, funding and mark. No state, no I/O, no floats:
 * prices are integer ticks, quantities base atoms, money USDT atoms, rates over {@link RS}.
 * Every division says which way it rounds; where the spec leaves it open, rounding favours the house.
 */
import { ATOMS, type PerpSpec, type PositionFigures, RS, type Tier } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Integer helpers
// ---------------------------------------------------------------------------------------------

/** ⌈a/b⌉ for any signed a and b ≠ 0 (bigint `/` truncates toward zero, which is wrong for a < 0). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  const q = a / b;
  // why: truncation rounded toward zero; step up when the exact quotient was positive and inexact.
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q;
}

/** ⌊a/b⌋ (toward −∞) for any signed a and b ≠ 0. */
export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** a/b truncated toward zero (bigint's own division, named so call sites say what they mean). */
export function truncDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  return a / b;
}

/** |a|. */
export function abs(a: bigint): bigint {
  return a < 0n ? -a : a;
}

/** x limited to [lo, hi] (lo ≤ hi). */
export function clamp(x: bigint, lo: bigint, hi: bigint): bigint {
  if (lo > hi) throw new RangeError(`clamp: lo ${lo} > hi ${hi}`);
  return x < lo ? lo : x > hi ? hi : x;
}

/** The middle one of three values. */
export function median3(a: bigint, b: bigint, c: bigint): bigint {
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c;
}

/** The sign of a position's quantity: 1n long, −1n short, 0n flat. */
export function sideOf(qty: bigint): bigint {
  return qty > 0n ? 1n : qty < 0n ? -1n : 0n;
}

/** Leverage as a bigint; throws unless it is a whole number ≥ 1 (a programmer error, not a refusal). */
function leverageOf(leverage: number): bigint {
  if (!Number.isSafeInteger(leverage) || leverage < 1) throw new RangeError(`bad leverage ${leverage}`);
  return BigInt(leverage);
}

/** Milliseconds as a bigint; throws unless a whole number ≥ 0. */
function msOf(ms: number, what: string): bigint {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`bad ${what} ${ms}`);
  return BigInt(ms);
}

// ---------------------------------------------------------------------------------------------
// Value, margin, fees, tiers
// ---------------------------------------------------------------------------------------------

/**
 * V(|q|, p) = |q|·p·TA/10^8 in USDT atoms, for a quantity in base atoms at a price in ticks.
 * Throws when the value is not a whole number of atoms (a quantity off the lot grid) or p < 0.
 */
export function value(spec: PerpSpec, qty: bigint, price: bigint): bigint {
  if (price < 0n) throw new RangeError(`negative price ${price}`);
  const scaled = abs(qty) * price * spec.tickAtoms;
  if (scaled % ATOMS !== 0n) throw new RangeError(`inexact value: ${qty} atoms at ${price} ticks`);
  return scaled / ATOMS;
}

/** Initial margin IM = ⌈V/L⌉. */
export function initialMargin(v: bigint, leverage: number): bigint {
  return ceilDiv(v, leverageOf(leverage));
}

/** Trade fee ⌈V·r/RS⌉ for a rate r over RS (taker or maker). */
export function tradeFee(v: bigint, rate: bigint): bigint {
  return ceilDiv(v * rate, RS);
}

/** The tier of a notional N (atoms): the first tier with N ≤ maxNotional; the last tier when none. */
export function tierOf(spec: PerpSpec, notional: bigint): Tier {
  const tiers = spec.tiers;
  if (tiers.length === 0) throw new RangeError(`${spec.symbol}: no tiers`);
  for (const tier of tiers) {
    if (tier.maxNotional === null || notional <= tier.maxNotional) return tier;
  }
  return tiers[tiers.length - 1];
}

/** MM for a tier: ⌈N·MMR_t/RS⌉ − cum_t. */
function maintenanceInTier(tier: Tier, notional: bigint): bigint {
  return ceilDiv(notional * tier.mmr, RS) - tier.cum;
}

/** Maintenance margin MM = ⌈N·MMR_t/RS⌉ − cum_t, with the tier t of N. */
export function maintenanceMargin(spec: PerpSpec, notional: bigint): bigint {
  return maintenanceInTier(tierOf(spec, notional), notional);
}

/**
 * Whether an opening order may go in at leverage L: N (the position's notional plus its open
 * orders', atoms) must lie in a tier that allows L, i.e. tierOf(N).maxLeverage ≥ L.
 */
export function leverageAllowed(spec: PerpSpec, notional: bigint, leverage: number): boolean {
  leverageOf(leverage);
  return tierOf(spec, notional).maxLeverage >= leverage;
}

/** Order hold for an opening quantity at price p*: ⌈V/L⌉ + ⌈V·taker/RS⌉ (a maker fill refunds the gap). */
export function orderHold(spec: PerpSpec, qty: bigint, price: bigint, leverage: number): bigint {
  const v = value(spec, qty, price);
  return initialMargin(v, leverage) + tradeFee(v, spec.takerRate);
}

// ---------------------------------------------------------------------------------------------
// PnL, equity, liquidation
// ---------------------------------------------------------------------------------------------

/** Unrealised PnL s·(V(|Q|, mark) − E) in atoms; 0 for a flat position. */
export function unrealisedPnl(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry'>,
  mark: bigint,
): bigint {
  if (pos.qty === 0n) return 0n;
  return sideOf(pos.qty) * (value(spec, pos.qty, mark) - pos.entry);
}

/** Equity Eq = M + uPnL at the mark, in atoms. */
export function equity(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry' | 'margin'>,
  mark: bigint,
): bigint {
  return pos.margin + unrealisedPnl(spec, pos, mark);
}

/**
 * ROE in basis points: trunc(10^4·uPnL/⌈E/L⌉). The base is the initial margin of the entry value,
 * not M, so adding margin does not change the ROE (OKX's definition). 0 when E = 0.
 */
export function roeBps(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry' | 'leverage'>,
  mark: bigint,
): bigint {
  const base = initialMargin(pos.entry, pos.leverage);
  if (base === 0n) return 0n;
  return truncDiv(10_000n * unrealisedPnl(spec, pos, mark), base);
}

/**
 * The liquidation trigger (authoritative): Eq ≤ MM, with MM tiered by N_m = V(|Q|, mark).
 * A flat position is never liquidatable.
 */
export function isLiquidatable(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry' | 'margin'>,
  mark: bigint,
): boolean {
  if (pos.qty === 0n) return false;
  const notional = value(spec, pos.qty, mark);
  return equity(spec, pos, mark) <= maintenanceMargin(spec, notional);
}

/**
 * The §1 liquidation-price formula in one given tier, to a tick, unconfirmed:
 * long ⌊(E − M − cum)/(|Q|(1 − MMR))⌋, short ⌈(E + M + cum)/(|Q|(1 + MMR))⌉. A long's may be ≤ 0.
 * Exported so tests and displays can show the tier-by-tier figure that {@link liquidationPrice} refines.
 */
export function liquidationPriceInTier(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry' | 'margin'>,
  tier: Tier,
): bigint {
  const q = abs(pos.qty);
  if (q === 0n) throw new RangeError('no liquidation price for a flat position');
  // why: V = q·p·TA/10^8, so p = V·10^8/(q·TA); the (1 ∓ MMR) factor is (RS ∓ mmr)/RS.
  if (pos.qty > 0n) {
    return floorDiv((pos.entry - pos.margin - tier.cum) * RS * ATOMS, (RS - tier.mmr) * q * spec.tickAtoms);
  }
  return ceilDiv((pos.entry + pos.margin + tier.cum) * RS * ATOMS, (RS + tier.mmr) * q * spec.tickAtoms);
}

/**
 * The displayed liquidation price in ticks: for a long, the highest tick at which
 * {@link isLiquidatable} holds; for a short, the lowest. null when a long is liquidatable at no
 * positive tick (e.g. 1x with margin covering the entry) or the position is flat.
 *
 * It starts from the §1 formula and re-tiers when N at the price lies in another tier (T11),
 * then confirms against the trigger at that tick and the neighbouring one, stepping if needed.
 */
export function liquidationPrice(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry' | 'margin'>,
): bigint | null {
  if (pos.qty === 0n) return null;
  const isLong = pos.qty > 0n;
  // why: with cum_n = floor_n·ΔMMR + cum_{n−1}, MM(N) = max over tiers of (N·MMR_t − cum_t), so each
  // tier's line lies at or below MM and its crossing with Eq is a bound on the true LP: a lower bound
  // for a long, an upper bound for a short. The extreme crossing is the one in the tier where N at the
  // LP actually lies, which is what "re-tier" asks for, and it needs no loop that could oscillate.
  let price = liquidationPriceInTier(spec, pos, spec.tiers[0]);
  for (const tier of spec.tiers.slice(1)) {
    const p = liquidationPriceInTier(spec, pos, tier);
    price = isLong ? (p > price ? p : price) : p < price ? p : price;
  }
  // why: the formula ignores the ⌈⌉ in MM (worth < 1 atom), so confirm at the tick and its neighbour.
  // Eq − MM is monotone in the price (MM's slope is below 1), so stepping ends at the boundary.
  const liquidatable = (p: bigint) => isLiquidatable(spec, pos, p);
  if (isLong) {
    if (price < 0n) price = 0n;
    while (price >= 1n && !liquidatable(price)) price -= 1n;
    while (liquidatable(price + 1n)) price += 1n;
    return price >= 1n ? price : null;
  }
  if (price < 1n) price = 1n;
  while (!liquidatable(price)) price += 1n;
  while (price > 1n && liquidatable(price - 1n)) price -= 1n;
  return price;
}

/**
 * Bankruptcy price in ticks, where equity reaches 0: long ⌈(E − M)/|Q|⌉ to a tick (0n when
 * M ≥ E), short ⌊(E + M)/|Q|⌋ to a tick. Rounding keeps the takeover's loss within M.
 */
export function bankruptcyPrice(
  spec: PerpSpec,
  pos: Pick<PositionFigures, 'qty' | 'entry' | 'margin'>,
): bigint {
  const q = abs(pos.qty);
  if (q === 0n) throw new RangeError('no bankruptcy price for a flat position');
  const perTick = q * spec.tickAtoms;
  if (pos.qty > 0n) {
    const p = ceilDiv((pos.entry - pos.margin) * ATOMS, perTick);
    return p > 0n ? p : 0n;
  }
  return floorDiv((pos.entry + pos.margin) * ATOMS, perTick);
}

/**
 * Whether isolated margin may drop to M': M' ≥ ⌈max(E, N_m)/L⌉ and M' + uPnL > MM (tier of N_m).
 */
export function marginRemovalAllowed(
  spec: PerpSpec,
  pos: PositionFigures,
  mark: bigint,
  newMargin: bigint,
): boolean {
  const notional = value(spec, pos.qty, mark);
  const base = pos.entry > notional ? pos.entry : notional;
  if (newMargin < initialMargin(base, pos.leverage)) return false;
  return newMargin + unrealisedPnl(spec, pos, mark) > maintenanceMargin(spec, notional);
}

/**
 * ADL ranking of two positions on the same side, per §2: score u·N/(E·Eq) when u > 0, else
 * u·Eq/(E·N). Returns < 0 when `a` ranks first (higher score), > 0 when `b` does; ties → lower id
 * first. Exact: fractions compared by bigint cross-multiplication.
 */
export function compareAdl(a: AdlCandidate, b: AdlCandidate): number {
  const [na, da] = adlScore(a);
  const [nb, db] = adlScore(b);
  // why: both denominators are made positive, so na/da > nb/db ⟺ na·db > nb·da.
  const left = na * db;
  const right = nb * da;
  if (left !== right) return left > right ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The figures an ADL ranking needs, all in atoms at the current mark. */
export interface AdlCandidate {
  upnl: bigint;
  /** N_m = V(|Q|, mark). */
  notional: bigint;
  entry: bigint;
  equity: bigint;
  /** Position id; the tie-break. */
  id: bigint;
}

/** The ADL score as a fraction [numerator, denominator] with a positive denominator. */
function adlScore(c: AdlCandidate): [bigint, bigint] {
  const [num, den] =
    c.upnl > 0n ? [c.upnl * c.notional, c.entry * c.equity] : [c.upnl * c.equity, c.entry * c.notional];
  if (den === 0n) throw new RangeError(`ADL score undefined for position ${c.id}`);
  // why: Eq can be ≤ 0 on a position about to be liquidated; flip signs so cross-multiplying keeps order.
  return den < 0n ? [-num, -den] : [num, den];
}

// ---------------------------------------------------------------------------------------------
// Band, funding, mark
// ---------------------------------------------------------------------------------------------

/** The price band around the mark, in ticks: maxBuy ⌊mark(1 + b)⌋, minSell ⌈mark(1 − b)⌉. */
export function priceBand(spec: PerpSpec, mark: bigint): { maxBuy: bigint; minSell: bigint } {
  return {
    maxBuy: floorDiv(mark * (RS + spec.bandRate), RS),
    minSell: ceilDiv(mark * (RS - spec.bandRate), RS),
  };
}

/**
 * One minute's premium index over RS: trunc(RS·[max(0, IB − I) − max(0, I − IA)]/I). All prices
 * in USDT atoms (the index is not on the tick grid); a null impact side contributes 0.
 */
export function premiumIndex(index: bigint, impactBid: bigint | null, impactAsk: bigint | null): bigint {
  if (index <= 0n) throw new RangeError(`bad index ${index}`);
  const up = impactBid !== null && impactBid > index ? impactBid - index : 0n;
  const down = impactAsk !== null && impactAsk < index ? index - impactAsk : 0n;
  return truncDiv(RS * (up - down), index);
}

/** A book level: [price in ticks, quantity in base atoms]. */
export type BookLevel = readonly [bigint, bigint];

/**
 * Impact bid and ask in USDT atoms per whole base unit: the average fill price (truncated) of selling
 * into the bids / buying from the asks for `spec.impactNotional` worth. Levels are best first.
 * null for a side that cannot absorb that notional.
 */
export function impactPrices(
  spec: PerpSpec,
  bids: readonly BookLevel[],
  asks: readonly BookLevel[],
): { bid: bigint | null; ask: bigint | null } {
  return { bid: impactPrice(spec, bids), ask: impactPrice(spec, asks) };
}

/** {@link impactPrices} for one side. */
function impactPrice(spec: PerpSpec, levels: readonly BookLevel[]): bigint | null {
  const target = spec.impactNotional;
  if (target <= 0n) throw new RangeError(`${spec.symbol}: impact notional must be > 0`);
  // why: work in value·10^8 (q·p·TA) so a partly taken level needs no rounding until the very end.
  const scaledTarget = target * ATOMS;
  let scaledSum = 0n;
  let qtySum = 0n;
  for (const [price, qty] of levels) {
    if (price <= 0n || qty <= 0n) continue;
    const perQty = price * spec.tickAtoms;
    const scaled = qty * perQty;
    if (scaledSum + scaled >= scaledTarget) {
      // The last level is taken in part: the rest of the notional buys rest/perQty base atoms, so the
      // total base is qtySum + rest/perQty and the average is target·ATOMS / that.
      const rest = scaledTarget - scaledSum;
      return (target * ATOMS * perQty) / (qtySum * perQty + rest);
    }
    scaledSum += scaled;
    qtySum += qty;
  }
  return null;
}

/**
 * The funding interval's average premium P̄ = trunc(Σ wᵢ·PIᵢ / Σ wᵢ) over the minutes that have a
 * premium, each weighted by its minute's place in the interval (1 for the interval's first minute);
 * 0 for none. A minute without a sample (the index was out) is simply absent: the later minutes keep
 * their own weight rather than moving up the list (perpetual.md §4b.6).
 */
export function averagePremium(samples: readonly (readonly [minute: bigint, pi: bigint])[]): bigint {
  let num = 0n;
  let den = 0n;
  for (const [minute, pi] of samples) {
    if (minute < 1n) throw new RangeError(`premium minute ${minute} is before its interval`);
    num += minute * pi;
    den += minute;
  }
  return den === 0n ? 0n : truncDiv(num, den);
}

/**
 * The funding rate that accrued: F scaled by the share of the interval's minutes that had a live
 * index (`liveMinutes` of `minutes`), truncated toward zero. While the index is out, nothing accrues
 * (perpetual.md §4 item 9, §4b.6).
 */
export function accruedRate(rate: bigint, liveMinutes: bigint, minutes: bigint): bigint {
  if (minutes <= 0n) throw new RangeError(`a funding interval of ${minutes} minutes`);
  const live = clamp(liveMinutes, 0n, minutes);
  return truncDiv(rate * live, minutes);
}

/** Funding rate F = clamp(P̄ + clamp(I_r − P̄, ±clamp), ±cap), over RS. */
export function fundingRate(spec: PerpSpec, averagePremium: bigint): bigint {
  const inner = clamp(spec.interestRate - averagePremium, -spec.fundingClamp, spec.fundingClamp);
  return clamp(averagePremium + inner, -spec.fundingCap, spec.fundingCap);
}

/**
 * One position's funding at T: x = V(|Q|, mark_T)·|F|/RS; the payer (long when F > 0) pays ⌈x⌉,
 * the receiver gets ⌊x⌋, the residual goes to the insurance fund. Both figures ≥ 0.
 */
export function fundingPayment(
  spec: PerpSpec,
  qty: bigint,
  markAtT: bigint,
  rate: bigint,
): { pay: bigint; receive: bigint } {
  const scaled = value(spec, qty, markAtT) * abs(rate);
  return { pay: ceilDiv(scaled, RS), receive: floorDiv(scaled, RS) };
}

/** What the mark is made of. Index and basis in USDT atoms, last in ticks. */
export interface MarkInput {
  /** Index price I in USDT atoms. */
  index: bigint;
  /** The last funding rate F_last over RS. */
  lastRate: bigint;
  /** τ: milliseconds until the next funding time. */
  msToFunding: number;
  /**
   * The five-minute average of the impact basis ((IB + IA)/2 − I, {@link impactBasis}) in atoms;
   * null with fewer than a minute of samples in that window.
   */
  basisAverage: bigint | null;
  /** Last trade price in ticks; null when there was no trade in 60 s. */
  last: bigint | null;
}

/**
 * One second's sample of the impact basis in USDT atoms: the mid of the impact bid and ask (the
 * average prices of selling and of buying the impact notional) less the index. null when either
 * side cannot absorb the impact notional: a thin or one-sided book gives no sample (§4b.6).
 */
export function impactBasis(
  index: bigint,
  impact: { bid: bigint | null; ask: bigint | null },
): bigint | null {
  if (impact.bid === null || impact.ask === null) return null;
  return floorDiv(impact.bid + impact.ask, 2n) - index;
}

/**
 * The mark's index-based components in USDT atoms: P1 = I·(1 + F_last·τ/T) (floored to an atom),
 * P2 = I + avg₅ₘ(impact basis), or null without enough samples.
 */
export function markComponents(spec: PerpSpec, input: MarkInput): { p1: bigint; p2: bigint | null } {
  const tau = msOf(input.msToFunding, 'msToFunding');
  const interval = msOf(spec.fundingIntervalMs, 'fundingIntervalMs');
  if (interval === 0n) throw new RangeError(`${spec.symbol}: funding interval must be > 0`);
  // why: flooring P1 to an atom before the median does not change the result: P2 and last are whole
  // atoms and the final step floors to a tick, and ⌊⌊x⌋/n⌋ = ⌊x/n⌋.
  const p1 = input.index + floorDiv(input.index * input.lastRate * tau, RS * interval);
  const p2 = input.basisAverage === null ? null : input.index + input.basisAverage;
  return { p1, p2 };
}

/**
 * The band the mark must stay in, in ticks: the whole ticks within I·(1 ± c). When no whole tick
 * lies inside (a clamp narrower than a tick), the tick at or below the index.
 */
export function markBounds(spec: PerpSpec, index: bigint): { low: bigint; high: bigint } {
  if (index <= 0n) throw new RangeError(`bad index ${index}`);
  const reach = (index * spec.markClamp) / RS;
  const low = ceilDiv(index - reach, spec.tickAtoms);
  const high = floorDiv(index + reach, spec.tickAtoms);
  if (low > high) {
    const at = floorDiv(index, spec.tickAtoms);
    return { low: at, high: at };
  }
  return { low, high };
}

/**
 * The mark price in ticks (perpetual.md §1 as amended): raw = median(P1, P2, last), a missing
 * component dropped (two → their mean; P1 alone → the index itself), truncated to a tick and held
 * within I·(1 ± c): whatever trades print and whatever the book shows, the mark does not leave
 * that band around the index (§4b.1).
 */
export function markPrice(spec: PerpSpec, input: MarkInput): bigint {
  const { p1, p2 } = markComponents(spec, input);
  const last = input.last === null ? null : input.last * spec.tickAtoms;
  let atoms: bigint;
  if (p2 !== null && last !== null) atoms = median3(p1, p2, last);
  else if (p2 !== null) atoms = floorDiv(p1 + p2, 2n);
  else if (last !== null) atoms = floorDiv(p1 + last, 2n);
  // why: the spec says "index only → index": with neither book nor trades the mark is I, not P1.
  else atoms = input.index;
  const { low, high } = markBounds(spec, input.index);
  return clamp(floorDiv(atoms, spec.tickAtoms), low, high);
}

// ---------------------------------------------------------------------------------------------
// Market parameters
// ---------------------------------------------------------------------------------------------

const USDT = ATOMS;
/** Percent as a rate over RS. */
const PCT = RS / 100n;
/** The mark's default clamp c: 0.5 % of the index. */
export const DEFAULT_MARK_CLAMP = PCT / 2n;

/** The highest clamp a market may set: MMR₁/4, so the mark alone cannot take a fresh 5x position to liquidation. */
export function maxMarkClamp(tiers: readonly Tier[]): bigint {
  const first = tiers[0];
  if (!first) throw new RangeError('a market needs at least one tier');
  return first.mmr / 4n;
}

/** The risk-limit table of §1, in USDT atoms and rates over RS. A fresh array each call. */
export function defaultTiers(): Tier[] {
  return [
    { maxNotional: 250_000n * USDT, maxLeverage: 5, mmr: 2n * PCT, cum: 0n },
    { maxNotional: 1_000_000n * USDT, maxLeverage: 4, mmr: (5n * PCT) / 2n, cum: 1_250n * USDT },
    { maxNotional: 3_000_000n * USDT, maxLeverage: 3, mmr: 5n * PCT, cum: 26_250n * USDT },
    { maxNotional: 10_000_000n * USDT, maxLeverage: 2, mmr: 10n * PCT, cum: 176_250n * USDT },
    { maxNotional: null, maxLeverage: 1, mmr: 25n * PCT, cum: 1_676_250n * USDT },
  ];
}

/**
 * A market with the common parameters of §5: taker 0.05 %, maker 0.02 %, band 5 %, funding every
 * 8 h, I_r 0.01 %, inner clamp 0.05 %, cap 1.5 %, impact notional 1 000 USDT, 5x, default tiers.
 * Throws unless `(lotAtoms·tickAtoms) mod 10^8 = 0`, the invariant that makes every value exact.
 */
export function demoSpec(symbol: string, tickAtoms: bigint, lotAtoms: bigint): PerpSpec {
  if (tickAtoms <= 0n || lotAtoms <= 0n) throw new RangeError(`${symbol}: tick and lot must be > 0`);
  if ((lotAtoms * tickAtoms) % ATOMS !== 0n) {
    throw new RangeError(`${symbol}: lot ${lotAtoms} × tick ${tickAtoms} atoms is not a multiple of 10^8`);
  }
  return {
    symbol,
    tickAtoms,
    lotAtoms,
    tiers: defaultTiers(),
    makerRate: 20_000n,
    takerRate: 50_000n,
    bandRate: 5_000_000n,
    fundingIntervalMs: 8 * 60 * 60 * 1000,
    interestRate: 10_000n,
    fundingClamp: 50_000n,
    fundingCap: 1_500_000n,
    impactNotional: 1_000n * USDT,
    markClamp: DEFAULT_MARK_CLAMP,
    maxLeverage: 5,
  };
}
