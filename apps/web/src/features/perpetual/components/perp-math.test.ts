import type { PerpMarket, PerpPosition } from '@bourse/shared/api';
import { describe, expect, it } from 'vitest';
import {
  atomsOf,
  decimalOf,
  holdPriceTicks,
  liveFigures,
  marketSpec,
  maxRemovableMargin,
  percentText,
  plainDecimal,
  plainPercent,
  preTrade,
  priceTicks,
  ticksToPrice,
  triggerCondition,
} from './perp-math.ts';

/** BTC-USDT as perpetual.md §5 sets it: tick 0.1, lot 0.001, taker 0.05 %, maker 0.02 %, band 5 %. */
const BTC: PerpMarket = {
  symbol: 'BTC-USDT',
  base: 'BTC',
  quote: 'USDT',
  tick_size: '0.1',
  lot_size: '0.001',
  price_decimals: 1,
  qty_decimals: 3,
  maker_fee: '0.0002',
  taker_fee: '0.0005',
  band: '0.05',
  max_leverage: 5,
  tiers: [
    { max_notional: '250000', max_leverage: 5, mmr: '0.02', cum: '0' },
    { max_notional: '1000000', max_leverage: 4, mmr: '0.025', cum: '1250' },
    { max_notional: '3000000', max_leverage: 3, mmr: '0.05', cum: '26250' },
    { max_notional: '10000000', max_leverage: 2, mmr: '0.1', cum: '176250' },
    { max_notional: null, max_leverage: 1, mmr: '0.25', cum: '1676250' },
  ],
  funding_interval_hours: 8,
  funding_cap: '0.015',
  mark_clamp: '0.005',
  status: 'open',
  simulated: true,
};
const spec = marketSpec(BTC);

/** T1: long 1 BTC at 60 000.0, 5x: E = 60 000, M = IM = 12 000. */
const T1: PerpPosition = {
  symbol: 'BTC-USDT',
  side: 'long',
  qty: '1',
  entry_value: '60000',
  entry_price: '60000',
  mark: '60000',
  margin: '12000',
  leverage: 5,
  notional: '60000',
  maintenance_margin: '1200',
  unrealised_pnl: '0',
  roe: '0',
  liquidation_price: '48979.6',
  bankruptcy_price: '48000',
  realised_pnl: '0',
  stop_loss: null,
  take_profit: null,
};

const form = {
  spec,
  side: 'buy' as const,
  price: '',
  qty: '1',
  triggerPrice: '',
  mark: '60000.0',
  leverage: 5,
  position: null,
  isReduceOnly: false,
};

describe('decimals and atoms', () => {
  it('reads decimals as atoms and writes them back', () => {
    expect(atomsOf('60000.0')).toBe(6_000_000_000_000n);
    expect(atomsOf('0.00000001')).toBe(1n);
    expect(atomsOf('')).toBe(0n);
    expect(atomsOf('abc')).toBe(0n);
    expect(decimalOf(1_263_150_000_000n)).toBe('12631.50000000');
    expect(decimalOf(-300_000_000_000n)).toBe('-3000.00000000');
  });

  it('reads the market: tick and lot atoms, rates over RS, tiers', () => {
    expect(spec.tickAtoms).toBe(10_000_000n);
    expect(spec.lotAtoms).toBe(100_000n);
    expect(spec.takerRate).toBe(50_000n);
    expect(spec.makerRate).toBe(20_000n);
    expect(spec.bandRate).toBe(5_000_000n);
    expect(spec.tiers[1]).toEqual({
      maxNotional: 100_000_000_000_000n,
      maxLeverage: 4,
      mmr: 2_500_000n,
      cum: 125_000_000_000n,
    });
    expect(spec.tiers[4]?.maxNotional).toBeNull();
  });

  it('converts prices to ticks only on the grid', () => {
    expect(priceTicks(spec, '60000.0')).toBe(600_000n);
    expect(priceTicks(spec, '60000.05')).toBeNull();
    expect(priceTicks(spec, '0')).toBeNull();
    expect(ticksToPrice(spec, 630_000n)).toBe('63000.00000000');
  });

  it('trims trailing zeros for an input', () => {
    expect(plainDecimal('63000.10')).toBe('63000.1');
    expect(plainDecimal('5.00')).toBe('5');
    expect(plainDecimal('120')).toBe('120');
  });

  it('writes ratios as signed percentages with two decimals', () => {
    expect(percentText('0.25')).toBe('+25.00');
    expect(percentText('-0.0512')).toBe('-5.12');
    expect(percentText('0')).toBe('0.00');
    expect(plainPercent('0.5')).toBe('50.00');
    expect(plainPercent('0.0005', 4)).toBe('0.0500');
  });
});

