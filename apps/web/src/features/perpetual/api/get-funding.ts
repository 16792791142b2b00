import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** `GET /Perp/funding`: the caller's funding payments (negative paid, positive received), newest first. */
export function usePerpFunding() {
  return useInfiniteQuery({
    queryKey: [...perpMineKey, 'funding'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Perp/funding', { before: pageParam }, 'PerpFundingPage', { signal, silent: true })).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.list.at(-1)?.id : undefined),
    staleTime: 0,
  });
}
