import type { WithdrawPage } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/txpage`: networks with limits and fees, saved addresses and cards, the balance. */
export async function getWithdrawPage(coin: string, signal?: AbortSignal): Promise<WithdrawPage> {
  return (await get('/Finance/txpage', { coin }, 'WithdrawPage', { signal, silent: true })).data;
}

export function withdrawPageQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'withdraw-page', coin],
    queryFn: ({ signal }) => getWithdrawPage(coin, signal),
  });
}

export function useWithdrawPage(coin: string) {
  return useQuery(withdrawPageQueryOptions(coin));
}
