import type { DepositList } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/czlist`: the user's deposits, newest first, one page at a time. */
export async function getDepositList(page: number, signal?: AbortSignal): Promise<DepositList> {
  return (await get('/Finance/czlist', { page }, 'DepositList', { signal, silent: true })).data;
}

export function depositListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...walletQueryKey, 'deposits'],
    queryFn: ({ pageParam, signal }) => getDepositList(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}

export function useDepositList() {
  return useInfiniteQuery(depositListQueryOptions());
}
