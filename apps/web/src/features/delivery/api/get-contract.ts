import type { ContractRecord } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { deliveryQueryKey } from './delivery-query-key.ts';
import { nextCheckIn } from './get-contract-list.ts';

/** `GET /Contract/cbillinfo`: one of the user's contracts. */
export async function getContract(id: string, signal?: AbortSignal): Promise<ContractRecord> {
  return (await get('/Contract/cbillinfo', { id }, 'ContractRecord', { signal, silent: true })).data;
}

export function contractQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...deliveryQueryKey, 'contract', id],
    queryFn: ({ signal }) => getContract(id, signal),
    // why: the detail of an expired contract fills in its closing price as soon as it settles.
    refetchInterval: (query) => (query.state.data ? nextCheckIn([query.state.data]) : false),
  });
}

export function useContract(id: string) {
  return useQuery(contractQueryOptions(id));
}
