import { describe, expect, it } from 'vitest';
import {
  bookRows,
  completionWidth,
  estimateOrder,
  feePercent,
  floorToStep,
  hasLimitPrice,
  highestFee,
  isOnStep,
  isTriggerReached,
  isTriggerType,
  orderTotal,
  plainDecimal,
  sideDepth,
  sliderAmount,
  stepDecimals,
  triggerCondition,
} from './order-math.ts';

const base = { lotSize: '0.0001', feeRatio: '0.001', price: '' } as const;

describe('slider amounts', () => {
  it('sizes a limit buy so price × quantity plus the fee fits the share, on the lot size', () => {
    // 10,000 USDT at 50,000 with 0.1 %: a unit costs 50,050 → 0.19980019… → 0.1998
    expect(
      sliderAmount({ ...base, percent: 100, side: 'buy', type: 'limit', available: '10000', price: '50000' }),
    ).toEqual({ field: 'qty', value: '0.1998' });
    expect(
      sliderAmount({ ...base, percent: 25, side: 'buy', type: 'limit', available: '10000', price: '50000' }),
    ).toEqual({ field: 'qty', value: '0.0499' });
    // the hold of the filled-in quantity (price × qty plus 0.1 %) stays within the balance
    expect(orderTotal('50050', '0.1998')).toBe('9999.99000000');
  });

  it('rounds the cost of a unit up, so an exact fit is never an atom over', () => {
    // 1 unit at 3 with fee 0.00000001 costs 3.00000003; 3.00000002 does not buy one unit
    expect(
      sliderAmount({
        percent: 100,
        side: 'buy',
        type: 'limit',
        available: '3.00000002',
        price: '3',
        lotSize: '1',
        feeRatio: '0.00000001',
      }).value,
    ).toBe('');
  });

  it('spends a market buy share of the quote coin to the atom', () => {
    expect(
      sliderAmount({ ...base, percent: 50, side: 'buy', type: 'market', available: '123.45678901' }),
    ).toEqual({ field: 'quote_amount', value: '61.7283945' });
    expect(sliderAmount({ ...base, percent: 0, side: 'buy', type: 'market', available: '100' })).toEqual({
      field: 'quote_amount',
      value: '',
    });
  });

  it('sells a share of the base coin on the lot size', () => {
    expect(
      sliderAmount({ ...base, percent: 75, side: 'sell', type: 'limit', available: '0.12345678' }),
    ).toEqual({ field: 'qty', value: '0.0925' });
    expect(sliderAmount({ ...base, percent: 100, side: 'sell', type: 'market', available: '2' })).toEqual({
      field: 'qty',
      value: '2',
    });
    expect(sliderAmount({ ...base, percent: 25, side: 'sell', type: 'market', available: '0.0003' })).toEqual(
      {
        field: 'qty',
        value: '',
      },
    );
  });

  it('fills nothing for a limit buy without a price', () => {
    expect(sliderAmount({ ...base, percent: 50, side: 'buy', type: 'limit', available: '100' }).value).toBe(
      '',
    );
  });
});

describe('totals and fees', () => {
  it('multiplies price and quantity exactly', () => {
    expect(orderTotal('0.1', '0.2')).toBe('0.02000000');
    expect(orderTotal('67123.45', '0.0123')).toBe('825.61843500');
    expect(orderTotal('', '1')).toBe('0.00000000');
  });

  it('estimates a limit buy: total in quote, fee in base', () => {
    expect(
      estimateOrder({
        side: 'buy',
        type: 'limit',
        price: '50000',
        qty: '0.2',
        quoteAmount: '',
        referencePrice: null,
        feeRatio: '0.001',
      }),
    ).toEqual({ total: '10000.00000000', qty: '0.20000000', fee: '0.00020000' });
  });

  it('estimates a market buy by amount at the best ask, and a sell with its fee in quote', () => {
    expect(
      estimateOrder({
        side: 'buy',
        type: 'market',
        price: '',
        qty: '',
        quoteAmount: '100',
        referencePrice: '40000',
        feeRatio: '0.002',
      }),
    ).toEqual({ total: '100.00000000', qty: '0.00250000', fee: '0.00000500' });
    expect(
      estimateOrder({
        side: 'sell',
        type: 'market',
        price: '',
        qty: '0.5',
        quoteAmount: '',
        referencePrice: '40000',
        feeRatio: '0.002',
      }),
    ).toEqual({ total: '20000.00000000', qty: '0.50000000', fee: '40.00000000' });
  });

  it('takes the higher fee and writes ratios as percentages', () => {
    expect(highestFee('0.001', '0.002')).toBe('0.00200000');
    expect(highestFee('0.003', '0.002')).toBe('0.00300000');
    expect(feePercent('0.001')).toBe('0.10');
    expect(feePercent('0.0025')).toBe('0.25');
  });
});

