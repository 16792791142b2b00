import type { BillList } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /user/mybill`: the statement, newest first; `before` is the last id of the previous page. */
export async function getBills(
  options: { coin?: string; before?: string },
  signal?: AbortSignal,
): Promise<BillList> {
  return (await get('/user/mybill', options, 'BillList', { signal, silent: true })).data;
}

export function billsQueryOptions(coin?: string) {
  return infiniteQueryOptions({
    queryKey: [...walletQueryKey, 'bills', coin ?? ''],
    queryFn: ({ pageParam, signal }) => getBills({ coin, before: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.list.at(-1)?.id : undefined),
  });
}

export function useBills(coin?: string) {
  return useInfiniteQuery(billsQueryOptions(coin));
}
