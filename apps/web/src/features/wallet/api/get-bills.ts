import type { BillList } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { fetchAhead, takeEarlyAnswer } from './early-answer.ts';
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
    queryFn: ({ pageParam, signal }) =>
      (pageParam === undefined ? takeEarlyAnswer<BillList>(`bills:${coin ?? ''}`) : undefined) ??
      getBills({ coin, before: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.list.at(-1)?.id : undefined),
  });
}

/** Starts the statement's first page as its module loads (see early-answer.ts). */
export function fetchBillsAhead(path: string): void {
  fetchAhead(
    path,
    (params) => `bills:${(params.get('coin') ?? '').toUpperCase()}`,
    (params) => getBills({ coin: (params.get('coin') ?? '').toUpperCase() || undefined }),
  );
}

export function useBills(coin?: string) {
  return useInfiniteQuery(billsQueryOptions(coin));
}
