import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** `GET /user/tgcode`: the caller's code, counts per generation and one generation's members, 20 a page. */
export function useTeam(generation: number) {
  return useInfiniteQuery({
    queryKey: ['invite', 'team', generation],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/user/tgcode', { generation, page: pageParam }, 'TeamInfo', { signal })).data,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}
