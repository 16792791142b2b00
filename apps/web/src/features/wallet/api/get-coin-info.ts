import type { AssetRow } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/coininfo`: one coin of the assets overview, with its wallet switches. */
export async function getCoinInfo(coin: string, signal?: AbortSignal): Promise<AssetRow> {
  return (await get('/Finance/coininfo', { coin }, 'AssetRow', { signal, silent: true })).data;
}

export function coinInfoQueryOptions(coin: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'coin-info', coin],
    queryFn: ({ signal }) => getCoinInfo(coin, signal),
  });
}

export function useCoinInfo(coin: string) {
  return useQuery(coinInfoQueryOptions(coin));
}
