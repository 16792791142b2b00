import { LazySchema, useSchemaForm } from '@bourse/forms';
import { PASSWORD_MAX } from '@bourse/shared/api';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../shared/form/form-fields.tsx';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useOpenOnlineSupport } from '../api/get-online-support-url.ts';
import { useSetWithdrawPassword } from '../api/set-withdraw-password.ts';
import type { withdrawPasswordFields } from './validate-password.ts';

/**
 * The withdrawal-password form: new and confirmation when none is set (the set flow), with the
 * current one first when one is (the change flow); then back to where the user came from.
 * `/Index/withdrawpwd` and `/Index/spwd` both show it; `testIdPrefix` tells their fields apart.
 */
export function WithdrawPasswordForm({
  hasPassword,
  testIdPrefix,
}: {
  hasPassword: boolean;
  testIdPrefix: 'withdrawpwd' | 'spwd-pay';
}) {
  const { t } = useTranslation();
  const goBack = useBack();
  const mutation = useSetWithdrawPassword();
  const support = useOpenOnlineSupport();
  // why: zod and the request schemas load when the form is first used, not with the page.
  const [validation] = useState(
    () =>
      new LazySchema<ReturnType<typeof withdrawPasswordFields>>(() =>
        import('./validate-password.ts').then((m) => m.withdrawPasswordFields(hasPassword)),
      ),
  );
  const form = useSchemaForm(validation, {
    defaultValues: { oldpaypassword: '', paypassword: '', repaypassword: '' },
  });
  const [isDone, setIsDone] = useState(false);
  const isBusy = mutation.isPending || isDone;

  const submit = form.handleSubmit((values) => {
    if (isBusy) return;
    mutation.mutate(
      {
        paypassword: values.paypassword,
        repaypassword: values.repaypassword,
        oldpaypassword: hasPassword ? values.oldpaypassword : undefined,
      },
      {
        onSuccess: (body) => {
          setIsDone(true);
          showToast(body.msg, 'success');
          setTimeout(goBack, NAVIGATE_DELAY_MS);
        },
      },
    );
  });

  return (
    <form onSubmit={submit} onFocus={validation.preload} noValidate>
      {hasPassword && (
        <FormTextField
          control={form.control}
          name="oldpaypassword"
          label={t('security.withdrawPassword.old')}
          placeholder={t('security.withdrawPassword.oldPlaceholder')}
          type="password"
          autoComplete="off"
          maxLength={64}
          testId={`${testIdPrefix}-old`}
        />
      )}
      <FormTextField
        control={form.control}
        name="paypassword"
        label={t('security.withdrawPassword.new')}
        placeholder={t('security.passwordRule')}
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX}
        testId={`${testIdPrefix}-new`}
      />
      <FormTextField
        control={form.control}
        name="repaypassword"
        label={t('security.withdrawPassword.confirm')}
        placeholder={t('auth.fields.password2Placeholder')}
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX}
        testId={`${testIdPrefix}-confirm`}
      />
      <SubmitButton isBusy={isBusy} testId={`${testIdPrefix}-submit`} className="form-actions">
        {t('common.confirm')}
      </SubmitButton>
      {hasPassword && (
        <p className="page-footnote">
          {t('security.withdrawPassword.forgot')}{' '}
          <button
            type="button"
            className="text-button"
            onClick={() => {
              if (!support.isPending) support.mutate();
            }}
          >
            {t('user.menu.support')}
          </button>
        </p>
      )}
    </form>
  );
}
