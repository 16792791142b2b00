import { ChangePasswordBody, WithdrawPasswordBody } from '@bourse/shared/api';
import { z } from 'zod';

/**
 * A field the form must not leave empty, with the page's own words for it; what is typed then
 * meets the server's own rule (the shared request schema).
 */
function filled<T extends z.ZodType<unknown, string>>(missing: string, rule: T) {
  return z.string().min(1, { error: missing }).pipe(rule);
}

const NEW_REQUIRED = 'security.validation.newRequired';
const CONFIRM_REQUIRED = 'security.validation.confirmRequired';
// why: the spec's "the two passwords entered are inconsistent", shown under the confirmation.
const INCONSISTENT = 'PASSWORDS_INCONSISTENT';

/** `/Index/respwd` and `/Index/spwd`: the fields of `POST /user/sub_respwd`. */
export const LoginPasswordFields = z
  .object({
    oldpwd: filled('security.validation.oldRequired', ChangePasswordBody.shape.oldpwd),
    newpwd: filled(NEW_REQUIRED, ChangePasswordBody.shape.newpwd),
    renewpwd: filled(CONFIRM_REQUIRED, ChangePasswordBody.shape.renewpwd),
  })
  .refine((v) => v.newpwd === v.renewpwd, { error: INCONSISTENT, path: ['renewpwd'] });

/**
 * `/Index/withdrawpwd`: the fields of `POST /User/sub_withdrawpwd`; the current withdrawal password
 * is asked for only when one is set.
 */
export function withdrawPasswordFields(hasPassword: boolean) {
  return z
    .object({
      oldpaypassword: hasPassword
        ? filled(
            'security.validation.oldWithdrawRequired',
            WithdrawPasswordBody.shape.oldpaypassword.unwrap(),
          )
        : z.string(),
      paypassword: filled(NEW_REQUIRED, WithdrawPasswordBody.shape.paypassword),
      repaypassword: filled(CONFIRM_REQUIRED, WithdrawPasswordBody.shape.repaypassword),
    })
    .refine((v) => v.paypassword === v.repaypassword, { error: INCONSISTENT, path: ['repaypassword'] });
}
