import { useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';

/** `GET /Issue/rewards`: the referral rewards the user's team earned them, newest first, 20 a page. */
export function useRewards() {
  return useInfiniteQuery({
    queryKey: ['invite', 'rewards'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Issue/rewards', { before: pageParam }, 'RewardList', { signal })).data,
    ...historyPages,
  });
}
