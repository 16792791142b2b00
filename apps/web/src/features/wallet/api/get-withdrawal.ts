import type { WithdrawalRecord } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `GET /Finance/txinfo`: one of the user's withdrawals. */
export async function getWithdrawal(id: string, signal?: AbortSignal): Promise<WithdrawalRecord> {
  return (await get('/Finance/txinfo', { id }, 'WithdrawalRecord', { signal, silent: true })).data;
}

export function withdrawalQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'withdrawal', id],
    queryFn: ({ signal }) => getWithdrawal(id, signal),
  });
}

export function useWithdrawal(id: string) {
  return useQuery(withdrawalQueryOptions(id));
}
