import type { WithdrawAddress } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** Query key of the saved withdrawal addresses. */
export const addressesQueryKey = [...walletQueryKey, 'addresses'] as const;

/** `GET /user/addresslist`: the user's saved withdrawal addresses. */
export async function getAddresses(signal?: AbortSignal): Promise<WithdrawAddress[]> {
  return (await get('/user/addresslist', {}, 'WithdrawAddressList', { signal, silent: true })).data;
}

export function addressesQueryOptions() {
  return queryOptions({ queryKey: addressesQueryKey, queryFn: ({ signal }) => getAddresses(signal) });
}

export function useAddresses() {
  return useQuery(addressesQueryOptions());
}
