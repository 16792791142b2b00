import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** `GET /Perp/liquidations`: the caller's liquidations and auto-deleveraging records, newest first. */
export function usePerpLiquidations() {
  return useInfiniteQuery({
    queryKey: [...perpMineKey, 'liquidations'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Perp/liquidations', { page: pageParam }, 'PerpLiquidationPage', { signal, silent: true }))
        .data,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
    staleTime: 0,
  });
}
