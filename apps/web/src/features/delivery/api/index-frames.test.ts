import { IndexTick, KlineUpdate } from '@bourse/shared/api';
import { describe, expect, it } from 'vitest';
import { readIndexTick, readKlineUpdate } from './index-frames.ts';

const constituent = { source: 'binance', price: '96500.1', at: 1_700_000_000_000, used: true, reason: null };
const tick = { symbol: 'BTCUSDT', price: '96500.12000000', at: 1_700_000_000_123, source: 'median' };
const candle = { t: 1_700_000_000_000, o: '1', h: '2', l: '0.5', c: '1.5' };
const update = { symbol: 'BTCUSDT', interval: '1m', candle };

const TICKS: unknown[] = [
  tick,
  { ...tick, constituents: [] },
  {
    ...tick,
    constituents: [constituent, { ...constituent, price: null, at: null, used: false, reason: 'stale' }],
  },
  { ...tick, extra: 1, constituents: [{ ...constituent, extra: 'x' }] },
  { ...tick, constituents: [{ ...constituent, reason: 'unknown' }] },
  { ...tick, constituents: [{ ...constituent, used: 'yes' }] },
  { ...tick, constituents: {} },
  { ...tick, constituents: null },
  { ...tick, price: 96500 },
  { ...tick, at: '1700000000123' },
  { ...tick, at: Number.NaN },
  { ...tick, at: Number.POSITIVE_INFINITY },
  { ...tick, source: undefined },
  { symbol: 'BTCUSDT' },
  [tick],
  null,
  'tick',
  42,
  undefined,
];

const UPDATES: unknown[] = [
  update,
  { ...update, extra: true, candle: { ...candle, v: '10' } },
  ...['5m', '15m', '1h', '4h', '1d', '2m', '', 1].map((interval) => ({ ...update, interval })),
  { ...update, candle: { ...candle, t: '1' } },
  { ...update, candle: { ...candle, c: 1.5 } },
  { ...update, candle: null },
  { ...update, candle: [candle] },
  { ...update, symbol: 1 },
  [update],
  null,
  'update',
];

/** What the wire schema makes of a frame: the parsed value, or null when it refuses it. */
function bySchema(schema: { safeParse: (data: unknown) => { success: boolean; data?: unknown } }) {
  return (data: unknown) => {
    const parsed = schema.safeParse(data);
    return parsed.success ? parsed.data : null;
  };
}

describe('index channel frames', () => {
  it.each(TICKS.map((frame) => [JSON.stringify(frame) ?? String(frame), frame]))(
    'reads %s as IndexTick does',
    (_, frame) => {
      expect(readIndexTick(frame)).toEqual(bySchema(IndexTick)(frame));
    },
  );

  it.each(UPDATES.map((frame) => [JSON.stringify(frame) ?? String(frame), frame]))(
    'reads %s as KlineUpdate does',
    (_, frame) => {
      expect(readKlineUpdate(frame)).toEqual(bySchema(KlineUpdate)(frame));
    },
  );

  it('accepts the frames the schemas accept', () => {
    expect(readIndexTick(tick)).toEqual(tick);
    expect(readKlineUpdate(update)).toEqual(update);
  });
});
