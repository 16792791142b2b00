import type { DepositPage } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { fetchAhead, takeEarlyAnswer } from './early-answer.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/czpage`: a coin's deposit networks, each with the platform address and minimum. */
export async function getDepositPage(coin: string, signal?: AbortSignal): Promise<DepositPage> {
  return (await get('/Finance/czpage', { coin }, 'DepositPage', { signal, silent: true })).data;
}

export function depositPageQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'deposit-page', coin],
    queryFn: ({ signal }) =>
      takeEarlyAnswer<DepositPage>(`deposit-page:${coin}`) ?? getDepositPage(coin, signal),
  });
}

/** Starts the deposit page's request as its module loads (see early-answer.ts). */
export function fetchDepositPageAhead(path: string): void {
  fetchAhead(
    path,
    (params) => `deposit-page:${(params.get('coin') ?? '').toUpperCase()}`,
    (params) => getDepositPage((params.get('coin') ?? '').toUpperCase()),
  );
}

export function useDepositPage(coin: string) {
  return useQuery(depositPageQueryOptions(coin));
}
