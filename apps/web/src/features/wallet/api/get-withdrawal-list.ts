import type { WithdrawalList } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/txlist`: the user's withdrawals, newest first; `before` is the last id of the previous page. */
export async function getWithdrawalList(before?: string, signal?: AbortSignal): Promise<WithdrawalList> {
  return (await get('/Finance/txlist', { before }, 'WithdrawalList', { signal, silent: true })).data;
}

export function withdrawalListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...walletQueryKey, 'withdrawals'],
    queryFn: ({ pageParam, signal }) => getWithdrawalList(pageParam, signal),
    ...historyPages,
  });
}

export function useWithdrawalList() {
  return useInfiniteQuery(withdrawalListQueryOptions());
}
