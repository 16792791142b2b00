import { describe, expect, it } from 'vitest';
import {
  bankruptcyPrice,
  isLiquidatable,
  liquidationPrice,
  type PerpClearing,
  type PlaceInput,
  roeBps,
  unrealisedPnl,
} from '../src/index.ts';
import { Market, P, U } from './harness.ts';

/**
 * Scenarios T1–T14 of perpetual.md §5, run through the clearing with an in-memory ledger that
 * checks the five invariants after every command. Common setup: BTC, tick 0.1, lot 0.001, tier 1,
 * taker 0.05 %, maker 0.02 %, band 5 %. User 1 is the customer; others are counterparties.
 */

const limit =
  (userId: bigint, side: 'buy' | 'sell', price: string, qty: string, extra: Partial<PlaceInput> = {}) =>
  (c: PerpClearing) =>
    c.place({ userId, side, type: 'limit', price: P(price), qty: U(qty), ...extra });
const market =
  (userId: bigint, side: 'buy' | 'sell', qty: string, extra: Partial<PlaceInput> = {}) =>
  (c: PerpClearing) =>
    c.place({ userId, side, type: 'market', qty: U(qty), ...extra });
const mark = (price: string) => (c: PerpClearing) => c.mark(P(price));

/** T1: user 1 buys 1 BTC at market, 5x, against user 2's offer at 60 000.0. */
function t1(): Market {
  const m = new Market();
  m.deposit(1n, U('20000'));
  m.deposit(2n, U('20000'));
  m.ok(mark('60000.0'));
  m.ok(limit(2n, 'sell', '60000.0', '1'));
  m.ok(market(1n, 'buy', '1'));
  return m;
}

/** T2 on T1: a maker buy of 0.5 at 62 000.0 filled by user 3. */
function t2(): Market {
  const m = t1();
  m.deposit(3n, U('20000'));
  m.ok(mark('63000.0'));
  m.ok(limit(1n, 'buy', '62000.0', '0.5'));
  m.ok(limit(3n, 'sell', '62000.0', '0.5'));
  return m;
}

/** T3 on T2: user 1 sells 0.6 at 65 000.0 as taker against user 4's bid. */
function t3(): Market {
  const m = t2();
  m.deposit(4n, U('20000'));
  m.ok(limit(4n, 'buy', '65000.0', '0.6'));
  m.ok(limit(1n, 'sell', '65000.0', '0.6'));
  return m;
}

