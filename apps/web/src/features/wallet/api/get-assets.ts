import type { AssetsOverview } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/index`: every coin's balance and the total valued in USDT. */
export async function getAssets(signal?: AbortSignal): Promise<AssetsOverview> {
  return (await get('/Finance/index', {}, 'AssetsOverview', { signal, silent: true })).data;
}

export function assetsQueryOptions() {
  return queryOptions({
    queryKey: [...walletQueryKey, 'assets'],
    queryFn: ({ signal }) => getAssets(signal),
  });
}

export function useAssets() {
  return useQuery(assetsQueryOptions());
}
