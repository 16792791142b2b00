import type { SpotOrderStatus } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';
import { mineKey } from './orders.ts';

// why: apart from orders.ts, so the trade page (open orders only) does not carry the infinite
// query's code; only the order list pages through history.

/**
 * `GET /Trade/tradebill`: the caller's orders in one state, newest first, 20 a page; each page
 * after the first is asked below the last id of the one before.
 */
export function orderHistoryQueryOptions(status: SpotOrderStatus) {
  return infiniteQueryOptions({
    queryKey: [...mineKey, 'history', status],
    queryFn: async ({ pageParam, signal }) =>
      (
        await get('/Trade/tradebill', { status, before: pageParam }, 'SpotOrderPage', {
          signal,
          silent: true,
        })
      ).data,
    ...historyPages,
    staleTime: 0,
  });
}

export function useOrderHistory(status: SpotOrderStatus) {
  return useInfiniteQuery(orderHistoryQueryOptions(status));
}