describe('perpetual scenarios (perpetual.md §5)', () => {
  it('T1 open: IM, fee, available, entry, margin, LP, BP, uPnL and ROE', () => {
    const m = t1();
    const p = m.clearing.position(1n)!;
    expect([p.qty, p.entry, p.margin]).toEqual([U('1'), U('60000'), U('12000')]);
    expect(m.avail(1n)).toBe(U('7970'));
    expect(m.balance('FEE')).toBe(U('30') + U('12'));
    expect(liquidationPrice(m.clearing.spec, p)).toBe(P('48979.5'));
    expect(bankruptcyPrice(m.clearing.spec, p)).toBe(P('48000.0'));
    expect(unrealisedPnl(m.clearing.spec, p, P('63000.0'))).toBe(U('3000'));
    expect(roeBps(m.clearing.spec, p, P('63000.0'))).toBe(2500n);
    expect(m.clearing.openOrders(1n)).toEqual([]);
    expect(m.balance({ user: 1n, kind: 'hold' })).toBe(0n);
  });

  it('T2 add: maker fill adds margin and entry', () => {
    const m = t2();
    const p = m.clearing.position(1n)!;
    expect([p.qty, p.entry, p.margin]).toEqual([U('1.5'), U('91000'), U('18200')]);
    expect(m.avail(1n)).toBe(U('1763.8'));
    expect(liquidationPrice(m.clearing.spec, p)).toBe(P('49523.8'));
    expect(bankruptcyPrice(m.clearing.spec, p)).toBe(P('48533.4'));
  });

  it('T3 partial close: released entry and margin, profit, fee, payout', () => {
    const m = t3();
    const p = m.clearing.position(1n)!;
    expect([p.qty, p.entry, p.margin]).toEqual([U('0.9'), U('54600'), U('10920')]);
    expect(m.avail(1n)).toBe(U('11624.3'));
    expect(liquidationPrice(m.clearing.spec, p)).toBe(P('49523.8'));
    expect(p.realised).toBe(U('2600') - U('30') - U('6.2') - U('19.5'));
  });

  it('T4 funding: the long pays 5.76 out of its margin and FUND ends at 0', () => {
    const m = t3();
    const before = m.balance('IF');
    const short = m.clearing.position(2n)!.margin;
    m.ok((c) => c.fund(10_000n, P('64000.0')));
    expect(m.clearing.position(1n)!.margin).toBe(U('10914.24'));
    expect(m.clearing.position(2n)!.margin - short).toBe(U('6.4'));
    expect(m.balance('FUND')).toBe(0n);
    // Longs 0.9 + 0.6 pay 5.76 + 3.84; shorts 1 + 0.5 get 6.4 + 3.2: nothing left for the fund.
    expect(m.balance('IF')).toBe(before);
  });

  it('T5 funding dust: the payer pays ceil, the receiver gets floor, the fund keeps 1 atom; roles swap with F < 0', () => {
    const m = new Market();
    m.deposit(1n, U('1000'));
    m.deposit(2n, U('1000'));
    m.ok(mark('64000.1'));
    m.ok(limit(2n, 'sell', '64000.1', '0.003'));
    m.ok(market(1n, 'buy', '0.003'));
    const margin = (u: bigint) => m.clearing.position(u)!.margin;
    const [a0, b0] = [margin(1n), margin(2n)];
    m.ok((c) => c.fund(12_346n, P('64000.1')));
    expect(margin(1n) - a0).toBe(-2_370_436n);
    expect(margin(2n) - b0).toBe(2_370_435n);
    expect(m.balance('IF')).toBe(1n);
    m.ok((c) => c.fund(-12_346n, P('64000.1')));
    expect(margin(1n) - a0).toBe(-2_370_436n + 2_370_435n);
    expect(margin(2n) - b0).toBe(2_370_435n - 2_370_436n);
    expect(m.balance('IF')).toBe(2n);
  });

  it('T6 liquidation with a fund gain: takeover at BP, IOC into the bids, IF +924', () => {
    const m = t1();
    m.deposit(5n, U('20000'));
    m.ok(limit(5n, 'buy', '48940.0', '0.6'));
    m.ok(limit(5n, 'buy', '48900.0', '0.4'));
    m.ok(mark('48950.0'));
    expect(m.clearing.position(1n)!.qty).toBe(0n);
    expect(m.avail(1n)).toBe(U('7970'));
    expect(m.balance('IF')).toBe(U('924'));
    const liquidation = m.last.events.find((e) => e.type === 'liquidation');
    expect(liquidation).toMatchObject({
      userId: 1n,
      bankruptcy: P('48000.0'),
      remainder: 0n,
      margin: U('12000'),
    });
    const unwinds = m.last.events.filter((e) => e.type === 'unwind');
    expect(unwinds.map((e) => e.type === 'unwind' && [e.qty, e.pnl])).toEqual([
      [U('0.6'), U('564')],
      [U('0.4'), U('360')],
    ]);
    expect(m.clearing.lots()).toEqual([]);
  });

  /** T7/T8 setup: user 1 short 2 at 50 000.0, 5x. */
  function shortTwo(insurance: string): Market {
    const m = new Market();
    m.deposit(1n, U('30000'));
    m.deposit(2n, U('30000'));
    m.deposit(3n, U('100000'));
    m.fundInsurance(U(insurance));
    m.ok(mark('50000.0'));
    m.ok(limit(1n, 'sell', '50000.0', '2'));
    m.ok(market(2n, 'buy', '2'));
    const p = m.clearing.position(1n)!;
    expect([p.qty, p.entry, p.margin]).toEqual([-U('2'), U('100000'), U('20000')]);
    return m;
  }

  it('T7 liquidation with a fund loss: the fund keeps the lot, then unwinds it at 60 800.0', () => {
    const m = shortTwo('1000');
    const p = m.clearing.position(1n)!;
    expect(liquidationPrice(m.clearing.spec, p)).toBe(P('58823.6'));
    expect(bankruptcyPrice(m.clearing.spec, p)).toBe(P('60000.0'));
    m.ok(limit(3n, 'sell', '59500.0', '0.5'));
    m.ok(limit(3n, 'sell', '60500.0', '3'));
    m.ok(mark('58823.5'));
    expect(m.clearing.position(1n)!.qty).toBe(-U('2'));
    m.ok(mark('58900.0'));
    expect(m.clearing.position(1n)!.qty).toBe(0n);
    expect(m.balance('IF')).toBe(U('1250'));
    expect(m.clearing.lots()).toMatchObject([
      { qty: -U('1.5'), entry: U('90000'), bankruptcy: P('60000.0') },
    ]);
    // The fund keeps the lot (L_est 0); the offer at 60 500.0 goes and one at 60 800.0 takes the lot on the next mark.
    const offer = m.clearing.openOrders(3n).find((o) => o.price === P('60500.0'))!;
    m.ok((c) => c.cancel(3n, offer.id));
    m.ok(limit(3n, 'sell', '60800.0', '1.5'));
    m.ok(mark('59000.0'));
    expect(m.clearing.lots()).toEqual([]);
    expect(m.balance('IF')).toBe(U('50'));
  });

  it('T8 auto-deleveraging at BP, ranked A > B > C', () => {
    const m = Market.at({
      mark: '61000.0',
      insurance: '100',
      positions: [
        { user: 1n, qty: '-2', entry: '100000', margin: '20000' },
        { user: 11n, qty: '1', entry: '50000', margin: '10000' },
        { user: 12n, qty: '2', entry: '110000', margin: '55000', leverage: 2 },
        { user: 13n, qty: '0.5', entry: '32000', margin: '6400' },
        { user: 14n, qty: '-1.5', entry: '90000', margin: '30000' },
      ],
    });
    m.deposit(3n, U('20000'));
    m.ok(limit(3n, 'sell', '59900.0', '0.5'));
    m.ok(mark('61000.0'));
    expect(m.balance('IF')).toBe(U('150'));
    const adl = m.last.events.filter((e) => e.type === 'adl');
    expect(adl.map((e) => e.type === 'adl' && [e.userId, e.qty, e.price, e.pnl])).toEqual([
      [11n, U('1'), P('60000.0'), U('10000')],
      [12n, U('0.5'), P('60000.0'), U('2500')],
    ]);
    expect(m.avail(11n)).toBe(U('20000'));
    expect(m.avail(12n)).toBe(U('16250'));
    const b = m.clearing.position(12n)!;
    expect([b.qty, b.entry, b.margin]).toEqual([U('1.5'), U('82500'), U('41250')]);
    expect(m.clearing.position(13n)!.qty).toBe(U('0.5'));
    expect(m.clearing.lots()).toEqual([]);
  });

  it('T9 reduce-only orders: exact rounding, resting ones never above the position, lifetime profit exactly 8 800', () => {
    const m = Market.at({
      mark: '70000.0',
      positions: [
        { user: 1n, qty: '0.9', entry: '54600', margin: '10920' },
        { user: 2n, qty: '-0.9', entry: '54600', margin: '30000' },
      ],
    });
    m.deposit(3n, U('100000'));
    m.ok(limit(1n, 'sell', '70000.0', '0.5', { reduceOnly: true }));
    // §4b.2: resting reduce-only 0.5 + 0.6 would exceed the long of 0.9; 0.4 is what is left.
    expect(m.run(limit(1n, 'sell', '71000.0', '0.6', { reduceOnly: true })).error).toBe(
      'REDUCE_ONLY_EXCEEDS_POSITION',
    );
    m.ok(limit(1n, 'sell', '71000.0', '0.4', { reduceOnly: true }));
    expect(m.run(limit(1n, 'sell', '72000.0', '0.001', { reduceOnly: true })).error).toBe(
      'REDUCE_ONLY_EXCEEDS_POSITION',
    );
    m.ok(limit(3n, 'buy', '70000.0', '0.5'));
    const p = m.clearing.position(1n)!;
    expect(p.entry).toBe(5_460_000_000_000n - 3_033_333_333_333n);
    expect(m.avail(1n)).toBe(1_072_633_333_333n);
    const open = m.clearing.openOrders(1n);
    expect(open.map((o) => [o.price, o.qty - o.filledQty])).toEqual([[P('71000.0'), U('0.4')]]);
    m.ok(limit(3n, 'buy', '71000.0', '0.4'));
    expect(m.avail(1n)).toBe(1_072_633_333_333n + 898_098_666_667n);
    const flat = m.clearing.position(1n)!;
    expect([flat.qty, flat.entry, flat.margin]).toEqual([0n, 0n, 0n]);
    expect(flat.realised).toBe(U('8800') - 700_000_000n - 568_000_000n);
  });

  it('a position reduced by another order trims the resting reduce-only orders, farthest first', () => {
    const m = Market.at({
      mark: '70000.0',
      positions: [
        { user: 1n, qty: '0.9', entry: '54600', margin: '10920' },
        { user: 2n, qty: '-0.9', entry: '54600', margin: '30000' },
      ],
    });
    m.deposit(1n, U('10000'));
    m.deposit(3n, U('100000'));
    m.ok(limit(1n, 'sell', '70000.0', '0.5', { reduceOnly: true }));
    m.ok(limit(1n, 'sell', '71000.0', '0.4', { reduceOnly: true }));
    // A plain sell finds no room left to close: it rests as an opening order with a hold...
    const plain = m.ok(limit(1n, 'sell', '69000.0', '0.2'));
    expect(plain.value!.map((o) => [o.reduceOnly, o.qty, o.hold > 0n])).toEqual([[false, U('0.2'), true]]);
    // ...yet when it fills it nets against the long (one-way), and the farther reduce-only order gives way.
    m.ok(limit(3n, 'buy', '69000.0', '0.2'));
    expect(m.clearing.position(1n)!.qty).toBe(U('0.7'));
    expect(m.clearing.openOrders(1n).map((o) => [o.price, o.qty - o.filledQty])).toEqual([
      [P('70000.0'), U('0.5')],
      [P('71000.0'), U('0.2')],
    ]);
  });

  it('one sweep through a held sell and a reduce-only sell settles the reduce-only fill first: nothing opens without margin', () => {
    const m = Market.at({
      mark: '70000.0',
      positions: [
        { user: 1n, qty: '1', entry: '70000', margin: '14000' },
        { user: 2n, qty: '-1', entry: '70000', margin: '14000' },
      ],
    });
    m.deposit(1n, U('20000'));
    m.deposit(3n, U('100000'));
    m.ok(limit(1n, 'sell', '70100.0', '1', { reduceOnly: true }));
    m.ok(limit(1n, 'sell', '70000.0', '1'));
    const avail = m.avail(1n);
    m.ok(market(3n, 'buy', '2'));
    const p = m.clearing.position(1n)!;
    // Closed 1 at 70 100.0 (the reduce-only order), opened a short of 1 at 70 000.0 with the plain order's hold.
    expect([p.qty, p.entry, p.margin]).toEqual([-U('1'), U('70000'), U('14000')]);
    // Payout of the close (margin 14 000 + profit 100 − maker fee 14.02), then what the plain order's
    // hold (IM 14 000 + taker fee 35) leaves over the IM and maker fee 14 it paid.
    expect(m.avail(1n) - avail).toBe(U('14000') + U('100') - U('14.02') + U('21'));
    expect(m.clearing.openOrders(1n)).toEqual([]);
  });

  it('a close never fills past the bankruptcy price: a limit past it is refused, a market close stops at it', () => {
    // Long 1 @ 60 000.0, 5x: BP 48 000.0. Mark 50 000.0: the band reaches down to 47 500.0.
    const m = Market.at({
      mark: '50000.0',
      positions: [
        { user: 1n, qty: '1', entry: '60000', margin: '12000' },
        { user: 2n, qty: '-1', entry: '60000', margin: '30000' },
      ],
      insurance: '1000',
    });
    m.deposit(3n, U('100000'));
    for (const price of ['47500.0', '47999.9'])
      expect(m.run(limit(1n, 'sell', price, '1', { reduceOnly: true })).error).toBe('PRICE_PAST_BANKRUPTCY');
    m.ok(limit(3n, 'buy', '47600.0', '1'));
    const close = m.ok(market(1n, 'sell', '1', { reduceOnly: true }));
    expect(close.value!.map((o) => [o.price, o.status, o.filledQty])).toEqual([
      [P('48000.0'), 'expired', 0n],
    ]);
    expect(m.clearing.position(1n)!.qty).toBe(U('1'));
    // At the bankruptcy price itself the close pays out nothing, takes no fee it cannot cover, and
    // costs the fund nothing.
    m.ok(limit(1n, 'sell', '48000.0', '1', { reduceOnly: true }));
    m.ok(limit(3n, 'buy', '48000.0', '1'));
    expect(m.clearing.position(1n)!.qty).toBe(0n);
    expect(m.avail(1n)).toBe(0n);
    expect(m.clearing.figures.insurance).toBe(U('1000'));
  });

  it('T10 mark trigger: a stop on mark ignores last, fires on the truncated mark, is refused when it would fire', () => {
    const m = Market.at({
      mark: '62350.0',
      positions: [
        { user: 1n, qty: '0.9', entry: '54600', margin: '10920' },
        { user: 2n, qty: '-0.9', entry: '54600', margin: '30000' },
      ],
    });
    m.deposit(3n, U('100000'));
    m.deposit(4n, U('100000'));
    const stop = { kind: 'stop' as const, price: P('62000.0'), ref: 'mark' as const, closePosition: true };
    m.ok(market(1n, 'sell', '0', { trigger: stop }));
    m.ok(limit(3n, 'buy', '61900.0', '0.001'));
    m.ok(limit(4n, 'sell', '61900.0', '0.001'));
    expect(m.clearing.figures.last).toBe(P('61900.0'));
    expect(m.clearing.openOrders(1n)).toHaveLength(1);
    m.ok(limit(3n, 'buy', '61950.0', '1'));
    m.ok(mark('61999.9'));
    expect(m.clearing.position(1n)!.qty).toBe(0n);
    expect(
      m.last.events.filter((e) => e.type === 'trade').map((e) => e.type === 'trade' && e.trade.qty),
    ).toEqual([U('0.9')]);
    m.ok(mark('61990.0'));
    expect(m.run(market(2n, 'buy', '0', { trigger: { ...stop, kind: 'take_profit' } })).error).toBe(
      'TRIGGER_WOULD_FIRE',
    );
    expect(m.run(market(5n, 'sell', '0', { trigger: stop })).error).toBe('REDUCE_ONLY_REJECTED');
  });

  it('T11 re-tiering: liquidated at 45 918.3, not at 45 918.4', () => {
    const m = Market.at({
      mark: '60000.0',
      positions: [
        { user: 1n, qty: '5', entry: '300000', margin: '75000', leverage: 4 },
        { user: 2n, qty: '-5', entry: '300000', margin: '100000', leverage: 4 },
      ],
      insurance: '100000',
    });
    expect(liquidationPrice(m.clearing.spec, m.clearing.position(1n)!)).toBe(P('45918.3'));
    m.ok(mark('45918.4'));
    expect(m.clearing.position(1n)!.qty).toBe(U('5'));
    m.ok(mark('45918.3'));
    expect(m.clearing.position(1n)!.qty).toBe(0n);
  });

  it('a tier-2 position is first brought down to tier 1, and stays open when that restores its margin', () => {
    const m = Market.at({
      mark: '60000.0',
      positions: [
        { user: 1n, qty: '10', entry: '600000', margin: '150000', leverage: 4 },
        { user: 2n, qty: '-10', entry: '600000', margin: '600000', leverage: 1 },
      ],
      insurance: '100000',
    });
    m.deposit(3n, U('1000000'));
    m.ok(limit(3n, 'buy', '46000.0', '5'));
    const lp = liquidationPrice(m.clearing.spec, m.clearing.position(1n)!)!;
    m.ok((c) => c.mark(lp));
    const p = m.clearing.position(1n)!;
    // 250 000 / V(0.001, LP) lots stay; the rest went into the bid at 46 000.0, and no takeover
    expect(m.last.events.some((e) => e.type === 'liquidation')).toBe(false);
    const closed = m.last.events.flatMap((e) => (e.type === 'trade' ? [e.trade] : []));
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ price: P('46000.0'), takerUserId: 1n });
    expect(p.qty + closed[0]!.qty).toBe(U('10'));
    expect(p.qty).toBe(((250_000n * 100_000_000n * 1000n) / (lp * 10_000_000n)) * 100_000n);
    expect(isLiquidatable(m.clearing.spec, p, lp)).toBe(false);
  });

  it('T12 band: a limit past the band is refused, a market order stops at it', () => {
    const m = new Market();
    m.deposit(1n, U('100000'));
    m.deposit(2n, U('200000'));
    m.ok(mark('60000.0'));
    // why: 6 BTC offered is 381 000 USDT of notional: tier 3, at most 3x.
    expect(m.run(limit(2n, 'sell', '63500.0', '6')).error).toBe('RISK_LIMIT_EXCEEDED');
    m.ok((c) => c.setLeverage(2n, 3));
    expect(m.run(limit(1n, 'buy', '63000.1', '0.001')).error).toBe('PRICE_OUT_OF_BAND');
    expect(m.run(limit(1n, 'buy', '63000.0', '0.001')).error).toBeNull();
    m.ok((c) => c.cancel(1n, c.openOrders(1n)[0]!.id));
    m.ok(limit(2n, 'sell', '62000.0', '1'));
    m.ok(limit(2n, 'sell', '63500.0', '5'));
    const placed = m.ok(market(1n, 'buy', '2'));
    const order = m.last.orders.find((o) => o.id === placed.value![0]!.id)!;
    expect([order.filledQty, order.status, order.endReason]).toEqual([U('1'), 'expired', 'ioc']);
    expect(m.clearing.position(1n)!.qty).toBe(U('1'));
  });

  it('refuses a quantity past the bound of the book before any hold', () => {
    const m = new Market();
    m.deposit(1n, U('100000'));
    m.ok(mark('60000.0'));
    expect(m.run(limit(1n, 'buy', '60000.0', '1000000.001')).error).toBe('QTY_INVALID');
    expect(m.avail(1n)).toBe(U('100000'));
    expect(m.clearing.openOrders(1n)).toEqual([]);
  });

  it('T14 funding snapshot: a close before the event pays nothing, an open after it pays nothing', () => {
    const m = new Market();
    for (const u of [1n, 2n, 3n, 4n]) m.deposit(u, U('50000'));
    m.ok(mark('60000.0'));
    m.ok(limit(2n, 'sell', '60000.0', '1'));
    m.ok(market(1n, 'buy', '1'));
    m.ok(limit(3n, 'buy', '60000.0', '1'));
    m.ok(market(1n, 'sell', '1'));
    expect(m.clearing.position(1n)!.qty).toBe(0n);
    m.ok((c) => c.fund(10_000n, P('60000.0')));
    const paid = m.last.events.flatMap((e) => (e.type === 'funding' && e.userId !== null ? [e.userId] : []));
    expect(paid).toEqual([2n, 3n]);
    m.ok(limit(4n, 'sell', '60000.0', '1'));
    m.ok(market(1n, 'buy', '1'));
    expect(m.last.events.some((e) => e.type === 'funding')).toBe(false);
  });
});
