import type { WithdrawPage } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { fetchAhead, takeEarlyAnswer } from './early-answer.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/txpage`: networks with limits and fees, saved addresses and cards, the balance. */
export async function getWithdrawPage(coin: string, signal?: AbortSignal): Promise<WithdrawPage> {
  return (await get('/Finance/txpage', { coin }, 'WithdrawPage', { signal, silent: true })).data;
}

export function withdrawPageQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'withdraw-page', coin],
    queryFn: ({ signal }) =>
      takeEarlyAnswer<WithdrawPage>(`withdraw-page:${coin}`) ?? getWithdrawPage(coin, signal),
  });
}

/** Starts the withdrawal page's request as its module loads (see early-answer.ts). */
export function fetchWithdrawPageAhead(path: string): void {
  fetchAhead(
    path,
    (params) => `withdraw-page:${(params.get('coin') ?? '').toUpperCase()}`,
    (params) => getWithdrawPage((params.get('coin') ?? '').toUpperCase()),
  );
}

export function useWithdrawPage(coin: string) {
  return useQuery(withdrawPageQueryOptions(coin));
}
