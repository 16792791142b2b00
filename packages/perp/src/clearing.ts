import {
  type CancelReason,
  createOrderBook,
  type EventSink,
  type OrderBook,
  ResultCode,
  type Side,
} from '@bourse/engine';
import { avail, hold, Journal, pos } from './journal.ts';
import { closeLeg, closeLot, openLeg, signOf } from './legs.ts';
import {
  abs,
  bankruptcyPrice,
  leverageAllowed,
  marginRemovalAllowed,
  orderHold,
  priceBand,
  value,
} from './math.ts';
import { INSURANCE_USER, RiskDesk } from './risk.ts';
import type {
  ClearingSnapshot,
  CommandResult,
  EndReason,
  InsuranceLot,
  MarketFigures,
  PerpOrder,
  PerpPosition,
  PerpSide,
  TriggerKind,
  TriggerRef,
} from './state.ts';
import { BrokenRule } from './state.ts';
import type { PerpSpec } from './types.ts';

/** The most lots one order may carry (the engine's bound): a larger quantity is refused. */
const MAX_LOTS = 1_000_000_000;

/** The engine's user id for the insurance fund's unwind orders. */
const FUND_USER = Number.MAX_SAFE_INTEGER;

/** A new order as the host validated it: prices in ticks, quantities in base atoms on the lot. */
export interface PlaceInput {
  userId: bigint;
  side: PerpSide;
  type: 'limit' | 'market';
  /** Limit price in ticks (limit orders, and the limit child of a trigger). */
  price?: bigint;
  /** Quantity in base atoms; ignored by a close-position trigger. */
  qty: bigint;
  reduceOnly?: boolean;
  postOnly?: boolean;
  /** `ioc` for a limit order that must not rest. */
  tif?: 'gtc' | 'ioc';
  trigger?: {
    kind: TriggerKind;
    price: bigint;
    ref: TriggerRef;
    priceProtect?: boolean;
    closePosition?: boolean;
  };
}

interface Fill {
  maker: bigint;
  taker: bigint;
  price: bigint;
  qty: bigint;
}

/**
 * One perpetual market's clearing (perpetual.md): the order book, the positions, the insurance
 * fund's lots and the trigger orders, and the rules that move money between them — holds,
 * fills split into close and open legs, reduce-only trimming, triggers on last or mark, funding,
 * liquidation by takeover at the bankruptcy price, the fund's unwind and auto-deleveraging. Pure:
 * every command returns the journal moves it posts and the records it changed; the host stores
 * them in one transaction. Users' available balances are known only as the host gives them
 * ({@link setAvailable}), before the command that may take from them.
 */
export class PerpClearing {
  readonly spec: PerpSpec;
  readonly #book: OrderBook;
  #engineSeq = 0;
  readonly #figures: MarketFigures;
  readonly #insurance: { value: bigint };
  readonly #positions = new Map<bigint, PerpPosition>();
  /** Open orders (resting or waiting) by id, in id order. */
  readonly #orders = new Map<bigint, PerpOrder>();
  readonly #lots: InsuranceLot[] = [];
  readonly #leverage = new Map<bigint, number>();
  readonly #available = new Map<bigint, bigint>();
  #journal: Journal | null = null;
  #fills: Fill[] = [];
  #ended: { id: bigint; reason: CancelReason }[] = [];
  readonly #risk: RiskDesk;

