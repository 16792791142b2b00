import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** `GET /Perp/liquidations`: the caller's liquidations and auto-deleveraging records, newest first. */
export function usePerpLiquidations() {
  return useInfiniteQuery({
    queryKey: [...perpMineKey, 'liquidations'],
    queryFn: async ({ pageParam, signal }) =>
      (
        await get('/Perp/liquidations', { before: pageParam }, 'PerpLiquidationPage', {
          signal,
          silent: true,
        })
      ).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.list.at(-1)?.id : undefined),
    staleTime: 0,
  });
}
