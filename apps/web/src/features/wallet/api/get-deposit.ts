import type { DepositRecord } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/czinfo`: one of the user's deposits. */
export async function getDeposit(id: string, signal?: AbortSignal): Promise<DepositRecord> {
  return (await get('/Finance/czinfo', { id }, 'DepositRecord', { signal, silent: true })).data;
}

export function depositQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'deposit', id],
    queryFn: ({ signal }) => getDeposit(id, signal),
  });
}

export function useDeposit(id: string) {
  return useQuery(depositQueryOptions(id));
}
