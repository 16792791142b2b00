import type { CoinBalance } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `POST /Finance/getcoinnum`: the amount of a coin available to the form being filled in. */
export async function getAvailableAmount(coin: string, signal?: AbortSignal): Promise<CoinBalance> {
  return (await post<CoinBalance>('/Finance/getcoinnum', { coin }, { signal, silent: true })).data;
}

export function availableAmountQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'available', coin],
    queryFn: ({ signal }) => getAvailableAmount(coin, signal),
    enabled: coin !== '',
  });
}

export function useAvailableAmount(coin: string) {
  return useQuery(availableAmountQueryOptions(coin));
}
