import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `POST /user/delbank`: removes one of the user's saved bank cards. */
export function deleteBankCard(id: string) {
  return post('/user/delbank', { id }, 'NoData', { action: 'delete' });
}

export function useDeleteBankCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBankCard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
