import { useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** `GET /Perp/funding`: the caller's funding payments (negative paid, positive received), newest first. */
export function usePerpFunding() {
  return useInfiniteQuery({
    queryKey: [...perpMineKey, 'funding'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Perp/funding', { before: pageParam }, 'PerpFundingPage', { signal, silent: true })).data,
    ...historyPages,
    staleTime: 0,
  });
}
