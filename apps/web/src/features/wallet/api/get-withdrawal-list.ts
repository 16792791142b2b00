import type { WithdrawalList } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/txlist`: the user's withdrawals, newest first, one page at a time. */
export async function getWithdrawalList(page: number, signal?: AbortSignal): Promise<WithdrawalList> {
  return (await get('/Finance/txlist', { page }, 'WithdrawalList', { signal, silent: true })).data;
}

export function withdrawalListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...walletQueryKey, 'withdrawals'],
    queryFn: ({ pageParam, signal }) => getWithdrawalList(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}

export function useWithdrawalList() {
  return useInfiniteQuery(withdrawalListQueryOptions());
}
