import type { WithdrawBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/**
 * `POST /Finance/tbhandle`: asks for a withdrawal; the amount plus fee is frozen until staff
 * review it. `gacode` is the two-factor code, needed when the account has codes on (the server
 * answers TOTP_REQUIRED without it). Resolves with the envelope (`data` is the record, under review).
 */
export function requestWithdrawal(input: WireInput<WithdrawBody>) {
  return post('/Finance/tbhandle', { ...input }, 'WithdrawalRecord', { action: 'submit' });
}

export function useRequestWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestWithdrawal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