describe('pre-trade figures (T1)', () => {
  it('a 1 BTC limit buy at 60 000.0, 5x: value 60 000, IM 12 000, fee 30, hold 12 030', () => {
    const figures = preTrade({ ...form, type: 'limit', price: '60000.0' });
    expect(figures.value).toBe('60000.00000000');
    expect(figures.initialMargin).toBe('12000.00000000');
    expect(figures.fee).toBe('30.00000000');
    expect(figures.hold).toBe('12030.00000000');
    // Long (E − M)/(Q(1 − MMR)) = 48 000/0.98 = 48 979.59…, floored to the tick.
    expect(figures.liquidationPrice).toBe('48979.50000000');
  });

  it('a market buy holds at the band price 63 000.0: 12 631.5', () => {
    expect(holdPriceTicks({ ...form, type: 'market' })).toBe(630_000n);
    const figures = preTrade({ ...form, type: 'market' });
    expect(figures.price).toBe('63000.00000000');
    expect(figures.value).toBe('63000.00000000');
    expect(figures.initialMargin).toBe('12600.00000000');
    expect(figures.fee).toBe('31.50000000');
    expect(figures.hold).toBe('12631.50000000');
  });

  it('a market sell holds at minSell 57 000.0', () => {
    const figures = preTrade({ ...form, side: 'sell', type: 'market' });
    expect(figures.price).toBe('57000.00000000');
    expect(figures.hold).toBe('11428.50000000');
  });

  it('an opposite order closes first and holds only for the rest', () => {
    const position = {
      qty: 100_000_000n,
      entry: 6_000_000_000_000n,
      margin: 1_200_000_000_000n,
      leverage: 5,
    };
    const close = preTrade({ ...form, side: 'sell', type: 'limit', price: '60000.0', position });
    expect(close.openingQty).toBe('0.00000000');
    expect(close.hold).toBe('0.00000000');
    expect(close.liquidationPrice).toBeNull();
    const flip = preTrade({ ...form, side: 'sell', type: 'limit', price: '60000.0', qty: '1.5', position });
    expect(flip.openingQty).toBe('0.50000000');
    expect(flip.initialMargin).toBe('6000.00000000');
    expect(flip.fee).toBe('15.00000000');
    expect(flip.hold).toBe('6015.00000000');
  });

  it('a reduce-only order holds nothing', () => {
    expect(preTrade({ ...form, type: 'limit', price: '60000.0', isReduceOnly: true }).hold).toBe(
      '0.00000000',
    );
  });

  it('answers nothing for a quantity off the lot or a missing price', () => {
    expect(preTrade({ ...form, type: 'limit', price: '60000.0', qty: '0.0001' }).hold).toBe('0');
    expect(preTrade({ ...form, type: 'market', mark: null }).hold).toBe('0');
  });
});

describe('live figures at the pushed mark (T1)', () => {
  it('at mark 63 000.0: uPnL 3 000 and ROE 25 %', () => {
    const live = liveFigures(spec, T1, '63000.0');
    expect(live.pnl).toBe('3000.00000000');
    expect(live.roe).toBe('0.25000000');
    expect(percentText(live.roe)).toBe('+25.00');
  });

  it('a short loses as the mark rises', () => {
    const live = liveFigures(spec, { ...T1, side: 'short' }, '63000.0');
    expect(live.pnl).toBe('-3000.00000000');
    expect(live.roe).toBe('-0.25000000');
  });

  it('keeps the server figures while no mark is known', () => {
    expect(liveFigures(spec, T1, null)).toEqual({ pnl: '0', roe: '0', mark: '60000' });
  });
});

describe('margin removal', () => {
  it('allows nothing at entry with M = IM, and the gain above IM once the mark rises', () => {
    expect(maxRemovableMargin(spec, T1, '60000.0')).toBe(0n);
    // At 63 000: base ⌈63 000/5⌉ = 12 600 > M, so still nothing.
    expect(maxRemovableMargin(spec, T1, '63000.0')).toBe(0n);
    expect(maxRemovableMargin(spec, { ...T1, margin: '13000' }, '60000.0')).toBe(100_000_000_000n);
  });
});

describe('trigger conditions', () => {
  it('stops buy on a rise and sell on a fall; take-profits the reverse', () => {
    expect(triggerCondition('stop_market', 'buy')).toBe('gte');
    expect(triggerCondition('stop_limit', 'sell')).toBe('lte');
    expect(triggerCondition('take_profit_market', 'buy')).toBe('lte');
    expect(triggerCondition('take_profit_limit', 'sell')).toBe('gte');
  });
});

describe('hold price of trigger orders', () => {
  it('a stop-market buy holds at the band above its trigger; a stop-limit at its limit price', () => {
    expect(holdPriceTicks({ ...form, type: 'stop_market', triggerPrice: '60000.0' })).toBe(630_000n);
    expect(
      holdPriceTicks({ ...form, side: 'sell', type: 'take_profit_market', triggerPrice: '60000.0' }),
    ).toBe(570_000n);
    expect(holdPriceTicks({ ...form, type: 'stop_limit', price: '61000.0', triggerPrice: '60000.0' })).toBe(
      610_000n,
    );
  });
});

describe('liquidation price of a new short (T1 mirrored)', () => {
  it('a 1 BTC limit sell at 60 000.0, 5x: (E + M)/(Q(1 + MMR)) = 72 000/1.02, ceiled to the tick', () => {
    const figures = preTrade({ ...form, side: 'sell', type: 'limit', price: '60000.0' });
    expect(figures.hold).toBe('12030.00000000');
    expect(figures.liquidationPrice).toBe('70588.30000000');
  });
});

describe('figures off the grid', () => {
  it('shows no pre-trade figures for a market without tiers or with a zero leverage', () => {
    const bare = { ...spec, tiers: [] };
    expect(preTrade({ ...form, spec: bare, type: 'limit', price: '60000.0' }).hold).toBe('0');
    expect(preTrade({ ...form, leverage: 0, type: 'limit', price: '60000.0' }).hold).toBe('0');
  });
});
