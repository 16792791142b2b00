import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** `GET /Issue/rewards`: the referral rewards the user's team earned them, newest first, 20 a page. */
export function useRewards() {
  return useInfiniteQuery({
    queryKey: ['invite', 'rewards'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Issue/rewards', { page: pageParam }, 'RewardList', { signal })).data,
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.has_more ? page + 1 : undefined),
  });
}
