// The year's trading for `seed:year`: spot orders and trades, and delivery contracts, each with
// the journal entries the platform's own sequencer and settlement would have written for them
// (holds, fills with their fees, releases; placement and settlement against the house).
import { quoteOf } from '../../apps/server/src/modules/spot/market.ts';
import type { SeedContext } from './seed-books.ts';
import type { Market } from './seed-prices.ts';

const ATOMS = 100_000_000n;

/** A delivery period as the seed places contracts on it. */
export interface Period {
  symbol: string;
  seconds: number;
  ratioBps: bigint;
  min: bigint;
}

export class SpotSeeder {
  readonly #ctx: SeedContext;
  readonly #markets: Market[];
  readonly #seq = new Map<string, number>();

  constructor(ctx: SeedContext, markets: Market[]) {
    this.#ctx = ctx;
    this.#markets = markets;
    for (const m of markets) this.#seq.set(m.symbol, m.seq);
  }

  /** Each market's last sequence number, for its row (the sequencer continues from it). */
  get sequences(): ReadonlyMap<string, number> {
    return this.#seq;
  }

  #market(): Market {
    // why: the first markets (BTC, ETH) trade most, as on any venue.
    const markets = this.#markets;
    const i = Math.min(markets.length - 1, Math.floor(markets.length * this.#ctx.random() ** 2));
    return markets[i]!;
  }

  /** A quantity worth about `usdt` at `price`, on the market's lot, at least its minimum notional. */
  #qty(m: Market, price: bigint, usdt: number): bigint {
    let lots = (BigInt(usdt) * ATOMS * ATOMS) / (price * m.lot);
    if (lots < 1n) lots = 1n;
    while (quoteOf(price, lots * m.lot) < m.minNotional) lots++;
    return lots * m.lot;
  }