  constructor(spec: PerpSpec, snapshot?: ClearingSnapshot) {
    this.spec = spec;
    this.#book = createOrderBook({
      symbol: spec.symbol,
      tickSize: Number(spec.tickAtoms),
      lotSize: Number(spec.lotAtoms),
      minPrice: 1,
      maxPrice: 1_000_000_000_000,
      maxQty: MAX_LOTS,
      selfTradePrevention: 'cancel-newest',
      triggerSource: 'external',
    });
    this.#figures = snapshot
      ? { ...snapshot.figures }
      : { seq: 0n, nextOrderId: 1n, nextPositionId: 1n, mark: 0n, last: 0n, frozen: false, insurance: 0n };
    this.#insurance = { value: this.#figures.insurance };
    this.#risk = new RiskDesk({
      spec,
      figures: this.#figures,
      insurance: this.#insurance,
      lots: this.#lots,
      fresh: this.#fresh,
      removeLot: (lot) => this.#removeLot(lot),
      openPositions: () => this.#sortedPositions(),
      positionOf: (user) => this.#positions.get(user),
      ordersOf: (user) => [...this.#orders.values()].filter((o) => o.userId === user),
      end: (j, order, reason) => this.#end(j, order, reason),
      newOrder: (input, reduceOnly, closePosition, leverage) =>
        this.#newOrder(input, reduceOnly, closePosition, leverage),
      enter: (j, order, ioc, postOnly) => this.#enter(j, order, ioc, postOnly),
      bestBid: () => this.#book.getBestBid(),
      bestAsk: () => this.#book.getBestAsk(),
      unwinding: (orderId, lotId) => {
        if (lotId === null) this.#unwindLots.delete(orderId);
        else this.#unwindLots.set(orderId, lotId);
      },
    });
    if (!snapshot) return;
    for (const p of snapshot.positions) this.#positions.set(p.userId, { ...p });
    for (const [user, leverage] of snapshot.leverage) this.#leverage.set(user, leverage);
    this.#lots.push(...snapshot.lots.map((l) => ({ ...l })));
    const sink = this.#sink();
    for (const o of [...snapshot.orders].sort((a, b) => (a.seq < b.seq ? -1 : 1))) {
      const order = { ...o, trigger: o.trigger && { ...o.trigger } };
      this.#orders.set(order.id, order);
      if (order.status === 'untriggered') continue;
      const code = this.#engine(
        {
          type: 'place',
          orderId: Number(order.id),
          userId: Number(order.userId),
          side: order.side,
          orderType: 'limit',
          tif: 'gtc',
          price: Number(order.price),
          qty: Number((order.qty - order.filledQty) / spec.lotAtoms),
        },
        sink,
      );
      if (code !== ResultCode.ACCEPTED || this.#fills.length > 0)
        throw new BrokenRule(`${spec.symbol}: open order ${order.id} does not rebuild`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Reading

  get figures(): Readonly<MarketFigures> {
    return { ...this.#figures, insurance: this.#insurance.value };
  }

  position(user: bigint): Readonly<PerpPosition> | undefined {
    return this.#positions.get(user);
  }

  positions(): readonly Readonly<PerpPosition>[] {
    return [...this.#positions.values()];
  }

  openOrders(user?: bigint): readonly Readonly<PerpOrder>[] {
    return [...this.#orders.values()].filter((o) => user === undefined || o.userId === user);
  }

  lots(): readonly Readonly<InsuranceLot>[] {
    return this.#lots;
  }

  leverageOf(user: bigint): number {
    return this.#positions.get(user)?.leverage ?? this.#leverage.get(user) ?? this.spec.maxLeverage;
  }

  depth(levels: number): { bids: [bigint, bigint][]; asks: [bigint, bigint][] } {
    const d = this.#book.getDepth(levels);
    const lot = this.spec.lotAtoms;
    const map = ([p, q]: [number, number]): [bigint, bigint] => [BigInt(p), BigInt(q) * lot];
    return { bids: d.bids.map(map), asks: d.asks.map(map) };
  }

  snapshot(): ClearingSnapshot {
    return {
      figures: this.figures,
      positions: [...this.#positions.values()].map((p) => ({ ...p })),
      orders: [...this.#orders.values()].map((o) => ({ ...o, trigger: o.trigger && { ...o.trigger } })),
      lots: this.#lots.map((l) => ({ ...l })),
      leverage: [...this.#leverage.entries()],
    };
  }

  /**
   * Tells the clearing a user's available balance; the commands that follow move it as they post,
   * until {@link forgetAvailable} (a host sets the balances it read once for a batch of commands).
   */
  setAvailable(user: bigint, amount: bigint): void {
    this.#available.set(user, amount);
  }

  /** Forgets every available balance it was told (after a batch). */
  forgetAvailable(): void {
    this.#available.clear();
  }

  /** Tells the clearing of money the operator moved into (or out of) the insurance fund. */
  adjustInsurance(delta: bigint): void {
    this.#insurance.value += delta;
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  /** Chooses the user's leverage; only while they hold no position and no open order here. */
  setLeverage(user: bigint, leverage: number): CommandResult {
    return this.#run((j) => {
      if (!Number.isInteger(leverage) || leverage < 1 || leverage > this.spec.maxLeverage)
        return 'LEVERAGE_INVALID';
      if ((this.#positions.get(user)?.qty ?? 0n) !== 0n || this.openOrders(user).length > 0)
        return 'LEVERAGE_LOCKED';
      this.#leverage.set(user, leverage);
      const p = this.#positionOf(user);
      p.leverage = leverage;
      j.positions.add(p);
      return null;
    });
  }

  /**
   * Sets the position's stop-loss and take-profit (§3: reduce-only close-position triggers, paired
   * so that one firing cancels the other), replacing the pair set before. Either may be absent;
   * neither cancels the pair.
   */
  attachStops(
    user: bigint,
    stops: { stopLoss?: bigint; takeProfit?: bigint; ref: TriggerRef },
  ): CommandResult<PerpOrder[]> {
    return this.#run<PerpOrder[]>((j) => {
      const p = this.#positions.get(user);
      if (!p || p.qty === 0n) return 'POSITION_NOT_FOUND';
      const side: PerpSide = p.qty > 0n ? 'sell' : 'buy';
      const made: PerpOrder[] = [];
      for (const [kind, price] of [
        ['stop', stops.stopLoss],
        ['take_profit', stops.takeProfit],
      ] as const) {
        if (price === undefined) continue;
        const outcome = this.#place(j, {
          userId: user,
          side,
          type: 'market',
          qty: 0n,
          trigger: { kind, price, ref: stops.ref, closePosition: true },
        });
        if (typeof outcome === 'string') {
          // why: refused before any change of the pair: the earlier one stays as it was.
          for (const o of made) this.#orders.delete(o.id);
          j.orders.clear();
          return outcome;
        }
        made.push(...outcome.value);
      }
      for (const o of this.openOrders(user)) {
        if (o.closePosition && o.status === 'untriggered' && !made.includes(o as PerpOrder))
          this.#end(j, o as PerpOrder, 'user');
      }
      if (made.length === 2) {
        made[0]!.trigger!.oco = made[1]!.id;
        made[1]!.trigger!.oco = made[0]!.id;
      }
      return { value: made };
    });
  }

  /** Places an order (perpetual.md §1 band and hold, §3 reduce-only and trigger rules). Returns the orders it made. */
  place(input: PlaceInput): CommandResult<PerpOrder[]> {
    return this.#run<PerpOrder[]>((j) => this.#place(j, input));
  }

  cancel(user: bigint, orderId: bigint): CommandResult {
    return this.#run((j) => {
      const order = this.#orders.get(orderId);
      if (!order || order.userId !== user) return 'ORDER_NOT_FOUND';
      this.#end(j, order, 'user');
      return null;
    });
  }

  /** A new mark price (ticks, already truncated): mark triggers, liquidations, the fund's lots. */
  mark(mark: bigint): CommandResult {
    return this.#run((j) => {
      if (mark <= 0n) return 'PRICE_INVALID';
      this.#figures.frozen = false;
      this.#figures.mark = mark;
      this.#settle(j);
      return null;
    });
  }

  /** The index is out: mark, funding and liquidations freeze; only reduce-only orders are accepted. */
  freeze(): CommandResult {
    return this.#run(() => {
      this.#figures.frozen = true;
      return null;
    });
  }

  /**
   * The funding event at T (§1, §2): every position held now pays or receives V(|Q|, mark_T)·|F|;
   * the payer pays ceil, the receiver gets floor, the residual goes to the fund, and a payer whose
   * margin and available balance cannot pay is liquidated at once. A liquidation check follows.
   */
  fund(rate: bigint, markAtT: bigint): CommandResult {
    return this.#run((j) => {
      this.#risk.fund(j, rate, markAtT);
      return null;
    });
  }

  addMargin(user: bigint, amount: bigint): CommandResult {
    return this.#run((j) => {
      const p = this.#positions.get(user);
      if (!p || p.qty === 0n) return 'POSITION_NOT_FOUND';
      if (amount <= 0n) return 'AMOUNT_INVALID';
      if (j.availableOf(user) < amount) return 'BALANCE_INSUFFICIENT';
      j.move(avail(user), pos(user), amount, 'margin');
      p.margin += amount;
      j.positions.add(p);
      return null;
    });
  }

  /** Takes margin back: only while M' ≥ ceil(max(E, N)/L) and M' + uPnL > MM (§2). */
  removeMargin(user: bigint, amount: bigint): CommandResult {
    return this.#run((j) => {
      const p = this.#positions.get(user);
      if (!p || p.qty === 0n) return 'POSITION_NOT_FOUND';
      if (amount <= 0n || amount > p.margin) return 'AMOUNT_INVALID';
      if (this.#figures.frozen || this.#figures.mark === 0n) return 'MARK_UNAVAILABLE';
      if (!marginRemovalAllowed(this.spec, p, this.#figures.mark, p.margin - amount))
        return 'MARGIN_REMOVAL_DENIED';
      j.move(pos(user), avail(user), amount, 'margin');
      p.margin -= amount;
      j.positions.add(p);
      this.#risk.liquidateAll(j);
      return null;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Placing

  #place(j: Journal, input: PlaceInput): string | { value: PerpOrder[] } {
    const { spec } = this;
    const { mark, frozen } = this.#figures;
    if (mark === 0n) return 'MARK_UNAVAILABLE';
    const position = this.#positionOf(input.userId);
    const trigger = input.trigger;
    const closePosition = trigger?.closePosition === true;
    const reduceOnly = input.reduceOnly === true || closePosition;
    if (frozen && !reduceOnly) return 'REDUCE_ONLY_WHILE_FROZEN';
    if (!closePosition && (input.qty <= 0n || input.qty % spec.lotAtoms !== 0n)) return 'QTY_INVALID';
    // why: a quantity past the engine's bound would be refused inside the book after its hold was taken.
    if (input.qty / spec.lotAtoms > BigInt(MAX_LOTS)) return 'QTY_INVALID';
    if (input.type === 'limit' && (input.price === undefined || input.price <= 0n)) return 'PRICE_INVALID';
    const s = input.side === 'buy' ? 1n : -1n;
    const opposite = position.qty !== 0n && signOf(position.qty) !== s;
    // why: what the user's resting reduce-only orders (close parts included) may still take of the
    // position; a new one must fit in what is left, or two of them together could open (§4b.2).
    const closable = opposite ? abs(position.qty) - this.#restingReduceOnly(input.userId) : 0n;
    if (reduceOnly) {
      if (!opposite) return 'REDUCE_ONLY_REJECTED';
      if (!closePosition && input.qty > abs(position.qty)) return 'REDUCE_ONLY_REJECTED';
      if (!trigger && input.qty > closable) return 'REDUCE_ONLY_EXCEEDS_POSITION';
    }
    const band = priceBand(spec, mark);
    if (input.type === 'limit' && !trigger) {
      if (s > 0n ? input.price! > band.maxBuy : input.price! < band.minSell) return 'PRICE_OUT_OF_BAND';
    }
    const leverage = this.leverageOf(input.userId);
    if (trigger) {
      const condition = (trigger.kind === 'stop') === s > 0n ? 'gte' : 'lte';
      const ref = trigger.ref === 'mark' ? mark : this.#figures.last;
      if (trigger.price <= 0n) return 'TRIGGER_PRICE_INVALID';
      if (ref > 0n && (condition === 'gte' ? ref >= trigger.price : ref <= trigger.price))
        return 'TRIGGER_WOULD_FIRE';
      const base = this.#newOrder(input, reduceOnly, closePosition, leverage);
      base.trigger = {
        kind: trigger.kind,
        price: trigger.price,
        ref: trigger.ref,
        condition,
        priceProtect: trigger.priceProtect === true,
        oco: null,
      };
      base.status = 'untriggered';
      if (!reduceOnly) {
        const pStar =
          input.type === 'limit'
            ? input.price!
            : s > 0n
              ? priceBand(spec, trigger.price).maxBuy
              : trigger.price;
        const error = this.#hold(j, base, pStar);
        if (error) return error;
      }
      this.#orders.set(base.id, base);
      j.orders.add(base);
      return { value: [base] };
    }
    // why: one-way mode: an order against the position closes it first (no hold), as far as the
    // resting reduce-only orders leave room, then opens the rest with a hold.
    const room = closable > 0n ? closable : 0n;
    const closeQty = input.qty < room ? input.qty : room;
    const openQty = reduceOnly ? 0n : input.qty - closeQty;
    const price = input.type === 'market' ? (s > 0n ? band.maxBuy : band.minSell) : input.price!;
    const made: PerpOrder[] = [];
    if (closeQty > 0n) {
      const close = this.#newOrder({ ...input, qty: closeQty }, true, false, leverage);
      // why: a close never fills past the bankruptcy price, where the fund would pay for it: a market
      // close stops there, a limit close priced past it is refused.
      const limit = this.#closeLimit(position, s, price, input.type === 'market');
      if (limit === null) return 'PRICE_PAST_BANKRUPTCY';
      close.price = limit;
      made.push(close);
    }
    if (openQty > 0n) {
      const open = this.#newOrder({ ...input, qty: openQty }, false, false, leverage);
      open.price = price;
      const error = this.#hold(j, open, price);
      if (error) return error;
      made.push(open);
    }
    for (const order of made)
      this.#enter(j, order, input.type === 'market' || input.tif === 'ioc', input.postOnly === true);
    this.#afterTrades(j);
    return { value: made };
  }

  /** Σ remaining of the user's reduce-only orders resting in the book (waiting triggers excluded). */
  #restingReduceOnly(user: bigint): bigint {
    let sum = 0n;
    for (const o of this.#orders.values())
      if (o.userId === user && o.reduceOnly && o.status !== 'untriggered') sum += o.qty - o.filledQty;
    return sum;
  }

  /**
   * The price a close of the position at `price` may go to: a long's sell not below the bankruptcy
   * price, a short's buy not above it. For a market close, the band price held there; for a limit
   * close, its own price, or null when that lies past the bankruptcy price.
   */
  #closeLimit(position: PerpPosition, side: bigint, price: bigint, market: boolean): bigint | null {
    if (position.qty === 0n) return price;
    const bp = bankruptcyPrice(this.spec, position);
    const past = side < 0n ? price < bp : price > bp;
    if (!past) return price;
    // why: only a market order's band price is moved; a limit past BP is the user's own choice, refused.
    if (!market) return null;
    const band = priceBand(this.spec, this.#figures.mark);
    return side < 0n ? (bp > band.maxBuy ? null : bp) : bp < band.minSell ? null : bp;
  }

  #newOrder(input: PlaceInput, reduceOnly: boolean, closePosition: boolean, leverage: number): PerpOrder {
    const id = this.#figures.nextOrderId;
    this.#figures.nextOrderId += 1n;
    this.#figures.seq += 1n;
    return {
      id,
      userId: input.userId,
      side: input.side,
      type: input.type,
      price: input.price ?? 0n,
      qty: closePosition ? 0n : input.qty,
      filledQty: 0n,
      filledValue: 0n,
      fee: 0n,
      hold: 0n,
      leverage,
      reduceOnly,
      closePosition,
      postOnly: input.postOnly === true,
      trigger: null,
      status: 'new',
      endReason: null,
      seq: this.#figures.seq,
    };
  }

  /** Checks the tier for the order's notional and moves its hold from available (§1 order hold). */
  #hold(j: Journal, order: PerpOrder, pStar: bigint): string | null {
    const { spec } = this;
    const position = this.#positionOf(order.userId);
    let notional = value(spec, position.qty, this.#figures.mark) + value(spec, order.qty, pStar);
    for (const o of this.#orders.values()) {
      if (o.userId === order.userId && !o.reduceOnly)
        notional += value(spec, o.qty - o.filledQty, o.price || pStar);
    }
    if (!leverageAllowed(spec, notional, order.leverage)) return 'RISK_LIMIT_EXCEEDED';
    const amount = orderHold(spec, order.qty, pStar, order.leverage);
    if (j.availableOf(order.userId) < amount) return 'BALANCE_INSUFFICIENT';
    j.move(avail(order.userId), hold(order.userId), amount, 'hold');
    order.hold = amount;
    return null;
  }

  /** Puts an order into the book (a market order as IOC at its band price) and settles its fills. */
  #enter(j: Journal, order: PerpOrder, ioc: boolean, postOnly: boolean): void {
    this.#orders.set(order.id, order);
    j.orders.add(order);
    const remaining = order.qty - order.filledQty;
    if (remaining <= 0n) {
      this.#end(j, order, 'reduce_only');
      return;
    }
    this.#engine({
      type: 'place',
      orderId: Number(order.id),
      userId: order.userId === INSURANCE_USER ? FUND_USER : Number(order.userId),
      side: order.side as Side,
      orderType: 'limit',
      tif: ioc ? 'ioc' : postOnly ? 'post-only' : 'gtc',
      price: Number(order.price),
      qty: Number(remaining / this.spec.lotAtoms),
    });
    this.#settleFills(j);
  }

  // -------------------------------------------------------------------------------------------
  // The engine

  #engine(command: Record<string, unknown> & { type: string }, sink: EventSink = this.#sink()): ResultCode {
    this.#engineSeq += 1;
    return this.#book.apply({ ...command, seq: this.#engineSeq } as never, sink);
  }

  #sink(): EventSink {
    return {
      onAccepted() {},
      onTriggered() {},
      onBookDelta() {},
      onTrade: (_seq, maker, _mu, taker, _tu, price, qty) => {
        this.#fills.push({
          maker: BigInt(maker),
          taker: BigInt(taker),
          price: BigInt(price),
          qty: BigInt(qty) * this.spec.lotAtoms,
        });
      },
      onCancelled: (_seq, orderId, _user, _qty, reason) => {
        this.#ended.push({ id: BigInt(orderId), reason });
      },
      onDone: () => {},
    };
  }

  /** Settles the fills and cancellations the last engine command raised, in order. */
  #settleFills(j: Journal): void {
    // why: one engine command's fills are simultaneous; a maker's reduce-only fills are settled
    // before its other fills, so a held order that happens to close the position first cannot
    // leave a reduce-only fill of the same sweep with nothing to reduce (§4b.2).
    const reducing = (fill: Fill) => this.#orders.get(fill.maker)?.reduceOnly === true;
    const fills = this.#fills.splice(0);
    fills.sort((a, b) => Number(reducing(b)) - Number(reducing(a)));
    const ended = this.#ended.splice(0);
    const touched = new Set<bigint>();
    for (const fill of fills) {
      const maker = this.#orders.get(fill.maker);
      const taker = this.#orders.get(fill.taker);
      if (!maker || !taker) throw new BrokenRule(`fill of unknown order ${fill.maker}/${fill.taker}`);
      this.#figures.seq += 1n;
      const v = value(this.spec, fill.qty, fill.price);
      const makerFee = this.#fillSide(j, maker, fill, true);
      const takerFee = this.#fillSide(j, taker, fill, false);
      this.#figures.last = fill.price;
      j.events.push({
        type: 'trade',
        trade: {
          seq: this.#figures.seq,
          price: fill.price,
          qty: fill.qty,
          value: v,
          takerSide: taker.side,
          makerOrderId: maker.id,
          makerUserId: maker.userId,
          takerOrderId: taker.id,
          takerUserId: taker.userId,
          makerFee,
          takerFee,
          kind: maker.userId === INSURANCE_USER || taker.userId === INSURANCE_USER ? 'unwind' : 'trade',
        },
      });
      touched.add(maker.userId).add(taker.userId);
    }
    for (const user of touched) if (user !== INSURANCE_USER) j.touched.add(user);
    for (const { id, reason } of ended) {
      const order = this.#orders.get(id);
      if (order)
        this.#finish(
          j,
          order,
          reason === 'self-trade'
            ? 'self_trade'
            : reason === 'unfilled'
              ? 'ioc'
              : (order.endReason ?? 'user'),
          reason === 'unfilled' ? 'expired' : 'cancelled',
        );
    }
    for (const user of touched) if (user !== INSURANCE_USER) this.#trimReduceOnly(j, user);
  }

  /** One side of a fill: the order's figures, then the position (or the fund's lot). Returns its fee. */
  #fillSide(j: Journal, order: PerpOrder, fill: Fill, isMaker: boolean): bigint {
    const { spec } = this;
    const remainingBefore = order.qty - order.filledQty;
    const share = fill.qty === remainingBefore ? order.hold : (order.hold * fill.qty) / remainingBefore;
    order.hold -= share;
    order.filledQty += fill.qty;
    order.filledValue += value(spec, fill.qty, fill.price);
    order.status = order.filledQty === order.qty ? 'filled' : 'partial';
    j.orders.add(order);
    if (order.userId === INSURANCE_USER) {
      const lot = this.#lots.find((l) => l.id === this.#lotOf(order));
      if (!lot) throw new BrokenRule(`unwind order ${order.id} without its lot`);
      const pnl = closeLot(spec, j, lot, fill.qty, fill.price);
      j.events.push({
        type: 'unwind',
        seq: this.#figures.seq,
        lotId: lot.id,
        qty: fill.qty,
        value: value(spec, fill.qty, fill.price),
        pnl,
      });
      if (lot.qty === 0n) this.#removeLot(lot);
      if (order.status === 'filled') this.#orders.delete(order.id);
      return 0n;
    }
    const rate = isMaker ? spec.makerRate : spec.takerRate;
    const position = this.#positionOf(order.userId);
    const s = order.side === 'buy' ? 1n : -1n;
    const opposite = position.qty !== 0n && signOf(position.qty) !== s;
    const closeQty = opposite ? (fill.qty < abs(position.qty) ? fill.qty : abs(position.qty)) : 0n;
    const openQty = fill.qty - closeQty;
    // why: the resting reduce-only orders never exceed the position (placement and trimming keep it
    // so); a fill that would open from one is a broken rule, and the command is refused whole.
    if (order.reduceOnly && openQty > 0n)
      throw new BrokenRule(`reduce-only order ${order.id} would open ${openQty}`);
    let fee = 0n;
    if (closeQty > 0n) fee += closeLeg(spec, j, position, closeQty, fill.price, rate).fee;
    if (openQty > 0n) {
      if (position.qty === 0n) this.#openPosition(position);
      fee += openLeg(spec, j, position, s, openQty, fill.price, rate, share, order.leverage).fee;
    } else {
      j.move(hold(order.userId), avail(order.userId), share, 'release');
    }
    order.fee += fee;
    if (order.status === 'filled') {
      j.move(hold(order.userId), avail(order.userId), order.hold, 'release');
      order.hold = 0n;
      this.#orders.delete(order.id);
    }
    return fee;
  }

  /** Ends an open order: out of the book or the trigger list, its hold released. */
  #end(j: Journal, order: PerpOrder, reason: EndReason): void {
    if (order.status === 'untriggered') {
      this.#finish(j, order, reason, 'cancelled');
      return;
    }
    order.endReason = reason;
    const code = this.#engine({
      type: 'cancel',
      orderId: Number(order.id),
      userId: order.userId === INSURANCE_USER ? FUND_USER : Number(order.userId),
    });
    this.#fills.splice(0);
    this.#ended.splice(0);
    if (code !== ResultCode.ACCEPTED && this.#orders.has(order.id))
      throw new BrokenRule(`order ${order.id} would not cancel (${code})`);
    this.#finish(j, order, reason, 'cancelled');
  }

  #finish(
    j: Journal,
    order: PerpOrder,
    reason: EndReason,
    status: 'cancelled' | 'expired' | 'rejected',
  ): void {
    if (!this.#orders.has(order.id)) return;
    this.#orders.delete(order.id);
    if (order.userId !== INSURANCE_USER)
      j.move(hold(order.userId), avail(order.userId), order.hold, 'release');
    order.hold = 0n;
    order.status = status;
    order.endReason = reason;
    j.orders.add(order);
  }

  // -------------------------------------------------------------------------------------------
  // Positions

  #positionOf(user: bigint): PerpPosition {
    let p = this.#positions.get(user);
    if (!p) {
      p = {
        id: 0n,
        userId: user,
        qty: 0n,
        entry: 0n,
        margin: 0n,
        leverage: this.leverageOf(user),
        realised: 0n,
      };
      this.#positions.set(user, p);
    }
    return p;
  }

  #openPosition(p: PerpPosition): void {
    p.id = this.#figures.nextPositionId;
    this.#figures.nextPositionId += 1n;
  }

  #sortedPositions(): PerpPosition[] {
    return [...this.#positions.values()].filter((p) => p.qty !== 0n).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /**
   * After a user's position changed: reduce-only orders must never add up to more than it (§3).
   * All go when it is flat or flipped (triggers too); otherwise the ones nearest the market keep
   * their quantity and the farther ones are trimmed or cancelled.
   */
  #trimReduceOnly(j: Journal, user: bigint, reserved = 0n): void {
    const p = this.#positionOf(user);
    const mine = [...this.#orders.values()].filter((o) => o.userId === user && o.reduceOnly);
    for (const o of mine) {
      const s = o.side === 'buy' ? 1n : -1n;
      if (p.qty === 0n || signOf(p.qty) === s) this.#end(j, o, 'position_closed');
    }
    let allowance = abs(p.qty) > reserved ? abs(p.qty) - reserved : 0n;
    const resting = mine
      .filter((o) => this.#orders.has(o.id) && o.status !== 'untriggered')
      .sort(
        (a, b) =>
          (a.side === 'sell' ? Number(a.price - b.price) : Number(b.price - a.price)) ||
          (a.id < b.id ? -1 : 1),
      );
    for (const o of resting) {
      const remaining = o.qty - o.filledQty;
      if (remaining <= allowance) {
        allowance -= remaining;
        continue;
      }
      if (allowance === 0n) {
        this.#end(j, o, 'reduce_only');
        continue;
      }
      this.#engine({
        type: 'reduce',
        orderId: Number(o.id),
        userId: Number(user),
        qty: Number((remaining - allowance) / this.spec.lotAtoms),
      });
      this.#ended.splice(0);
      o.qty = o.filledQty + allowance;
      allowance = 0n;
      j.orders.add(o);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Triggers, liquidation and the fund (the rest of the market's rules)

  #removeLot(lot: InsuranceLot): void {
    const at = this.#lots.indexOf(lot);
    if (at >= 0) this.#lots.splice(at, 1);
  }

  #lotOf(order: PerpOrder): bigint {
    return this.#unwindLots.get(order.id) ?? -1n;
  }
  readonly #unwindLots = new Map<bigint, bigint>();
  /** Lots taken over in the running command. */
  readonly #fresh = new Set<InsuranceLot>();

  /** After trades: triggers the new last price reached, then the fund's lots. */
  #afterTrades(j: Journal): void {
    this.#fireTriggers(j);
  }

  /** On a mark: triggers, liquidations, the fund's lots, triggers again. */
  #settle(j: Journal): void {
    this.#fireTriggers(j);
    this.#risk.liquidateAll(j);
    this.#risk.workLots(j);
    this.#fireTriggers(j);
  }

  /** Fires, in placement order, every waiting trigger whose condition holds, until none does. */
  #fireTriggers(j: Journal): void {
    const { mark, last } = this.#figures;
    for (let guard = 0; guard < 100_000; guard += 1) {
      const next = [...this.#orders.values()].find((o) => {
        if (o.status !== 'untriggered' || !o.trigger) return false;
        const ref = o.trigger.ref === 'mark' ? this.#figures.mark : this.#figures.last;
        if (ref === 0n) return false;
        if (!(o.trigger.condition === 'gte' ? ref >= o.trigger.price : ref <= o.trigger.price)) return false;
        if (o.trigger.priceProtect && last > 0n) {
          const gap = last > mark ? last - mark : mark - last;
          if (gap * 100_000_000n > this.spec.bandRate * mark) return false;
        }
        return true;
      });
      if (!next) return;
      this.#fire(j, next);
    }
    throw new BrokenRule('triggers did not settle');
  }

  #fire(j: Journal, order: PerpOrder): void {
    const trigger = order.trigger!;
    if (trigger.oco !== null) {
      const other = this.#orders.get(trigger.oco);
      if (other) this.#end(j, other, 'oco');
    }
    const p = this.#positionOf(order.userId);
    const s = order.side === 'buy' ? 1n : -1n;
    const band = priceBand(this.spec, this.#figures.mark);
    if (order.reduceOnly) {
      const size = p.qty !== 0n && signOf(p.qty) !== s ? abs(p.qty) : 0n;
      if (size === 0n) {
        this.#finish(j, order, 'position_closed', 'cancelled');
        return;
      }
      order.qty = order.closePosition || order.qty > size ? size : order.qty;
    }
    this.#figures.seq += 1n;
    order.seq = this.#figures.seq;
    order.status = 'new';
    let price: bigint | null = order.type === 'market' ? (s > 0n ? band.maxBuy : band.minSell) : order.price;
    if (s > 0n ? price > band.maxBuy : price < band.minSell) price = null;
    if (price !== null && order.reduceOnly) price = this.#closeLimit(p, s, price, order.type === 'market');
    if (price === null) {
      this.#finish(j, order, 'trigger_rejected', 'rejected');
      return;
    }
    order.price = price;
    if (order.reduceOnly) {
      // why: a stop that fires takes precedence over resting reduce-only orders: they are trimmed,
      // farthest first, to what the position has left beside it (§4b.2).
      this.#orders.delete(order.id);
      this.#trimReduceOnly(j, order.userId, order.qty);
    }
    this.#orders.delete(order.id);
    this.#enter(j, order, order.type === 'market', false);
  }

  // -------------------------------------------------------------------------------------------

  /**
   * What no command may leave behind, whatever the order of commands or who sent them: a negative
   * margin, hold or known available balance, a flat position holding money. A breach throws: the host refuses the command and rebuilds the clearing from its store.
   */
  #check(j: Journal): void {
    for (const p of j.positions) {
      if (p.margin < 0n) throw new BrokenRule(`user ${p.userId}: margin ${p.margin}`);
      if (p.qty === 0n && (p.margin !== 0n || p.entry !== 0n))
        throw new BrokenRule(`user ${p.userId}: flat with margin ${p.margin}, entry ${p.entry}`);
    }
    for (const o of j.orders) if (o.hold < 0n) throw new BrokenRule(`order ${o.id}: hold ${o.hold}`);
    for (const [user, amount] of j.available)
      if (amount < 0n) throw new BrokenRule(`user ${user}: available ${amount}`);
  }

  /** Runs a command on a fresh journal; a refusal (an error code) must come before any change. */
  #run<T = undefined>(body: (j: Journal) => string | null | { value: T }): CommandResult<T> {
    if (this.#journal) throw new BrokenRule('a clearing command is already running');
    const j = new Journal(this.#available, this.#insurance);
    this.#journal = j;
    const seq = this.#figures.seq;
    const nextOrderId = this.#figures.nextOrderId;
    try {
      const outcome = body(j);
      if (typeof outcome === 'string') {
        if (j.moves.length > 0 || j.orders.size > 0)
          throw new BrokenRule(`refusal ${outcome} after a change`);
        this.#figures.seq = seq;
        this.#figures.nextOrderId = nextOrderId;
        return j.result<T>(outcome);
      }
      // why: a fill anywhere in the command (the fund's IOC included) may have left a position at or
      // under its maintenance margin at the mark: it is liquidated before the command ends (§4b.4).
      this.#risk.liquidateUsers(j);
      this.#check(j);
      if (j.fund !== 0n) throw new BrokenRule(`funding account left at ${j.fund}`);
      // why: every command that moved money has a sequence of its own (its journal entry's reference).
      if (j.moves.length > 0 && this.#figures.seq === seq) this.#figures.seq += 1n;
      return j.result<T>(null, outcome === null ? undefined : outcome.value);
    } finally {
      this.#journal = null;
      this.#fresh.clear();
    }
  }
}
