import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { post } from '../../../api/http.ts';

export interface ChangeLoginPasswordInput {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * `POST /user/sub_respwd`. The server ends the user's other sessions and blocks withdrawals for
 * 24 hours. Resolves with the envelope (its `msg` is the success message).
 */
export function changeLoginPassword(input: ChangeLoginPasswordInput) {
  return post(
    '/user/sub_respwd',
    {
      oldpwd: input.oldPassword,
      newpwd: input.newPassword,
      renewpwd: input.confirmPassword,
    },
    z.null(),
  );
}

export function useChangeLoginPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeLoginPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userInfoQueryKey }),
  });
}
