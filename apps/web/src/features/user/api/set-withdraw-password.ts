import type { WithdrawPasswordBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/**
 * `POST /User/sub_withdrawpwd`: sets or changes the withdrawal password (`oldpaypassword` is required
 * when one is already set). Resolves with the envelope.
 */
export function setWithdrawPassword(input: WireInput<WithdrawPasswordBody>) {
  return post('/User/sub_withdrawpwd', { ...input }, 'NoData', { action: 'submit' });
}

export function useSetWithdrawPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWithdrawPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userInfoQueryKey }),
  });
}