  #seqOf(symbol: string): number {
    const seq = this.#seq.get(symbol)! + 1;
    this.#seq.set(symbol, seq);
    return seq;
  }

  /** Holds an order's amount (its batch's entry) and answers the order's sequence number. */
  #hold(m: Market, user: number, side: 'buy' | 'sell', price: bigint, qty: bigint, at: number) {
    const asset = side === 'buy' ? m.quote : m.base;
    const held = side === 'buy' ? quoteOf(price, qty) : qty;
    this.#ctx.fund(user, asset, held, at);
    const seq = this.#seqOf(m.symbol);
    this.#ctx.books.post({
      type: 'spot.batch',
      ref: `${m.symbol}:${seq}`,
      memo: `${m.symbol} holds, trades and releases`,
      by: 'system',
      at,
      lines: [
        { owner: user, asset, kind: 'available', amount: -held },
        { owner: user, asset, kind: 'frozen', amount: held },
      ],
    });
    return { seq, asset, held };
  }

  #order(o: {
    id: number;
    m: Market;
    user: number;
    side: 'buy' | 'sell';
    price: bigint;
    qty: bigint;
    filled: bigint;
    quote: bigint;
    fee: bigint;
    feeBps: bigint;
    asset: string;
    held: bigint;
    status: string;
    seq: number;
    at: number;
    updated: number;
  }): void {
    this.#ctx.writer.add('spot_orders', [
      o.id,
      o.m.symbol,
      o.user,
      o.side,
      'limit',
      'gtc',
      o.price,
      o.qty,
      o.filled,
      o.quote,
      o.fee,
      o.feeBps,
      o.asset,
      o.held,
      o.status,
      o.status === 'revoked' ? 'user' : null,
      o.seq,
      `seed-${o.id}`,
      o.at,
      o.updated,
    ]);
    this.#ctx.count('spot_orders');
  }

  trade(at: number, activeTakes: boolean): void {
    const m = this.#market();
    const price = this.#ctx.prices.ticks(m, at);
    const activeMakes = activeTakes && this.#ctx.random() < 0.75;
    const takerSide = this.#ctx.random() < 0.5 ? 'buy' : 'sell';
    const makerSide = takerSide === 'buy' ? 'sell' : 'buy';
    const qty = this.#qty(m, price, this.#ctx.int(6, activeTakes ? 300 : 2000));
    const quote = quoteOf(price, qty);
    const party = (role: 'buy' | 'sell', not = 0) =>
      role === 'sell' ? this.#ctx.seller(m.base, qty, at, not) : this.#ctx.user(at, not);
    const maker = activeMakes ? this.#ctx.activeUser : party(makerSide);
    const taker = activeTakes && !activeMakes ? this.#ctx.activeUser : party(takerSide, maker);
    const makerAt = at - this.#ctx.int(1, 15_000);
    const makerId = this.#ctx.nextId('spot_orders');
    const hold = this.#hold(m, maker, makerSide, price, qty, makerAt);
    this.#ctx.fund(taker, takerSide === 'buy' ? m.quote : m.base, takerSide === 'buy' ? quote : qty, at);
    const takerId = this.#ctx.nextId('spot_orders');
    const seq = this.#seqOf(m.symbol);
    // why: each side pays its fee in what it receives.
    const buyerGets = qty;
    const sellerGets = quote;
    const takerFee = ((takerSide === 'buy' ? buyerGets : sellerGets) * m.takerBps) / 10_000n;
    const makerFee = ((makerSide === 'buy' ? buyerGets : sellerGets) * m.makerBps) / 10_000n;
    const buyer = takerSide === 'buy' ? taker : maker;
    const seller = takerSide === 'buy' ? maker : taker;
    const buyerFee = takerSide === 'buy' ? takerFee : makerFee;
    const sellerFee = takerSide === 'buy' ? makerFee : takerFee;
    this.#ctx.holds(buyer, m.base);
    this.#ctx.books.post({
      type: 'spot.batch',
      ref: `${m.symbol}:${seq}`,
      memo: `${m.symbol} holds, trades and releases`,
      by: 'system',
      at,
      lines: [
        { owner: buyer, asset: m.quote, kind: buyer === maker ? 'frozen' : 'available', amount: -quote },
        { owner: seller, asset: m.base, kind: seller === maker ? 'frozen' : 'available', amount: -qty },
        { owner: buyer, asset: m.base, kind: 'available', amount: qty - buyerFee },
        { owner: seller, asset: m.quote, kind: 'available', amount: quote - sellerFee },
        { owner: 'fees', asset: m.base, kind: 'available', amount: buyerFee },
        { owner: 'fees', asset: m.quote, kind: 'available', amount: sellerFee },
      ],
    });
    const common = { m, price, qty, filled: qty, quote, held: 0n, status: 'completed', updated: at };
    this.#order({
      ...common,
      id: makerId,
      user: maker,
      side: makerSide,
      fee: makerFee,
      feeBps: m.makerBps,
      asset: hold.asset,
      seq: hold.seq,
      at: makerAt,
    });
    this.#order({
      ...common,
      id: takerId,
      user: taker,
      side: takerSide,
      fee: takerFee,
      feeBps: m.takerBps,
      asset: takerSide === 'buy' ? m.quote : m.base,
      seq,
      at,
    });
    const tradeId = this.#ctx.next('spot_trades');
    this.#ctx.writer.add('spot_trades', [
      tradeId,
      m.symbol,
      seq,
      price,
      qty,
      quote,
      makerId,
      maker,
      takerId,
      taker,
      takerSide,
      makerFee,
      takerFee,
      at,
    ]);
  }

  /** An order that rested a while and was cancelled: held, then released. */
  revoked(at: number, mine: boolean): void {
    const m = this.#market();
    const user = mine ? this.#ctx.activeUser : this.#ctx.user(at);
    const side = this.#ctx.random() < 0.5 ? 'buy' : 'sell';
    const mid = this.#ctx.prices.ticks(m, at);
    const away = (mid * BigInt(this.#ctx.int(20, 300))) / 10_000n;
    const price = this.#onTick(m, side === 'buy' ? mid - away : mid + away);
    const qty = this.#qty(m, price, this.#ctx.int(6, 1500));
    const id = this.#ctx.nextId('spot_orders');
    const hold = this.#hold(m, user, side, price, qty, at);
    const cancelled = Math.min(at + this.#ctx.int(1, 2 * 60) * 60_000, this.#ctx.now - 60_000);
    this.#ctx.agenda.add(
      cancelled,
      () => {
        const seq = this.#seqOf(m.symbol);
        this.#ctx.books.post({
          type: 'spot.batch',
          ref: `${m.symbol}:${seq}`,
          memo: `${m.symbol} holds, trades and releases`,
          by: 'system',
          at: cancelled,
          lines: [
            { owner: user, asset: hold.asset, kind: 'frozen', amount: -hold.held },
            { owner: user, asset: hold.asset, kind: 'available', amount: hold.held },
          ],
        });
        this.#order({
          id,
          m,
          user,
          side,
          price,
          qty,
          filled: 0n,
          quote: 0n,
          fee: 0n,
          feeBps: m.takerBps,
          asset: hold.asset,
          held: 0n,
          status: 'revoked',
          seq: hold.seq,
          at,
          updated: cancelled,
        });
      },
      () => {
        throw new Error('a cancelled order is always cancelled before the end of the year');
      },
    );
  }

  /**
   * An order still in the book at the end of the year: buys below the last price and sells above
   * it, so none crosses another when the sequencer rebuilds the book from them.
   */
  resting(at: number, mine: boolean): void {
    const m = this.#market();
    const user = mine ? this.#ctx.activeUser : this.#ctx.user(at);
    const side = this.#ctx.random() < 0.5 ? 'buy' : 'sell';
    const last = this.#ctx.prices.ticks(m, this.#ctx.now);
    const away = (last * BigInt(this.#ctx.int(200, 900))) / 10_000n;
    const price = this.#onTick(m, side === 'buy' ? last - away : last + away);
    const qty = this.#qty(m, price, this.#ctx.int(6, 1500));
    const id = this.#ctx.nextId('spot_orders');
    const hold = this.#hold(m, user, side, price, qty, at);
    this.#order({
      id,
      m,
      user,
      side,
      price,
      qty,
      filled: 0n,
      quote: 0n,
      fee: 0n,
      feeBps: m.takerBps,
      asset: hold.asset,
      held: hold.held,
      status: 'entrusted',
      seq: hold.seq,
      at,
      updated: at,
    });
  }

  #onTick(m: Market, price: bigint): bigint {
    const ticks = price / m.tick;
    return (ticks < 1n ? 1n : ticks) * m.tick;
  }
}

