import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `POST /user/deladdress`: removes one of the user's saved withdrawal addresses. */
export function deleteAddress(id: string) {
  return post('/user/deladdress', { id }, 'NoData', { action: 'delete' });
}

export function useDeleteAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: walletQueryKey }),
        queryClient.invalidateQueries({ queryKey: userInfoQueryKey, refetchType: 'all' }),
      ]),
  });
}
