import type { AddAddressBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { post } from '../../../api/http.ts';
import { addressesQueryKey } from './get-addresses.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `POST /user/addaddress`: saves a withdrawal address (the server checks it for the network). */
export function addAddress(input: Omit<AddAddressBody, 'token'>) {
  return post('/user/addaddress', { ...input }, 'WithdrawAddress', { action: 'add' });
}

export function useAddAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addAddress,
    onSuccess: async () => {
      // why: the withdrawal guard reads `is_address` from the user info, even while no page shows
      // it: refetch it now, so the guard never decides on the stale answer.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
        queryClient.invalidateQueries({ queryKey: walletQueryKey }),
        queryClient.invalidateQueries({ queryKey: userInfoQueryKey, refetchType: 'all' }),
      ]);
    },
  });
}
