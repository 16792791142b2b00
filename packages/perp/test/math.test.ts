import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../shared/test/property-runs.ts';
import {
  type AdlCandidate,
  ATOMS,
  abs,
  accruedRate,
  averagePremium,
  bankruptcyPrice,
  ceilDiv,
  clamp,
  compareAdl,
  defaultTiers,
  demoSpec,
  equity,
  floorDiv,
  fundingPayment,
  fundingRate,
  impactBasis,
  impactPrices,
  initialMargin,
  isLiquidatable,
  leverageAllowed,
  liquidationPrice,
  liquidationPriceInTier,
  maintenanceMargin,
  marginRemovalAllowed,
  markBounds,
  markComponents,
  markPrice,
  maxMarkClamp,
  median3,
  orderHold,
  type PositionFigures,
  premiumIndex,
  priceBand,
  roeBps,
  tierOf,
  tradeFee,
  truncDiv,
  unrealisedPnl,
  value,
} from '../src/index.ts';

/** BTC as in the scenarios: tick 0.1 USDT, lot 0.001 BTC. */
const BTC = demoSpec('BTC-PERP', 10_000_000n, 100_000n);

/** A decimal string (USDT or base units) as atoms of 10^-8, exactly. */
const U = (s: string): bigint => {
  const m = /^(-?)(\d+)(?:\.(\d{1,8}))?$/.exec(s.replaceAll(' ', ''));
  if (!m) throw new Error(`not a decimal: ${s}`);
  const atoms = BigInt(m[2]) * ATOMS + BigInt((m[3] ?? '').padEnd(8, '0'));
  return m[1] === '-' ? -atoms : atoms;
};
/** A decimal USDT price as BTC ticks; throws when it is off the tick grid. */
const P = (s: string): bigint => {
  const atoms = U(s);
  if (atoms % BTC.tickAtoms !== 0n) throw new Error(`off tick: ${s}`);
  return atoms / BTC.tickAtoms;
};
/** A position from decimal strings; qty signed. */
const pos = (qty: string, entry: string, margin: string, leverage: number): PositionFigures => ({
  qty: U(qty),
  entry: U(entry),
  margin: U(margin),
  leverage,
});
const HOUR = 60 * 60 * 1000;

