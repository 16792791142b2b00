import type { CoinBalance } from '@bourse/shared/api';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { usePrivateChannel, useRealtimeStatus } from '../../../api/ws.ts';
import { spotQueryKey } from './spot-query-key.ts';

/** Balances move when a resting order fills; while `/ws` is down they are asked again this often. */
const BALANCE_POLL_MS = 5000;

/** `GET /Finance/getmoney`: one coin's available and frozen balance. */
export async function getBalance(coin: string, signal?: AbortSignal): Promise<CoinBalance> {
  return (await get('/Finance/getmoney', { coin }, 'CoinBalance', { signal, silent: true })).data;
}

export function balanceQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...spotQueryKey, 'mine', 'balance', coin],
    queryFn: ({ signal }) => getBalance(coin, signal),
    refetchInterval: BALANCE_POLL_MS,
    staleTime: 0,
  });
}

/** One coin's balance, kept current by the private `balances` channel (a batch's coins, to their owners). */
export function useBalance(coin: string, isEnabled: boolean) {
  const client = useQueryClient();
  const isLive = useRealtimeStatus() === 'open';
  usePrivateChannel(
    'balances',
    (data) => {
      for (const balance of data as CoinBalance[]) {
        client.setQueryData(balanceQueryOptions(balance.coin).queryKey, balance);
      }
    },
    isEnabled,
  );
  return useQuery({
    ...balanceQueryOptions(coin),
    refetchInterval: isLive ? false : BALANCE_POLL_MS,
    enabled: isEnabled && coin !== '',
  });
}
