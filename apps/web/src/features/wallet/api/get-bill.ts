import type { BillLine } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /user/billinfo`: one line of the user's statement. */
export async function getBill(id: string, signal?: AbortSignal): Promise<BillLine> {
  return (await get('/user/billinfo', { id }, 'BillLine', { signal, silent: true })).data;
}

export function billQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'bill', id],
    queryFn: ({ signal }) => getBill(id, signal),
  });
}

export function useBill(id: string) {
  return useQuery(billQueryOptions(id));
}
