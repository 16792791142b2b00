import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { post } from '../../../api/http.ts';

export interface SetWithdrawPasswordInput {
  password: string;
  confirmPassword: string;
  /** Required when a withdrawal password is already set. */
  oldPassword?: string;
}

/** `POST /User/sub_withdrawpwd`: sets or changes the withdrawal password. Resolves with the envelope. */
export function setWithdrawPassword(input: SetWithdrawPasswordInput) {
  return post(
    '/User/sub_withdrawpwd',
    {
      paypassword: input.password,
      repaypassword: input.confirmPassword,
      oldpaypassword: input.oldPassword,
    },
    z.null(),
  );
}

export function useSetWithdrawPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWithdrawPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userInfoQueryKey }),
  });
}