describe('integer helpers', () => {
  it('rounds signed quotients the right way', () => {
    expect(ceilDiv(7n, 2n)).toBe(4n);
    expect(ceilDiv(-7n, 2n)).toBe(-3n);
    expect(ceilDiv(6n, 2n)).toBe(3n);
    expect(floorDiv(7n, 2n)).toBe(3n);
    expect(floorDiv(-7n, 2n)).toBe(-4n);
    expect(floorDiv(-6n, 2n)).toBe(-3n);
    expect(truncDiv(-7n, 2n)).toBe(-3n);
    expect(ceilDiv(7n, -2n)).toBe(-3n);
    expect(floorDiv(7n, -2n)).toBe(-4n);
    expect(() => floorDiv(1n, 0n)).toThrow();
  });

  it('abs, clamp and median3', () => {
    expect(abs(-5n)).toBe(5n);
    expect(clamp(7n, -3n, 3n)).toBe(3n);
    expect(clamp(-7n, -3n, 3n)).toBe(-3n);
    expect(clamp(1n, -3n, 3n)).toBe(1n);
    expect(median3(3n, 1n, 2n)).toBe(2n);
    expect(median3(1n, 3n, 3n)).toBe(3n);
    expect(median3(5n, 1n, 9n)).toBe(5n);
  });

  it('ceil and floor identities hold for any a and b > 0', () => {
    fc.assert(
      fc.property(fc.bigInt(), fc.bigInt({ min: 1n, max: 10n ** 20n }), (a, b) => {
        const f = floorDiv(a, b);
        const c = ceilDiv(a, b);
        expect(f * b <= a && a < (f + 1n) * b).toBe(true);
        expect(c).toBe(-floorDiv(-a, b));
        expect(c - f).toBe(a % b === 0n ? 0n : 1n);
        expect(truncDiv(a, b)).toBe(a < 0n ? c : f);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('market parameters', () => {
  it('has the tier table of §1 with consistent maintenance amounts', () => {
    const tiers = defaultTiers();
    expect(tiers.map((t) => t.maxLeverage)).toEqual([5, 4, 3, 2, 1]);
    expect(tiers.map((t) => t.mmr)).toEqual([2_000_000n, 2_500_000n, 5_000_000n, 10_000_000n, 25_000_000n]);
    expect(tiers.map((t) => t.cum)).toEqual(['0', '1250', '26250', '176250', '1676250'].map(U));
    // why: cum_n = floor_n·ΔMMR + cum_{n−1} keeps MM continuous across each bound.
    for (let i = 1; i < tiers.length; i++) {
      const bound = tiers[i - 1].maxNotional!;
      expect(tiers[i].cum).toBe(
        (bound * (tiers[i].mmr - tiers[i - 1].mmr)) / 100_000_000n + tiers[i - 1].cum,
      );
    }
  });

  it('rejects a market whose values would not be exact', () => {
    expect(() => demoSpec('X', 10_000_000n, 1n)).toThrow();
    expect(BTC.takerRate).toBe(50_000n);
    expect(BTC.impactNotional).toBe(U('1000'));
  });

  it('tiers by notional and allows leverage only within the tier', () => {
    expect(tierOf(BTC, U('250000')).maxLeverage).toBe(5);
    expect(tierOf(BTC, U('250000.00000001')).maxLeverage).toBe(4);
    expect(tierOf(BTC, U('20000000')).maxLeverage).toBe(1);
    expect(maintenanceMargin(BTC, U('250000'))).toBe(U('5000'));
    expect(maintenanceMargin(BTC, U('1000000'))).toBe(U('23750'));
    expect(leverageAllowed(BTC, U('300000'), 4)).toBe(true);
    expect(leverageAllowed(BTC, U('300000'), 5)).toBe(false);
  });
});

describe('T1 open, T2 add, T3 partial close', () => {
  const t1 = pos('1', '60000', '12000', 5);

  it('T1: value, margin, fee and balance of the opening fill', () => {
    const v = value(BTC, U('1'), P('60000.0'));
    expect(v).toBe(6n * 10n ** 12n);
    expect(initialMargin(v, 5)).toBe(U('12000'));
    expect(tradeFee(v, BTC.takerRate)).toBe(U('30'));
    expect(U('20000') - initialMargin(v, 5) - tradeFee(v, BTC.takerRate)).toBe(U('7970'));
  });

  it('T1: LP 48 979.5 confirmed at the neighbouring tick; BP 48 000.0', () => {
    expect(liquidationPrice(BTC, t1)).toBe(P('48979.5'));
    expect(equity(BTC, t1, P('48979.5'))).toBe(U('979.5'));
    expect(maintenanceMargin(BTC, value(BTC, t1.qty, P('48979.5')))).toBe(U('979.59'));
    expect(isLiquidatable(BTC, t1, P('48979.5'))).toBe(true);
    expect(equity(BTC, t1, P('48979.6'))).toBe(U('979.6'));
    expect(maintenanceMargin(BTC, value(BTC, t1.qty, P('48979.6')))).toBe(U('979.592'));
    expect(isLiquidatable(BTC, t1, P('48979.6'))).toBe(false);
    expect(bankruptcyPrice(BTC, t1)).toBe(P('48000.0'));
  });

  it('T1: at mark 63 000.0 uPnL 3 000 and ROE 2 500 bps', () => {
    expect(unrealisedPnl(BTC, t1, P('63000.0'))).toBe(U('3000'));
    expect(roeBps(BTC, t1, P('63000.0'))).toBe(2_500n);
  });

  it('T2: a maker add of 0.5 @ 62 000.0; LP 49 523.8, BP 48 533.4', () => {
    const v = value(BTC, U('0.5'), P('62000.0'));
    expect(initialMargin(v, 5)).toBe(U('6200'));
    expect(tradeFee(v, BTC.makerRate)).toBe(U('6.2'));
    expect(U('7970') - U('6200') - U('6.2')).toBe(U('1763.8'));
    const t2 = pos('1.5', '91000', '18200', 5);
    expect(t1.entry + v).toBe(t2.entry);
    expect(liquidationPrice(BTC, t2)).toBe(P('49523.8'));
    expect(isLiquidatable(BTC, t2, P('49523.9'))).toBe(false);
    expect(bankruptcyPrice(BTC, t2)).toBe(P('48533.4'));
  });

  it('T3: a taker sell of 0.6 @ 65 000.0 leaves LP 49 523.8', () => {
    const t2 = pos('1.5', '91000', '18200', 5);
    const c = U('0.6');
    const v = value(BTC, c, P('65000.0'));
    const eRel = floorDiv(t2.entry * c, t2.qty);
    const mRel = floorDiv(t2.margin * c, t2.qty);
    const pnl = v - eRel;
    const fee = tradeFee(v, BTC.takerRate);
    expect([eRel, pnl, mRel, fee]).toEqual([U('36400'), U('2600'), U('7280'), U('19.5')]);
    expect(mRel + pnl - fee).toBe(U('9860.5'));
    expect(U('1763.8') + mRel + pnl - fee).toBe(U('11624.3'));
    const t3 = pos('0.9', '54600', '10920', 5);
    expect(t2.entry - eRel).toBe(t3.entry);
    expect(t2.margin - mRel).toBe(t3.margin);
    expect(liquidationPrice(BTC, t3)).toBe(P('49523.8'));
  });
});

describe('T4, T5 funding payments', () => {
  it('T4: 0.9 long at mark 64 000.0 and F 0.01 % pays 5.76', () => {
    const { pay, receive } = fundingPayment(BTC, U('0.9'), P('64000.0'), 10_000n);
    expect(pay).toBe(U('5.76'));
    expect(receive).toBe(U('5.76'));
    expect(U('10920') - pay).toBe(U('10914.24'));
  });

  it('T5: 0.003 at 64 000.1 and F 12 346: payer rounds up, receiver down, 1 atom to the fund', () => {
    expect(value(BTC, U('0.003'), P('64000.1'))).toBe(19_200_030_000n);
    for (const rate of [12_346n, -12_346n]) {
      const { pay, receive } = fundingPayment(BTC, U('-0.003'), P('64000.1'), rate);
      expect(pay).toBe(2_370_436n);
      expect(receive).toBe(2_370_435n);
      expect(pay - receive).toBe(1n);
    }
  });
});

describe('T6 and T7 liquidation figures', () => {
  it('T6: T1 at mark 48 950.0 is taken over at BP; the IOC limit is max(BP, minSell)', () => {
    const t1 = pos('1', '60000', '12000', 5);
    const mark = P('48950.0');
    expect(isLiquidatable(BTC, t1, mark)).toBe(true);
    const bp = bankruptcyPrice(BTC, t1);
    const pnl = value(BTC, t1.qty, bp) - t1.entry;
    expect(pnl).toBe(U('-12000'));
    expect(t1.margin + pnl).toBe(0n);
    const { minSell } = priceBand(BTC, mark);
    expect(minSell).toBe(P('46502.5'));
    expect(bp > minSell ? bp : minSell).toBe(P('48000.0'));
    const fills = value(BTC, U('0.6'), P('48940')) + value(BTC, U('0.4'), P('48900'));
    expect(fills).toBe(U('48924'));
    expect(fills - value(BTC, t1.qty, bp)).toBe(U('924'));
  });

  it('T7: short 2 @ 50 000.0: LP 58 823.6 confirmed at 58 823.5, BP 60 000.0, IOC limit 60 000.0', () => {
    const t7 = pos('-2', '100000', '20000', 5);
    expect(initialMargin(t7.entry, 5)).toBe(t7.margin);
    expect(liquidationPrice(BTC, t7)).toBe(P('58823.6'));
    expect(isLiquidatable(BTC, t7, P('58823.6'))).toBe(true);
    expect(equity(BTC, t7, P('58823.5'))).toBe(U('2353'));
    expect(maintenanceMargin(BTC, value(BTC, t7.qty, P('58823.5')))).toBe(U('2352.94'));
    expect(isLiquidatable(BTC, t7, P('58823.5'))).toBe(false);
    const bp = bankruptcyPrice(BTC, t7);
    expect(bp).toBe(P('60000.0'));
    const mark = P('58900.0');
    expect(isLiquidatable(BTC, t7, mark)).toBe(true);
    const { maxBuy } = priceBand(BTC, mark);
    expect(maxBuy).toBe(P('61845.0'));
    expect(bp < maxBuy ? bp : maxBuy).toBe(P('60000.0'));
  });

  it('T7: the fund lot gains 250 on 0.5 @ 59 500, keeps 1.5 at L_est 0, loses 1 200 unwinding', () => {
    const lotEntry = value(BTC, U('2'), P('60000.0'));
    const eRel = floorDiv(lotEntry * U('0.5'), U('2'));
    expect(-(value(BTC, U('0.5'), P('59500')) - eRel)).toBe(U('250'));
    const lot = { qty: U('-1.5'), entry: lotEntry - eRel };
    expect(lot.entry).toBe(U('90000'));
    const lEst = -unrealisedPnl(BTC, lot, P('58900.0'));
    expect(lEst < 0n ? 0n : lEst).toBe(0n);
    expect(unrealisedPnl(BTC, lot, P('60800.0'))).toBe(U('-1200'));
  });
});

describe('T8 ADL ranking', () => {
  const mark = P('61000.0');
  const candidate = (id: bigint, p: PositionFigures): AdlCandidate => ({
    id,
    upnl: unrealisedPnl(BTC, p, mark),
    notional: value(BTC, p.qty, mark),
    entry: p.entry,
    equity: equity(BTC, p, mark),
  });
  const a = candidate(1n, pos('1', '50000', '10000', 5));
  const b = candidate(2n, pos('2', '110000', '55000', 2));
  const c = candidate(3n, pos('0.5', '32000', '6400', 5));
  /** The score rounded half away from zero to 5 decimals, as the scenario prints it. */
  const score5 = (x: AdlCandidate): string => {
    const [num, den] =
      x.upnl > 0n ? [x.upnl * x.notional, x.entry * x.equity] : [x.upnl * x.equity, x.entry * x.notional];
    const scaled = (abs(num) * 200_000n + den) / (2n * den);
    const text = scaled.toString().padStart(6, '0');
    return `${num < 0n ? '-' : ''}${text.slice(0, -5)}.${text.slice(-5)}`;
  };

  it('scores A 0.63905 > B 0.19864 > C −0.00753', () => {
    expect([a, b, c].map(score5)).toEqual(['0.63905', '0.19864', '-0.00753']);
    expect([c, a, b].sort(compareAdl).map((x) => x.id)).toEqual([1n, 2n, 3n]);
    expect([b, c, a].sort(compareAdl).map((x) => x.id)).toEqual([1n, 2n, 3n]);
  });

  it('ties rank the lower id first; a negative denominator keeps the order exact', () => {
    expect(compareAdl({ ...a, id: 9n }, a)).toBe(1);
    expect(compareAdl(a, { ...a, id: 9n })).toBe(-1);
    // x: 1·10/(1·−2) = −5; y: −1·1/(1·1) = −1, so y ranks first.
    const x = { upnl: 1n, notional: 10n, entry: 1n, equity: -2n, id: 5n };
    const y = { upnl: -1n, notional: 1n, entry: 1n, equity: 1n, id: 6n };
    expect(compareAdl(x, y)).toBe(1);
    expect(compareAdl(y, x)).toBe(-1);
  });

  it('the lot under ADL: fund +50, L_est 1 500; A and B close at BP', () => {
    const lotEntry = value(BTC, U('2'), P('60000.0'));
    const eRel = floorDiv(lotEntry * U('0.5'), U('2'));
    expect(-(value(BTC, U('0.5'), P('59900')) - eRel)).toBe(U('50'));
    expect(-unrealisedPnl(BTC, { qty: U('-1.5'), entry: lotEntry - eRel }, mark)).toBe(U('1500'));
    const bp = P('60000.0');
    expect(U('10000') + value(BTC, U('1'), bp) - U('50000')).toBe(U('20000'));
    const bEntryRel = floorDiv(U('110000') * U('0.5'), U('2'));
    const bPnl = value(BTC, U('0.5'), bp) - bEntryRel;
    expect([bEntryRel, bPnl]).toEqual([U('27500'), U('2500')]);
    expect(floorDiv(U('55000') * U('0.5'), U('2')) + bPnl).toBe(U('16250'));
  });
});

describe('T11 re-tier at the liquidation price', () => {
  const t11 = pos('5', '300000', '75000', 4);

  it('the tier-2 LP 45 897.4 has N 229 487 in tier 1, so the LP is 45 918.3', () => {
    const tier2 = tierOf(BTC, t11.entry);
    expect(tier2.maxLeverage).toBe(4);
    const lp2 = liquidationPriceInTier(BTC, t11, tier2);
    expect(lp2).toBe(P('45897.4'));
    expect(value(BTC, t11.qty, lp2)).toBe(U('229487'));
    expect(tierOf(BTC, U('229487')).maxLeverage).toBe(5);
    expect(liquidationPrice(BTC, t11)).toBe(P('45918.3'));
  });

  it('confirms the LP at 45 918.3 and the neighbouring tick 45 918.4', () => {
    expect(equity(BTC, t11, P('45918.3'))).toBe(U('4591.5'));
    expect(maintenanceMargin(BTC, value(BTC, t11.qty, P('45918.3')))).toBe(U('4591.83'));
    expect(isLiquidatable(BTC, t11, P('45918.3'))).toBe(true);
    expect(equity(BTC, t11, P('45918.4'))).toBe(U('4592'));
    expect(maintenanceMargin(BTC, value(BTC, t11.qty, P('45918.4')))).toBe(U('4591.84'));
    expect(isLiquidatable(BTC, t11, P('45918.4'))).toBe(false);
  });
});

describe('T12 band and order hold', () => {
  it('at mark 60 000.0 a buy may go up to 63 000.0, not 63 000.1', () => {
    const { maxBuy, minSell } = priceBand(BTC, P('60000.0'));
    expect(maxBuy).toBe(P('63000.0'));
    expect(P('63000.1') > maxBuy).toBe(true);
    expect(minSell).toBe(P('57000.0'));
  });

  it('holds IM plus the taker fee for the opening quantity', () => {
    expect(orderHold(BTC, U('0.5'), P('62000.0'), 5)).toBe(U('6215.5'));
    // V 10 000 atoms: IM ⌈3 333.3…⌉ = 3 334, fee 5.
    expect(orderHold(BTC, U('0.001'), P('0.1'), 3)).toBe(3_339n);
  });
});

describe('T13 funding rate and mark', () => {
  it('averages premiums with weights 1..n and clamps the rate', () => {
    expect(
      averagePremium([
        [1n, 10_000n],
        [2n, 40_000n],
      ]),
    ).toBe(30_000n);
    expect(averagePremium([])).toBe(0n);
    expect(
      averagePremium([
        [1n, -1n],
        [2n, -1n],
      ]),
    ).toBe(-1n);
    // §4b.6: a missing minute keeps the later ones at their own weight (3, not 2).
    expect(
      averagePremium([
        [1n, 10_000n],
        [3n, 50_000n],
      ]),
    ).toBe(40_000n);
    expect(() => averagePremium([[0n, 1n]])).toThrow(RangeError);
    expect(accruedRate(10_000n, 240n, 480n)).toBe(5_000n);
    expect(accruedRate(-10_001n, 1n, 480n)).toBe(-20n);
    expect(accruedRate(10_000n, 0n, 480n)).toBe(0n);
    expect(accruedRate(10_000n, 500n, 480n)).toBe(10_000n);
    expect(fundingRate(BTC, 30_000n)).toBe(10_000n);
    expect(fundingRate(BTC, 100_000n)).toBe(50_000n);
    expect(fundingRate(BTC, 2_000_000n)).toBe(1_500_000n);
    expect(fundingRate(BTC, -2_000_000n)).toBe(-1_500_000n);
    expect(fundingRate(BTC, -30_000n)).toBe(10_000n);
    expect(fundingRate(BTC, -60_000n)).toBe(-10_000n);
  });

  it('P1 60 001.5, P2 60 012.3, last 60 005.0 → mark 60 005.0', () => {
    const input = {
      index: U('60000'),
      lastRate: 10_000n,
      msToFunding: 2 * HOUR,
      basisAverage: U('12.3'),
      last: P('60005.0'),
    };
    expect(markComponents(BTC, input)).toEqual({ p1: U('60001.5'), p2: U('60012.3') });
    expect(markPrice(BTC, input)).toBe(P('60005.0'));
  });

  it('drops a missing component: two → mean (truncated to a tick), index only → index', () => {
    const base = { index: U('60000.04'), lastRate: 10_000n, msToFunding: 2 * HOUR };
    // P1 = 60 000.04·1.000025 = 60 001.54000100 atoms (floored); P2 60 012.34.
    expect(markPrice(BTC, { ...base, basisAverage: U('12.3'), last: null })).toBe(P('60006.9'));
    expect(markPrice(BTC, { ...base, basisAverage: null, last: P('60005.0') })).toBe(P('60003.2'));
    expect(markPrice(BTC, { ...base, basisAverage: null, last: null })).toBe(P('60000.0'));
  });

  it('holds the mark within I·(1 ± c) whatever last and the basis say (§4b.1)', () => {
    const base = { index: U('60000'), lastRate: 0n, msToFunding: 2 * HOUR };
    // c = 0.5 %: 59 700.0 … 60 300.0.
    expect(markBounds(BTC, U('60000'))).toEqual({ low: P('59700.0'), high: P('60300.0') });
    // A last 40 % under a flat index, and a basis dragged with it: the mark stops at the bound.
    expect(markPrice(BTC, { ...base, basisAverage: -U('24000'), last: P('36000.0') })).toBe(P('59700.0'));
    expect(markPrice(BTC, { ...base, basisAverage: null, last: P('36000.0') })).toBe(P('59700.0'));
    expect(markPrice(BTC, { ...base, basisAverage: U('9000'), last: P('90000.0') })).toBe(P('60300.0'));
    // Within the band the median is untouched.
    expect(markPrice(BTC, { ...base, basisAverage: U('100'), last: P('60200.0') })).toBe(P('60100.0'));
    // A bound that is not a whole tick: the tick inside it, never a fraction outside.
    expect(markBounds(BTC, U('60000.05'))).toEqual({ low: P('59700.1'), high: P('60300.0') });
    // A clamp narrower than a tick: the tick at or below the index.
    expect(markBounds({ ...BTC, markClamp: 1n }, U('60000.05'))).toEqual({
      low: P('60000.0'),
      high: P('60000.0'),
    });
    expect(maxMarkClamp(BTC.tiers)).toBe(500_000n);
  });

  it('an impact basis needs both sides to absorb the impact notional', () => {
    expect(impactBasis(U('60000'), { bid: U('59990'), ask: U('60020') })).toBe(U('5'));
    expect(impactBasis(U('60000'), { bid: null, ask: U('60020') })).toBeNull();
    expect(impactBasis(U('60000'), { bid: U('59990'), ask: null })).toBeNull();
  });

  it('premium index from impact prices; a side that cannot absorb the notional gives null', () => {
    const index = U('60000');
    expect(premiumIndex(index, U('60060'), U('60070'))).toBe(100_000n);
    expect(premiumIndex(index, U('59900'), U('59940'))).toBe(-100_000n);
    expect(premiumIndex(index, null, null)).toBe(0n);
    expect(premiumIndex(index, U('59990'), U('60010'))).toBe(0n);
    // 0.01 @ 60 000 = 600, then 0.01 @ 59 000 absorbs the rest, 400 (0.00677966… BTC).
    const bids = [
      [P('60000'), U('0.01')],
      [P('59000'), U('0.01')],
    ] as const;
    const asks = [[P('61000'), U('0.01')]] as const;
    const { bid, ask } = impactPrices(BTC, bids, asks);
    // 1 000 USDT over 0.01 + 400/59 000 BTC = 59 000 000/990 = 59 595.95959595|95… USDT
    expect(bid).toBe(5_959_595_959_595n);
    expect(ask).toBeNull();
    expect(impactPrices(BTC, [[P('50000'), U('0.02')]], []).bid).toBe(U('50000'));
  });
});

describe('margin removal and edge cases', () => {
  it('removal keeps M′ ≥ ⌈max(E, N_m)/L⌉ and M′ + uPnL > MM', () => {
    const t1 = pos('1', '60000', '12000', 5);
    expect(marginRemovalAllowed(BTC, t1, P('63000.0'), U('12600'))).toBe(true);
    expect(marginRemovalAllowed(BTC, t1, P('63000.0'), U('12599.99999999'))).toBe(false);
    expect(marginRemovalAllowed(BTC, t1, P('55000.0'), U('12000'))).toBe(true);
    expect(marginRemovalAllowed(BTC, t1, P('55000.0'), U('11999'))).toBe(false);
    const low = { ...t1, leverage: 1, margin: U('60000') };
    expect(marginRemovalAllowed(BTC, low, P('10.0'), U('60000'))).toBe(true);
  });

  it('a 1x long whose margin covers the entry has no liquidation price and BP 0', () => {
    const p = pos('1', '60000', '60000', 1);
    expect(liquidationPrice(BTC, p)).toBeNull();
    expect(bankruptcyPrice(BTC, p)).toBe(0n);
    expect(isLiquidatable(BTC, p, 1n)).toBe(false);
  });

  it('a flat position is never liquidatable and has no LP', () => {
    const flat = pos('0', '0', '0', 5);
    expect(liquidationPrice(BTC, flat)).toBeNull();
    expect(isLiquidatable(BTC, flat, P('1'))).toBe(false);
    expect(unrealisedPnl(BTC, flat, P('1'))).toBe(0n);
  });

  it('refuses an inexact value and a bad leverage', () => {
    expect(() => value(BTC, 1n, 3n)).toThrow();
    expect(() => initialMargin(100n, 0)).toThrow();
    expect(() => initialMargin(100n, 2.5)).toThrow();
  });
});

describe('properties', () => {
  const position = fc
    .record({
      lots: fc.bigInt({ min: 1n, max: 2_000_000n }),
      entryTicks: fc.bigInt({ min: 10_000n, max: 2_000_000n }),
      leverage: fc.integer({ min: 1, max: 5 }),
      extraBps: fc.bigInt({ min: 0n, max: 5_000n }),
      isLong: fc.boolean(),
    })
    .map(({ lots, entryTicks, leverage, extraBps, isLong }) => {
      const q = lots * BTC.lotAtoms;
      const entry = value(BTC, q, entryTicks);
      const margin = initialMargin(entry, leverage) + (entry * extraBps) / 10_000n;
      return { qty: isLong ? q : -q, entry, margin, leverage } satisfies PositionFigures;
    });

  it('the LP is the last liquidatable tick: liquidatable at LP, not one tick outward', () => {
    fc.assert(
      fc.property(position, (p) => {
        const lp = liquidationPrice(BTC, p);
        if (lp === null) {
          expect(p.qty > 0n && isLiquidatable(BTC, p, 1n)).toBe(false);
          return;
        }
        expect(isLiquidatable(BTC, p, lp)).toBe(true);
        expect(isLiquidatable(BTC, p, p.qty > 0n ? lp + 1n : lp - 1n)).toBe(false);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('the LP equals a plain search of the trigger over ticks, in every tier', () => {
    /** The boundary of the liquidatable ticks by bisection; Eq − MM is monotone in the price. */
    const searchLp = (p: PositionFigures): bigint | null => {
      const liquidatable = (t: bigint) => isLiquidatable(BTC, p, t);
      let lo = 0n;
      let hi = 4n * ceilDiv(p.entry * ATOMS, abs(p.qty) * BTC.tickAtoms) + 1n;
      if (p.qty > 0n) {
        // invariant: liquidatable(lo) or lo = 0; not liquidatable(hi)
        while (hi - lo > 1n) {
          const mid = (lo + hi) / 2n;
          if (liquidatable(mid)) lo = mid;
          else hi = mid;
        }
        return lo >= 1n && liquidatable(lo) ? lo : null;
      }
      // invariant: not liquidatable(lo); liquidatable(hi)
      while (hi - lo > 1n) {
        const mid = (lo + hi) / 2n;
        if (liquidatable(mid)) hi = mid;
        else lo = mid;
      }
      return hi;
    };
    fc.assert(
      fc.property(position, (p) => {
        expect(liquidationPrice(BTC, p)).toBe(searchLp(p));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('the band holds the mark: maxBuy ≥ mark ≥ minSell', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (mark) => {
        const { maxBuy, minSell } = priceBand(BTC, mark);
        expect(maxBuy >= mark && mark >= minSell).toBe(true);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('funding: the payer pays at most one atom more than the receiver gets', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 7n }),
        fc.bigInt({ min: 1n, max: 10n ** 7n }),
        fc.bigInt({ min: -1_500_000n, max: 1_500_000n }),
        (lots, mark, rate) => {
          const { pay, receive } = fundingPayment(BTC, lots * BTC.lotAtoms, mark, rate);
          expect(pay - receive === 0n || pay - receive === 1n).toBe(true);
          expect(receive >= 0n).toBe(true);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
});
