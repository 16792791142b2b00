import { fromAtoms } from '@bourse/shared';
import type { IndexCandle, IndexConstituent, IndexTick, KlineUpdate } from '@bourse/shared/api';
import { toWireConstituent } from './constituents.ts';
import type { Candle, IndexValue } from './service.ts';

/**
 * An index tick as the API and `/ws` show it: prices as decimal strings with 8 decimals, with
 * every source's part in it.
 */
export function toIndexTick(value: IndexValue): IndexTick & { constituents: IndexConstituent[] } {
  return {
    symbol: value.symbol,
    price: fromAtoms(value.price),
    at: value.at,
    source: value.source,
    constituents: value.constituents.map(toWireConstituent),
  };
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
