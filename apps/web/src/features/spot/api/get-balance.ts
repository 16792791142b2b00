import type { CoinBalance } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { spotQueryKey } from './spot-query-key.ts';

/** Balances move when a resting order fills; they are asked again this often while shown. */
const BALANCE_POLL_MS = 5000;

/** `GET /Finance/getmoney`: one coin's available and frozen balance. */
export async function getBalance(coin: string, signal?: AbortSignal): Promise<CoinBalance> {
  return (await get<CoinBalance>('/Finance/getmoney', { coin }, { signal, silent: true })).data;
}

export function balanceQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...spotQueryKey, 'mine', 'balance', coin],
    queryFn: ({ signal }) => getBalance(coin, signal),
    refetchInterval: BALANCE_POLL_MS,
    staleTime: 0,
  });
}

export function useBalance(coin: string, isEnabled: boolean) {
  return useQuery({ ...balanceQueryOptions(coin), enabled: isEnabled && coin !== '' });
}
