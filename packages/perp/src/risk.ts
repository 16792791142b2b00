import { avail, FUND, IF, type Journal, pos } from './journal.ts';
import { closeLeg, closeLot, signOf } from './legs.ts';
import {
  abs,
  bankruptcyPrice,
  ceilDiv,
  compareAdl,
  floorDiv,
  fundingPayment,
  isLiquidatable,
  priceBand,
  tierOf,
  unrealisedPnl,
  value,
} from './math.ts';
import type { EndReason, InsuranceLot, MarketFigures, PerpOrder, PerpPosition, PerpSide } from './state.ts';
import { BrokenRule } from './state.ts';
import { ATOMS, type PerpSpec } from './types.ts';

/** The insurance fund's user id in order and trade records. */
export const INSURANCE_USER = 0n;

/** What the fund's desk works with: one market's clearing, seen from the side of its risk. */
export interface RiskContext {
  readonly spec: PerpSpec;
  /** The market's figures, moved in place. */
  readonly figures: MarketFigures;
  readonly insurance: { value: bigint };
  /** The fund's lots, in the order taken over (changed in place). */
  readonly lots: InsuranceLot[];
  /** Lots taken over in the running command. */
  readonly fresh: Set<InsuranceLot>;
  removeLot(lot: InsuranceLot): void;
  /** Open positions by id. */
  openPositions(): PerpPosition[];
  /** A user's position in the market, if they ever had one. */
  positionOf(user: bigint): PerpPosition | undefined;
  ordersOf(user: bigint): PerpOrder[];
  end(j: Journal, order: PerpOrder, reason: EndReason): void;
  newOrder(
    input: { userId: bigint; side: PerpSide; type: 'limit'; price: bigint; qty: bigint },
    reduceOnly: boolean,
    closePosition: boolean,
    leverage: number,
  ): PerpOrder;
  enter(j: Journal, order: PerpOrder, ioc: boolean, postOnly: boolean): void;
  bestBid(): number;
  bestAsk(): number;
  /** Marks an order as the IOC of a lot (null: done). */
  unwinding(orderId: bigint, lotId: bigint | null): void;
}

/**
 * The fund's side of a market (perpetual.md §2, §3): funding events, liquidation (first down to
 * tier 1, else takeover at the bankruptcy price), the fund's lots offered with IOCs, and
 * auto-deleveraging when the fund cannot carry them.
 */
export class RiskDesk {
  readonly #c: RiskContext;

  constructor(context: RiskContext) {
    this.#c = context;
  }

