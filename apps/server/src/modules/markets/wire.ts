import { fromAtoms } from '@bourse/shared';
import type { IndexCandle, IndexTick, KlineUpdate } from '@bourse/shared/api';
import type { Candle, IndexValue } from './service.ts';

/** An index tick as the API and `/ws` show it: the price as a decimal string with 8 decimals. */
export function toIndexTick(value: IndexValue): IndexTick {
  return { symbol: value.symbol, price: fromAtoms(value.price), at: value.at, source: value.source };
}

export function toIndexCandle(candle: Candle): IndexCandle {
  return {
    t: candle.t,
    o: fromAtoms(candle.o),
    h: fromAtoms(candle.h),
    l: fromAtoms(candle.l),
    c: fromAtoms(candle.c),
  };
}

/** What the `kline:<symbol>:<interval>` channel pushes. */
export function toKlineUpdate(candle: Candle): KlineUpdate {
  return { symbol: candle.symbol, interval: candle.interval, candle: toIndexCandle(candle) };
}
