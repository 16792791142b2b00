import { useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
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
    ...historyPages,
    staleTime: 0,
  });
}
