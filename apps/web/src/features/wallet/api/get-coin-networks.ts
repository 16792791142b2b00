import type { CoinSymbol } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `POST /Finance/getsymbol`: a coin's deposit and withdrawal networks and its index price. */
export async function getCoinNetworks(coin: string, signal?: AbortSignal): Promise<CoinSymbol> {
  return (await post('/Finance/getsymbol', { coin }, 'CoinSymbol', { signal, silent: true })).data;
}

export function coinNetworksQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'networks', coin],
    queryFn: ({ signal }) => getCoinNetworks(coin, signal),
    enabled: coin !== '',
    staleTime: 60_000,
  });
}

export function useCoinNetworks(coin: string) {
  return useQuery(coinNetworksQueryOptions(coin));
}
