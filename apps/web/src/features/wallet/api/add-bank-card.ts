import type { AddBankBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** `POST /user/addbank`: saves a bank card (number, holder name, bank, bank code). */
export function addBankCard(input: Omit<AddBankBody, 'token'>) {
  return post('/user/addbank', { ...input }, 'BankCard', { action: 'add' });
}

export function useAddBankCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBankCard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
