import type { CoinBalance } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/getmoney`: one coin's available and frozen balance. */
export async function getCoinBalance(coin: string, signal?: AbortSignal): Promise<CoinBalance> {
  return (await get<CoinBalance>('/Finance/getmoney', { coin }, { signal, silent: true })).data;
}

export function coinBalanceQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'balance', coin],
    queryFn: ({ signal }) => getCoinBalance(coin, signal),
  });
}

export function useCoinBalance(coin: string) {
  return useQuery(coinBalanceQueryOptions(coin));
}
