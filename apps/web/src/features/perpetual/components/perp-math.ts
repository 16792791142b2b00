import {
  initialMargin,
  liquidationPrice,
  type PerpSpec,
  type PositionFigures,
  priceBand,
  RS,
  roeBps,
  type Tier,
  tradeFee,
  unrealisedPnl,
  value,
} from '@bourse/perp';
import { fromAtoms, isAmountString, isDecimalString, toAtoms } from '@bourse/shared';
import type { PerpMarket, PerpOrderType, PerpPosition } from '@bourse/shared/api';

/**
 * The perpetual page's figures, exact on bigint atoms with the rules of `@bourse/perp`: decimal
 * strings from the wire and the form become atoms and ticks, and come back as decimal strings.
 */

/** Atoms of a decimal (from the wire or a field), or 0 while it is not one. */
export function atomsOf(text: string | null | undefined): bigint {
  return text && (isDecimalString(text) || isAmountString(text)) ? toAtoms(text) : 0n;
}

/** A decimal string of atoms (8 places, truncated). */
export function decimalOf(atoms: bigint): string {
  return fromAtoms(atoms);
}

/** A decimal without trailing zeros, for an input (`"63000.10"` → `"63000.1"`, `"5.00"` → `"5"`). */
export function plainDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A decimal rate (`"0.0005"`) as an integer over RS (50 000); the two scales are both 10^8. */
export function rateOf(text: string): bigint {
  return atomsOf(text) * (RS / 100_000_000n);
}

/** The rules' view of a market from its wire form. */
export function marketSpec(market: PerpMarket): PerpSpec {
  const tiers: Tier[] = market.tiers.map((tier) => ({
    maxNotional: tier.max_notional === null ? null : atomsOf(tier.max_notional),
    maxLeverage: tier.max_leverage,
    mmr: rateOf(tier.mmr),
    cum: atomsOf(tier.cum),
  }));
  return {
    symbol: market.symbol,
    tickAtoms: atomsOf(market.tick_size),
    lotAtoms: atomsOf(market.lot_size),
    tiers,
    makerRate: rateOf(market.maker_fee),
    takerRate: rateOf(market.taker_fee),
    bandRate: rateOf(market.band),
    fundingIntervalMs: market.funding_interval_hours * 3_600_000,
    // why: the page never computes funding; these three only complete the shape.
    interestRate: 0n,
    fundingClamp: 0n,
    fundingCap: rateOf(market.funding_cap),
    impactNotional: 0n,
    markClamp: rateOf(market.mark_clamp),
    maxLeverage: market.max_leverage,
  };
}

/** A price on the market's tick grid, in ticks; null when it is not a positive whole number of ticks. */
export function priceTicks(spec: PerpSpec, price: string | null | undefined): bigint | null {
  const atoms = atomsOf(price);
  if (atoms <= 0n || spec.tickAtoms <= 0n || atoms % spec.tickAtoms !== 0n) return null;
  return atoms / spec.tickAtoms;
}

/** A mark from the wire (which the server truncates to a tick) in ticks, cut down to the grid. */
export function markTicks(spec: PerpSpec, mark: string | null | undefined): bigint | null {
  const atoms = atomsOf(mark);
  if (atoms <= 0n || spec.tickAtoms <= 0n) return null;
  return atoms / spec.tickAtoms;
}

/** Ticks as a decimal price string. */
export function ticksToPrice(spec: PerpSpec, ticks: bigint): string {
  return decimalOf(ticks * spec.tickAtoms);
}

/** True when a typed value is a positive whole number of `step` atoms. */
export function isOnGrid(text: string, step: bigint): boolean {
  const atoms = atomsOf(text);
  return atoms > 0n && (step <= 0n || atoms % step === 0n);
}

/** The position as the rules see it: signed quantity, entry value, margin, leverage (all atoms). */
export function positionFigures(position: PerpPosition): PositionFigures {
  const qty = atomsOf(position.qty);
  return {
    qty: position.side === 'long' ? qty : -qty,
    entry: atomsOf(position.entry_value),
    margin: atomsOf(position.margin),
    leverage: position.leverage,
  };
}

export interface LiveFigures {
  /** Unrealised PnL in USDT. */
  pnl: string;
  /** ROE as a ratio (`"0.25"` = 25 %), from basis points, truncated. */
  roe: string;
  /** The mark these were computed at. */
  mark: string;
}

