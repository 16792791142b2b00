import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/getallzhehe`: everything the user holds, valued in USDT at index prices. */
export async function getTotalValue(signal?: AbortSignal): Promise<string> {
  return (await get('/Finance/getallzhehe', {}, 'TotalValue', { signal, silent: true })).data.total_usdt;
}

export function totalValueQueryOptions() {
  return queryOptions({
    queryKey: [...walletQueryKey, 'total'],
    queryFn: ({ signal }) => getTotalValue(signal),
  });
}

export function useTotalValue() {
  return useQuery(totalValueQueryOptions());
}