export class DeliverySeeder {
  readonly #ctx: SeedContext;
  readonly #periods: Period[];

  constructor(ctx: SeedContext, periods: Period[]) {
    this.#ctx = ctx;
    this.#periods = periods;
  }

  contract(at: number, user: number, seconds?: number): void {
    const choices = seconds ? this.#periods.filter((p) => p.seconds === seconds) : this.#periods;
    const period = choices[this.#ctx.int(0, choices.length - 1)] ?? this.#periods[0]!;
    const usdt = BigInt(this.#ctx.int(10, user === this.#ctx.activeUser ? 200 : 500)) * ATOMS;
    const amount = usdt < period.min ? period.min : usdt;
    this.#ctx.fund(user, 'USDT', amount, at);
    const id = this.#ctx.next('delivery_contracts');
    const ref = `contract:${id}`;
    const direction = this.#ctx.random() < 0.5 ? 'up' : 'down';
    this.#ctx.books.post({
      type: 'delivery.place',
      ref,
      memo: `${period.symbol} ${direction} ${period.seconds}s`,
      by: `user:${user}`,
      at,
      lines: [
        { owner: user, asset: 'USDT', kind: 'available', amount: -amount },
        { owner: user, asset: 'USDT', kind: 'frozen', amount },
      ],
    });
    const opened = at + 1000;
    const open = this.#ctx.prices.atoms(period.symbol, opened);
    const expires = opened + period.seconds * 1000;
    const row = (s: {
      status: string;
      result?: string;
      close?: bigint;
      payout?: bigint;
      profit?: bigint;
    }) => [
      id,
      user,
      period.symbol,
      direction,
      period.seconds,
      amount,
      'real',
      period.ratioBps,
      open,
      opened,
      'simulated',
      at,
      expires,
      s.status,
      s.result ?? null,
      s.close ?? null,
      s.close === undefined ? null : expires,
      s.close === undefined ? null : 'simulated',
      s.payout ?? null,
      s.profit ?? null,
      s.close === undefined ? null : expires + 1000,
      `seed-${id}`,
    ];
    this.#ctx.agenda.add(
      expires + 1000,
      () => {
        const close = this.#ctx.prices.atoms(period.symbol, expires);
        const up = close > open;
        const result = close === open ? 'draw' : up === (direction === 'up') ? 'win' : 'loss';
        const profit = result === 'win' ? (amount * period.ratioBps) / 10_000n : 0n;
        const back = result === 'loss' ? 0n : amount + profit;
        this.#ctx.books.post({
          type: 'delivery.settle',
          ref,
          memo: `${period.symbol} ${direction} ${result}`,
          by: 'system',
          at: expires + 1000,
          lines: [
            { owner: user, asset: 'USDT', kind: 'frozen', amount: -amount },
            { owner: user, asset: 'USDT', kind: 'available', amount: back },
            { owner: 'house', asset: 'USDT', kind: 'available', amount: amount - back },
          ],
        });
        this.#ctx.writer.add(
          'delivery_contracts',
          row({
            status: 'settled',
            result,
            close,
            payout: back,
            profit: result === 'loss' ? -amount : profit,
          }),
        );
      },
      () => this.#ctx.writer.add('delivery_contracts', row({ status: 'open' })),
    );
  }
}
