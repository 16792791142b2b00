import type { PerpOrderStatus } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** `GET /Perp/orders`: the caller's orders in one status, newest first, page by page. */
export function perpOrdersQueryOptions(status: PerpOrderStatus) {
  return infiniteQueryOptions({
    queryKey: [...perpMineKey, 'orders', status],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Perp/orders', { status, page: pageParam }, 'PerpOrderPage', { signal, silent: true }))
        .data,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
    staleTime: 0,
  });
}

export function usePerpOrders(status: PerpOrderStatus) {
  return useInfiniteQuery(perpOrdersQueryOptions(status));
}