/**
 * uPnL and ROE of a position at a pushed mark, as the server computes them (uPnL = s·(V(|Q|, mark)
 * − E), ROE = uPnL / ⌈E/L⌉): they move with each push instead of waiting for the next account read.
 * Falls back to the server's figures while the mark is unknown.
 */
export function liveFigures(
  spec: PerpSpec,
  position: PerpPosition,
  mark: string | null | undefined,
): LiveFigures {
  const ticks = markTicks(spec, mark);
  if (ticks === null) return { pnl: position.unrealised_pnl, roe: position.roe, mark: position.mark };
  const figures = positionFigures(position);
  try {
    const pnl = unrealisedPnl(spec, figures, ticks);
    const bps = roeBps(spec, figures, ticks);
    return { pnl: decimalOf(pnl), roe: decimalOf(bps * 10_000n), mark: ticksToPrice(spec, ticks) };
  } catch (error) {
    // why: figures off the grid cannot be recomputed exactly; the server's own figures stand.
    if (error instanceof RangeError)
      return { pnl: position.unrealised_pnl, roe: position.roe, mark: position.mark };
    throw error;
  }
}

/**
 * A ratio (`"0.25"`) as a signed percentage, two decimals unless told (`"+25.00"`), truncated
 * toward zero; funding rates take four (`"0.0001"` → `"+0.0100"`).
 */
export function percentText(ratio: string, decimals = 2): string {
  const atoms = atomsOf(ratio) * 100n;
  const text = fromAtoms(atoms, decimals);
  return atoms > 0n && /[1-9]/.test(text) ? `+${text}` : text;
}

/** A ratio that is never negative (completion degree, fee ratio) as a percentage without a sign (`"0.5"` → `"50.00"`). */
export function plainPercent(ratio: string, decimals = 2): string {
  return percentText(ratio, decimals).replace(/^\+/, '');
}

/** The order types that wait for a trigger price. */
export function isTriggerType(type: PerpOrderType): boolean {
  return type !== 'limit' && type !== 'market';
}

/** The types that enter the book at a limit price: limit, stop-limit and take-profit-limit. */
export function hasLimitPrice(type: PerpOrderType): boolean {
  return type === 'limit' || type === 'stop_limit' || type === 'take_profit_limit';
}

/**
 * The condition a trigger waits for (perpetual.md §3): a stop buys when the reference rises to it
 * and sells when it falls to it; a take-profit the other way.
 */
export function triggerCondition(type: PerpOrderType, side: 'buy' | 'sell'): 'gte' | 'lte' {
  const isStop = type === 'stop_market' || type === 'stop_limit';
  return isStop === (side === 'buy') ? 'gte' : 'lte';
}

export interface PreTradeInput {
  spec: PerpSpec;
  side: 'buy' | 'sell';
  type: PerpOrderType;
  /** The typed limit price (limit types). */
  price: string;
  qty: string;
  /** The typed trigger price (trigger types). */
  triggerPrice: string;
  /** The current mark: the band of a market order is around it. */
  mark: string | null;
  leverage: number;
  /** The position now (null: flat); an opposite order closes it first and only the rest opens. */
  position: PositionFigures | null;
  isReduceOnly: boolean;
}

export interface PreTrade {
  /** The price the order is held and valued at (limit price, or the band price); null if unknown. */
  price: string | null;
  /** Order value V(q, p*) in USDT. */
  value: string;
  /** Quantity that opens or adds (the hold is only for this part). */
  openingQty: string;
  initialMargin: string;
  fee: string;
  /** IM + taker fee of the opening quantity. */
  hold: string;
  /** Estimated liquidation price of the position after the fill; null when none or unknown. */
  liquidationPrice: string | null;
}

const EMPTY: PreTrade = {
  price: null,
  value: '0',
  openingQty: '0',
  initialMargin: '0',
  fee: '0',
  hold: '0',
  liquidationPrice: null,
};

/**
 * The price an order is held at, in ticks (perpetual.md §1 "Order hold"): the limit price, or for
 * market types the band price (maxBuy / minSell) around the mark — for a market trigger, around
 * its trigger price, the mark it will most likely meet when it fires.
 */
export function holdPriceTicks(
  input: Pick<PreTradeInput, 'spec' | 'side' | 'type' | 'price' | 'triggerPrice' | 'mark'>,
): bigint | null {
  const { spec, side, type } = input;
  if (hasLimitPrice(type)) return priceTicks(spec, input.price);
  const around = isTriggerType(type) ? priceTicks(spec, input.triggerPrice) : markTicks(spec, input.mark);
  if (around === null) return null;
  const band = priceBand(spec, around);
  return side === 'buy' ? band.maxBuy : band.minSell;
}

