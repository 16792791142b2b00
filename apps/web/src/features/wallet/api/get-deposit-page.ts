import type { DepositPage } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/czpage`: a coin's deposit networks, each with the platform address and minimum. */
export async function getDepositPage(coin: string, signal?: AbortSignal): Promise<DepositPage> {
  return (await get('/Finance/czpage', { coin }, 'DepositPage', { signal, silent: true })).data;
}

export function depositPageQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'deposit-page', coin],
    queryFn: ({ signal }) => getDepositPage(coin, signal),
  });
}

export function useDepositPage(coin: string) {
  return useQuery(depositPageQueryOptions(coin));
}
