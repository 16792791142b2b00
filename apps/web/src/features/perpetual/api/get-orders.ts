import type { PerpOrderStatus } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/**
 * `GET /Perp/orders`: the caller's orders in one status, newest first; each page after the first
 * is asked below the last id of the one before.
 */
export function perpOrdersQueryOptions(status: PerpOrderStatus) {
  return infiniteQueryOptions({
    queryKey: [...perpMineKey, 'orders', status],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Perp/orders', { status, before: pageParam }, 'PerpOrderPage', { signal, silent: true }))
        .data,
    ...historyPages,
    staleTime: 0,
  });
}

export function usePerpOrders(status: PerpOrderStatus) {
  return useInfiniteQuery(perpOrdersQueryOptions(status));
}