/**
 * What an order will cost before it is sent: its value at p*, the initial margin and taker fee of
 * the quantity that opens (an opposite order first closes the position; a reduce-only one opens
 * nothing), their sum the hold, and the liquidation price of the position it leaves.
 */
export function preTrade(input: PreTradeInput): PreTrade {
  // why: the rules throw on figures off the market's grid (a market whose tick × lot breaks the
  // exactness invariant, a leverage of 0); the form then shows no figures rather than failing.
  try {
    return computePreTrade(input);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) return EMPTY;
    throw error;
  }
}

function computePreTrade(input: PreTradeInput): PreTrade {
  const { spec, side, leverage, position } = input;
  const qty = atomsOf(input.qty);
  const ticks = holdPriceTicks(input);
  if (qty <= 0n || ticks === null || spec.lotAtoms <= 0n || qty % spec.lotAtoms !== 0n) return EMPTY;
  const sign = side === 'buy' ? 1n : -1n;
  const held = position?.qty ?? 0n;
  const isOpposite = held !== 0n && held > 0n !== sign > 0n;
  const closing = isOpposite ? (qty < (held < 0n ? -held : held) ? qty : held < 0n ? -held : held) : 0n;
  const opening = input.isReduceOnly ? 0n : qty - closing;
  const orderValue = value(spec, qty, ticks);
  const openValue = value(spec, opening, ticks);
  const im = initialMargin(openValue, leverage);
  const fee = tradeFee(openValue, spec.takerRate);
  // The position after the fill, for its liquidation price.
  let after: PositionFigures | null = position;
  if (opening > 0n) {
    // why: a market order is valued at the band price for the hold, but fills near the mark.
    const fillTicks = hasLimitPrice(input.type)
      ? ticks
      : (priceTicks(spec, input.triggerPrice) ?? markTicks(spec, input.mark) ?? ticks);
    const fillValue = value(spec, opening, fillTicks);
    const fillMargin = initialMargin(fillValue, leverage);
    after =
      isOpposite || !position
        ? { qty: sign * opening, entry: fillValue, margin: fillMargin, leverage }
        : {
            ...position,
            qty: position.qty + sign * opening,
            entry: position.entry + fillValue,
            margin: position.margin + fillMargin,
          };
  } else if (position && closing > 0n) {
    const abs = position.qty < 0n ? -position.qty : position.qty;
    after =
      closing >= abs
        ? null
        : {
            ...position,
            qty: position.qty + sign * closing,
            entry: position.entry - (position.entry * closing) / abs,
            margin: position.margin - (position.margin * closing) / abs,
          };
  }
  const lp = after && after.qty !== 0n ? liquidationPrice(spec, after) : null;
  return {
    price: ticksToPrice(spec, ticks),
    value: decimalOf(orderValue),
    openingQty: decimalOf(opening),
    initialMargin: decimalOf(im),
    fee: decimalOf(fee),
    hold: decimalOf(im + fee),
    liquidationPrice: lp === null ? null : ticksToPrice(spec, lp),
  };
}

/**
 * The most margin that can be removed now, as the rule of perpetual.md §2 allows: the new margin
 * must stay ≥ ⌈max(E, N_m)/L⌉ and above MM − uPnL. Answers a lower bound the server confirms.
 */
export function maxRemovableMargin(spec: PerpSpec, position: PerpPosition, mark: string | null): bigint {
  try {
    return removableMargin(spec, position, mark);
  } catch (error) {
    // why: off-grid figures allow no exact bound; offer nothing and let the server decide.
    if (error instanceof RangeError) return 0n;
    throw error;
  }
}

function removableMargin(spec: PerpSpec, position: PerpPosition, mark: string | null): bigint {
  const figures = positionFigures(position);
  const ticks = markTicks(spec, mark ?? position.mark);
  if (ticks === null || figures.qty === 0n) return 0n;
  const notional = value(spec, figures.qty, ticks);
  const base = figures.entry > notional ? figures.entry : notional;
  const floorByIm = initialMargin(base, figures.leverage);
  const maintenance = atomsOf(position.maintenance_margin);
  const pnl = unrealisedPnl(spec, figures, ticks);
  // why: M' + uPnL > MM, so M' ≥ MM − uPnL + 1 atom.
  const floorByMm = maintenance - pnl + 1n;
  const floor = floorByIm > floorByMm ? floorByIm : floorByMm;
  const room = figures.margin - floor;
  return room > 0n ? room : 0n;
}
