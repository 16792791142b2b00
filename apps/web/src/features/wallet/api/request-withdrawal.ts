import type { WithdrawalRecord } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

export interface RequestWithdrawalInput {
  coin: string;
  type: 'address' | 'bank';
  /** The saved address (type `address`) or bank card (type `bank`). */
  destinationId: string;
  amount: string;
  payPassword: string;
  /** One key per submission: sending it twice takes effect once. */
  idempotencyKey: string;
}

/**
 * `POST /Finance/tbhandle`: asks for a withdrawal; the amount plus fee is frozen until staff
 * review it. Resolves with the envelope (`data` is the record, under review).
 */
export function requestWithdrawal(input: RequestWithdrawalInput) {
  return post<WithdrawalRecord>('/Finance/tbhandle', {
    coin: input.coin,
    type: input.type,
    address_id: input.type === 'address' ? input.destinationId : undefined,
    bank_id: input.type === 'bank' ? input.destinationId : undefined,
    amount: input.amount,
    paypassword: input.payPassword,
    idempotency_key: input.idempotencyKey,
  });
}

export function useRequestWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestWithdrawal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