  /**
   * The funding event at T (§1, §2): every position held now pays or receives V(|Q|, mark_T)·|F|;
   * the payer pays ceil, the receiver gets floor, the residual goes to the fund, and a payer whose
   * margin and available balance cannot pay is liquidated at once. A liquidation check follows.
   * Receivers are paid from what the payers paid, never from the fund: when payers fall short,
   * each receiver's floor is scaled down to the share that was paid, so the fund's residual is ≥ 0.
   */
  fund(j: Journal, rate: bigint, markAtT: bigint): void {
    const { spec } = this.#c;
    const payers = rate > 0n ? 1n : -1n;
    // why: the fund pays its lots' funding only from what it has; the lots it cannot pay for are
    // deleveraged at their bankruptcy price first (which costs the fund nothing), before anyone is
    // counted as a receiver.
    let lotsDue = 0n;
    for (const lot of this.#c.lots)
      if (signOf(lot.qty) === payers) lotsDue += fundingPayment(spec, lot.qty, markAtT, rate).pay;
    if (lotsDue > this.#c.insurance.value)
      for (const lot of [...this.#c.lots])
        if (signOf(lot.qty) === payers) this.#deleverage(j, lot, lot.bankruptcy);
    const unpaid = new Set<bigint>();
    const receivers: { p: PerpPosition; due: bigint }[] = [];
    let paid = 0n;
    const amounts = new Map<PerpPosition, bigint>();
    const positions = this.#c.openPositions();
    for (const p of positions) {
      const { pay, receive } = fundingPayment(spec, p.qty, markAtT, rate);
      if (pay === 0n) continue;
      if (signOf(p.qty) !== payers) {
        receivers.push({ p, due: receive });
        continue;
      }
      const fromMargin = pay < p.margin ? pay : p.margin;
      j.move(pos(p.userId), FUND, fromMargin, 'funding');
      p.margin -= fromMargin;
      const rest = pay - fromMargin;
      const fromAvail = rest < j.availableOf(p.userId) ? rest : j.availableOf(p.userId);
      j.move(avail(p.userId), FUND, fromAvail, 'funding');
      p.realised -= fromMargin + fromAvail;
      paid += fromMargin + fromAvail;
      if (fromMargin + fromAvail < pay) unpaid.add(p.userId);
      amounts.set(p, -(fromMargin + fromAvail));
      j.positions.add(p);
    }
    let lotsReceive = 0n;
    for (const lot of this.#c.lots) {
      const { pay, receive } = fundingPayment(spec, lot.qty, markAtT, rate);
      if (signOf(lot.qty) === payers) {
        j.move(IF, FUND, pay, 'funding');
        paid += pay;
      } else lotsReceive += receive;
    }
    const due = receivers.reduce((sum, r) => sum + r.due, lotsReceive);
    const share = (amount: bigint) => (due <= paid ? amount : floorDiv(amount * paid, due));
    for (const { p, due: owed } of receivers) {
      const receive = share(owed);
      j.move(FUND, pos(p.userId), receive, 'funding');
      p.margin += receive;
      p.realised += receive;
      amounts.set(p, receive);
      j.positions.add(p);
    }
    for (const p of positions) {
      const amount = amounts.get(p);
      if (amount !== undefined) this.#fundingEvent(j, p.userId, p.qty, amount, rate, markAtT);
    }
    // why: the fund's own lots receive with everyone else; it is all one account in the end.
    const residual = j.fund;
    j.move(FUND, IF, residual, 'funding');
    this.#fundingEvent(j, null, 0n, residual - share(lotsReceive), rate, markAtT);
    if (!this.#c.figures.frozen) this.liquidateAll(j, unpaid);
  }

  #fundingEvent(
    j: Journal,
    userId: bigint | null,
    qty: bigint,
    amount: bigint,
    rate: bigint,
    mark: bigint,
  ): void {
    j.events.push({ type: 'funding', seq: this.#c.figures.seq, userId, qty, amount, rate, mark });
  }

  /**
   * Liquidates the positions fills of the running command changed, while any is at or under its
   * maintenance margin at the mark; a liquidation's own fills are checked in turn (§4b.4).
   */
  liquidateUsers(j: Journal): void {
    const { mark, frozen } = this.#c.figures;
    if (mark === 0n || frozen) {
      j.touched.clear();
      return;
    }
    for (let guard = 0; j.touched.size > 0; guard += 1) {
      if (guard > 10_000) throw new BrokenRule('liquidations did not settle');
      const users = [...j.touched];
      j.touched.clear();
      for (const user of users) {
        const p = this.#c.positionOf(user);
        if (p && p.qty !== 0n && isLiquidatable(this.#c.spec, p, mark)) this.#liquidate(j, p);
      }
    }
  }

  /** Liquidates every position whose equity is at or under its maintenance margin at the mark (§3). */
  liquidateAll(j: Journal, unpaid: ReadonlySet<bigint> = new Set()): void {
    const { mark } = this.#c.figures;
    if (mark === 0n || this.#c.figures.frozen) return;
    for (const p of this.#c.openPositions()) {
      if (!isLiquidatable(this.#c.spec, p, mark) && !unpaid.has(p.userId)) continue;
      this.#liquidate(j, p);
    }
  }

  /**
   * Takeover at the bankruptcy price (§2): the user's orders here are cancelled, the position
   * leaves them at BP (what margin is left goes to the fund), and the fund's new lot is unwound at
   * once with an IOC limited to the band and BP.
   */
  #liquidate(j: Journal, p: PerpPosition): void {
    for (const o of this.#c.ordersOf(p.userId)) this.#c.end(j, o, 'liquidation');
    if (this.#reduceToFirstTier(j, p)) return;
    const bp = bankruptcyPrice(this.#c.spec, p);
    const s = signOf(p.qty);
    const size = abs(p.qty);
    const atBp = value(this.#c.spec, size, bp);
    const pnl = s * (atBp - p.entry);
    j.move(pos(p.userId), { system: 'SET' }, -pnl, 'takeover');
    const remainder = p.margin + pnl;
    j.move(pos(p.userId), IF, remainder, 'takeover');
    this.#c.figures.seq += 1n;
    const lot: InsuranceLot = { id: p.id, qty: p.qty, entry: atBp, bankruptcy: bp, userId: p.userId };
    j.events.push({
      type: 'liquidation',
      seq: this.#c.figures.seq,
      userId: p.userId,
      qty: p.qty,
      entry: p.entry,
      margin: p.margin,
      mark: this.#c.figures.mark,
      bankruptcy: bp,
      lotId: lot.id,
      remainder,
    });
    p.realised += pnl;
    p.qty = 0n;
    p.entry = 0n;
    p.margin = 0n;
    j.positions.add(p);
    this.#c.lots.push(lot);
    this.#c.fresh.add(lot);
    j.lots.add(lot);
    this.#offer(j, lot, true);
    this.#cover(j);
  }

  /**
   * A position above the first tier is first brought down to it (§3, LIQUIDATING → OPEN): an IOC
   * closes what lies above the tier-1 bound at the mark, limited to BP and the band; when that
   * leaves equity above the maintenance margin the position stays open. Answers whether it did.
   */
  #reduceToFirstTier(j: Journal, p: PerpPosition): boolean {
    const { spec } = this.#c;
    const { mark } = this.#c.figures;
    const first = spec.tiers[0];
    if (!first || first.maxNotional === null) return false;
    if (tierOf(spec, value(spec, p.qty, mark)) === first) return false;
    const keep = (first.maxNotional / value(spec, spec.lotAtoms, mark)) * spec.lotAtoms;
    const reduce = abs(p.qty) - keep;
    if (reduce <= 0n) return false;
    const s = signOf(p.qty);
    const bp = bankruptcyPrice(spec, p);
    const band = priceBand(spec, mark);
    const limit = s > 0n ? (bp > band.minSell ? bp : band.minSell) : bp < band.maxBuy ? bp : band.maxBuy;
    const order = this.#c.newOrder(
      { userId: p.userId, side: s > 0n ? 'sell' : 'buy', type: 'limit', price: limit, qty: reduce },
      true,
      false,
      p.leverage,
    );
    this.#c.enter(j, order, true, false);
    return p.qty !== 0n && !isLiquidatable(spec, p, mark);
  }

  /** Every lot the fund keeps is offered again at the band; what the fund cannot cover is deleveraged. */
  workLots(j: Journal): void {
    // why: a lot taken over in this command had its first IOC already; it is offered again on the next mark.
    for (const lot of [...this.#c.lots])
      if (this.#c.lots.includes(lot) && !this.#c.fresh.has(lot)) this.#offer(j, lot, false);
    this.#cover(j);
  }

  /**
   * One IOC of the fund's lot: at first limited to max(BP, minSell) (a long lot sells) or
   * min(BP, maxBuy), later to the band alone, and always to the price at which selling (buying)
   * the whole lot would lose no more than the fund holds, so no unwind takes the fund below zero.
   */
  #offer(j: Journal, lot: InsuranceLot, first: boolean): void {
    const { spec } = this.#c;
    const s = signOf(lot.qty);
    const size = abs(lot.qty);
    const band = priceBand(spec, this.#c.figures.mark);
    // Per-tick value of the whole lot, in atoms·10^8: V(size, p) = size·p·TA/10^8.
    const perTick = size * spec.tickAtoms;
    const fund = this.#c.insurance.value > 0n ? this.#c.insurance.value : 0n;
    let limit: bigint;
    if (s > 0n) {
      // A long lot sells: E − V(size, p) ≤ IF  ⇔  p ≥ (E − IF)·10^8 / (size·TA).
      const floor = ceilDiv((lot.entry - fund) * ATOMS, perTick);
      limit = band.minSell;
      if (first && lot.bankruptcy > limit) limit = lot.bankruptcy;
      if (floor > limit) limit = floor;
    } else {
      // A short lot buys: V(size, p) − E ≤ IF  ⇔  p ≤ (E + IF)·10^8 / (size·TA).
      const ceiling = floorDiv((lot.entry + fund) * ATOMS, perTick);
      limit = band.maxBuy;
      if (first && lot.bankruptcy < limit) limit = lot.bankruptcy;
      if (ceiling < limit) limit = ceiling;
    }
    if (limit <= 0n) return;
    // why: an IOC that cannot fill changes nothing; it is not sent (nor recorded) at all.
    const best = s > 0n ? this.#c.bestBid() : this.#c.bestAsk();
    const crosses = best > 0 && (s > 0n ? BigInt(best) >= limit : BigInt(best) <= limit);
    if (!crosses) return;
    const order = this.#c.newOrder(
      { userId: INSURANCE_USER, side: s > 0n ? 'sell' : 'buy', type: 'limit', price: limit, qty: size },
      true,
      false,
      1,
    );
    this.#c.unwinding(order.id, lot.id);
    this.#c.enter(j, order, true, false);
    this.#c.unwinding(order.id, null);
  }

  /**
   * The fund keeps its lots only while it covers their estimated losses at the mark all together:
   * IF ≥ Σ L_est, never lot by lot (§4b.5). Otherwise lots are deleveraged at their bankruptcy
   * price, the largest estimated loss first, until the rest fit; that costs the fund nothing, so
   * its balance never goes below zero.
   */
  #cover(j: Journal): void {
    const { spec } = this.#c;
    const { mark } = this.#c.figures;
    const estimates = this.#c.lots.map((lot) => {
      const loss = -unrealisedPnl(spec, lot, mark);
      return { lot, loss: loss > 0n ? loss : 0n };
    });
    let total = estimates.reduce((sum, e) => sum + e.loss, 0n);
    if (this.#c.insurance.value >= total) return;
    estimates.sort((a, b) => (a.loss === b.loss ? (a.lot.id < b.lot.id ? -1 : 1) : a.loss > b.loss ? -1 : 1));
    for (const { lot, loss } of estimates) {
      if (this.#c.insurance.value >= total) return;
      if (loss === 0n) return;
      this.#deleverage(j, lot, lot.bankruptcy);
      const left = this.#c.lots.includes(lot) ? -unrealisedPnl(spec, lot, mark) : 0n;
      total -= loss - (left > 0n ? left : 0n);
    }
  }

  /**
   * Auto-deleveraging (§2): the lot's remainder closes against the opposite positions ranked by
   * the published score, highest first, at `price`, with no fee; their orders here are cancelled.
   */
  #deleverage(j: Journal, lot: InsuranceLot, price: bigint): void {
    const { mark } = this.#c.figures;
    const side = signOf(lot.qty);
    const ranked = this.#c
      .openPositions()
      .filter((p) => signOf(p.qty) === -side)
      .map((p) => {
        const upnl = unrealisedPnl(this.#c.spec, p, mark);
        return {
          p,
          key: {
            upnl,
            notional: value(this.#c.spec, p.qty, mark),
            entry: p.entry,
            equity: p.margin + upnl,
            id: p.id,
          },
        };
      })
      .sort((a, b) => compareAdl(a.key, b.key));
    for (const { p } of ranked) {
      if (lot.qty === 0n) break;
      const qty = abs(p.qty) < abs(lot.qty) ? abs(p.qty) : abs(lot.qty);
      for (const o of this.#c.ordersOf(p.userId)) this.#c.end(j, o, 'adl');
      this.#c.figures.seq += 1n;
      const signed = p.qty > 0n ? qty : -qty;
      const { pnl } = closeLeg(this.#c.spec, j, p, qty, price, 0n);
      closeLot(this.#c.spec, j, lot, qty, price);
      j.events.push({
        type: 'adl',
        seq: this.#c.figures.seq,
        userId: p.userId,
        lotId: lot.id,
        qty: signed,
        price,
        pnl,
      });
    }
    if (lot.qty === 0n) this.#c.removeLot(lot);
  }
}