describe('trigger orders', () => {
  it('tells the trigger types and the types with a limit price apart', () => {
    expect(
      ['limit', 'market', 'stop_limit', 'stop_market', 'take_profit'].map((t) => isTriggerType(t as 'limit')),
    ).toEqual([false, false, true, true, true]);
    expect(hasLimitPrice('limit')).toBe(true);
    expect(hasLimitPrice('stop_limit')).toBe(true);
    expect(hasLimitPrice('stop_market')).toBe(false);
    expect(hasLimitPrice('take_profit')).toBe(false);
  });

  it('derives the condition as the server does: a stop follows the move, a take-profit meets it', () => {
    expect(triggerCondition('stop_limit', 'buy')).toBe('gte');
    expect(triggerCondition('stop_market', 'buy')).toBe('gte');
    expect(triggerCondition('stop_limit', 'sell')).toBe('lte');
    expect(triggerCondition('stop_market', 'sell')).toBe('lte');
    expect(triggerCondition('take_profit', 'sell')).toBe('gte');
    expect(triggerCondition('take_profit', 'buy')).toBe('lte');
  });

  it('finds a trigger the last price has already reached, at the boundary too', () => {
    expect(isTriggerReached('gte', '95000.00000000', '95000')).toBe(true);
    expect(isTriggerReached('gte', '94999.99000000', '95000')).toBe(false);
    expect(isTriggerReached('lte', '95000.00000000', '95000')).toBe(true);
    expect(isTriggerReached('lte', '95000.01000000', '95000')).toBe(false);
    // unknown prices leave the decision to the server
    expect(isTriggerReached('gte', null, '95000')).toBe(false);
    expect(isTriggerReached('gte', '95000', '')).toBe(false);
  });

  it('estimates a stop-limit at its limit price and a stop-market at its trigger price', () => {
    expect(
      estimateOrder({
        side: 'buy',
        type: 'stop_limit',
        price: '50000',
        qty: '0.2',
        quoteAmount: '',
        referencePrice: '49000',
        feeRatio: '0.001',
      }),
    ).toEqual({ total: '10000.00000000', qty: '0.20000000', fee: '0.00020000' });
    expect(
      estimateOrder({
        side: 'buy',
        type: 'stop_market',
        price: '',
        qty: '',
        quoteAmount: '100',
        referencePrice: '40000',
        feeRatio: '0.002',
      }),
    ).toEqual({ total: '100.00000000', qty: '0.00250000', fee: '0.00000500' });
    expect(
      sliderAmount({ ...base, percent: 50, side: 'buy', type: 'take_profit', available: '100' }),
    ).toEqual({ field: 'quote_amount', value: '50' });
    expect(
      sliderAmount({
        ...base,
        percent: 100,
        side: 'buy',
        type: 'stop_limit',
        available: '10000',
        price: '50000',
      }),
    ).toEqual({ field: 'qty', value: '0.1998' });
  });
});

describe('steps', () => {
  it('checks and cuts values on the tick and lot size', () => {
    expect(isOnStep('100.25', '0.01')).toBe(true);
    expect(isOnStep('100.255', '0.01')).toBe(false);
    expect(isOnStep('0.0003', '0.0001')).toBe(true);
    expect(floorToStep(123_456_789n, 10_000n)).toBe(123_450_000n);
    expect(stepDecimals('0.01')).toBe(2);
    expect(stepDecimals('1.00000000')).toBe(0);
    expect(plainDecimal('10.50000000')).toBe('10.5');
  });
});

describe('completion and depth', () => {
  it('turns a completion degree into a bar width within 0–100', () => {
    expect(completionWidth('37.50')).toBe(37.5);
    expect(completionWidth('0.00')).toBe(0);
    expect(completionWidth('100.00')).toBe(100);
    expect(completionWidth('250')).toBe(100);
  });

  it('draws depth bars from running totals over the deeper side', () => {
    const bids = [
      ['99', '1'],
      ['98', '3'],
    ] as const;
    const asks = [
      ['101', '2'],
      ['102', '6'],
    ] as const;
    const deepest = [sideDepth(bids, 10), sideDepth(asks, 10)].reduce((a, b) => (a > b ? a : b));
    expect(deepest).toBe(800_000_000n);
    expect(bookRows(bids, 10, deepest).map((row) => row.depth)).toEqual([12.5, 50]);
    expect(bookRows(asks, 1, deepest)).toEqual([{ price: '101', qty: '2', depth: 25 }]);
  });
});
