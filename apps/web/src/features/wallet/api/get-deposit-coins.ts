import type { CoinChoice } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /User/czcoin`: the coins open for deposit. */
export async function getDepositCoins(signal?: AbortSignal): Promise<CoinChoice[]> {
  return (await get('/User/czcoin', {}, 'CoinChoiceList', { signal, silent: true })).data;
}

export function depositCoinsQueryOptions() {
  return queryOptions({
    queryKey: [...walletQueryKey, 'deposit-coins'],
    queryFn: ({ signal }) => getDepositCoins(signal),
  });
}

export function useDepositCoins() {
  return useQuery(depositCoinsQueryOptions());
}
