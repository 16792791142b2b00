import type { WithdrawAddress } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { fetchAhead, takeEarlyAnswer } from './early-answer.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** Query key of the saved withdrawal addresses. */
export const addressesQueryKey = [...walletQueryKey, 'addresses'] as const;

/** `GET /user/addresslist`: the user's saved withdrawal addresses. */
export async function getAddresses(signal?: AbortSignal): Promise<WithdrawAddress[]> {
  return (await get('/user/addresslist', {}, 'WithdrawAddressList', { signal, silent: true })).data;
}

export function addressesQueryOptions() {
  return queryOptions({
    queryKey: addressesQueryKey,
    queryFn: ({ signal }) => takeEarlyAnswer<WithdrawAddress[]>('addresses') ?? getAddresses(signal),
  });
}

/** Starts the address list's request as its module loads (see early-answer.ts). */
export function fetchAddressesAhead(path: string): void {
  fetchAhead(
    path,
    () => 'addresses',
    () => getAddresses(),
  );
}

export function useAddresses() {
  return useQuery(addressesQueryOptions());
}
