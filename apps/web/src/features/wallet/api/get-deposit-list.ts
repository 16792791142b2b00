import type { DepositList } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/czlist`: the user's deposits, newest first; `before` is the last id of the previous page. */
export async function getDepositList(before?: string, signal?: AbortSignal): Promise<DepositList> {
  return (await get('/Finance/czlist', { before }, 'DepositList', { signal, silent: true })).data;
}

export function depositListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...walletQueryKey, 'deposits'],
    queryFn: ({ pageParam, signal }) => getDepositList(pageParam, signal),
    ...historyPages,
  });
}

export function useDepositList() {
  return useInfiniteQuery(depositListQueryOptions());
}
