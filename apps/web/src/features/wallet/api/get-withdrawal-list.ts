import { WithdrawalList, type WithdrawalRecord } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

export interface WithdrawalListPage {
  list: WithdrawalRecord[];
  page: number;
  has_more: boolean;
}

/** `GET /Finance/txlist`: the user's withdrawals, newest first, one page at a time. */
export async function getWithdrawalList(page: number, signal?: AbortSignal): Promise<WithdrawalListPage> {
  return (await get('/Finance/txlist', { page }, WithdrawalList, { signal, silent: true })).data;
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
