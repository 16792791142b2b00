import type { ChangePasswordBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/**
 * `POST /user/sub_respwd`. The server ends the user's other sessions and blocks withdrawals for
 * 24 hours. Resolves with the envelope (its `msg` is the success message).
 */
export function changeLoginPassword(input: WireInput<ChangePasswordBody>) {
  return post('/user/sub_respwd', { ...input }, 'NoData', { action: 'submit' });
}

export function useChangeLoginPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeLoginPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userInfoQueryKey }),
  });
}
