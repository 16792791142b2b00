import type { DeliveryPage, IndexTick, KlineUpdate } from '@bourse/shared/api';
import { useQueryClient } from '@tanstack/react-query';
import { useChannel } from '../../../api/ws.ts';
import { deliveryPageQueryKey } from './get-delivery-page.ts';
import { readIndexTick, readKlineUpdate } from './index-frames.ts';

/**
 * The live index of one market (`index:<symbol>`: the latest tick, then every new one): each
 * tick replaces the market's price in the cached delivery page, so the page renders from one
 * source whether the price came by HTTP or WebSocket. A tick also means the index is fresh.
 */
export function useIndexStream(symbol: string): void {
  const queryClient = useQueryClient();
  useTickStream(symbol, (tick) => {
    queryClient.setQueryData<DeliveryPage>(deliveryPageQueryKey, (page) =>
      page
        ? {
            ...page,
            markets: page.markets.map((market) =>
              market.symbol === symbol && (!market.index || market.index.at <= tick.at)
                ? { ...market, index: tick, stale: false }
                : market,
            ),
          }
        : page,
    );
  });
}

/** Every live index tick of one market (`index:<symbol>`). */
export function useTickStream(symbol: string, onTick: (tick: IndexTick) => void): void {
  useChannel(`index:${symbol}`, (data) => {
    const tick = readIndexTick(data);
    if (tick && tick.symbol === symbol) onTick(tick);
  });
}

/** The live candles of one market and interval (`kline:<symbol>:<interval>`). */
export function useKlineStream(channel: string, onCandle: (update: KlineUpdate) => void): void {
  useChannel(channel, (data) => {
    const update = readKlineUpdate(data);
    if (update) onCandle(update);
  });
}
