import { DepositList, type DepositRecord } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

export interface DepositListPage {
  list: DepositRecord[];
  page: number;
  has_more: boolean;
}

/** `GET /Finance/czlist`: the user's deposits, newest first, one page at a time. */
export async function getDepositList(page: number, signal?: AbortSignal): Promise<DepositListPage> {
  return (await get('/Finance/czlist', { page }, DepositList, { signal, silent: true })).data;
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
