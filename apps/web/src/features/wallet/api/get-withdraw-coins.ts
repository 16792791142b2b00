import type { CoinChoice } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/txcoin`: the coins open for withdrawal, with what is available of each. */
export async function getWithdrawCoins(signal?: AbortSignal): Promise<CoinChoice[]> {
  return (await get('/Finance/txcoin', {}, 'CoinChoiceList', { signal, silent: true })).data;
}

export function withdrawCoinsQueryOptions() {
  return queryOptions({
    queryKey: [...walletQueryKey, 'withdraw-coins'],
    queryFn: ({ signal }) => getWithdrawCoins(signal),
  });
}

export function useWithdrawCoins() {
  return useQuery(withdrawCoinsQueryOptions());
}
