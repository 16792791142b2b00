import { LazySchema, useSchemaForm } from '@bourse/forms';
import { PASSWORD_MAX } from '@bourse/shared/api';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../shared/form/form-fields.tsx';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useChangeLoginPassword } from '../api/change-login-password.ts';
import type { LoginPasswordFields } from './validate-password.ts';

// why: zod and the request schemas load when the form is first used, not with the page.
const validation = new LazySchema<typeof LoginPasswordFields>(() =>
  import('./validate-password.ts').then((m) => m.LoginPasswordFields),
);

/**
 * The login-password form: current, new and confirmation, then back to where the user came from.
 * `/Index/respwd` and `/Index/spwd` both show it; `testIdPrefix` tells their fields apart.
 */
export function LoginPasswordForm({ testIdPrefix }: { testIdPrefix: 'respwd' | 'spwd' }) {
  const { t } = useTranslation();
  const goBack = useBack();
  const mutation = useChangeLoginPassword();
  const form = useSchemaForm(validation, { defaultValues: { oldpwd: '', newpwd: '', renewpwd: '' } });
  const [isDone, setIsDone] = useState(false);
  const isBusy = mutation.isPending || isDone;

  const submit = form.handleSubmit((values) => {
    if (isBusy) return;
    mutation.mutate(
      { oldpwd: values.oldpwd, newpwd: values.newpwd, renewpwd: values.renewpwd },
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
    <>
      <p className="note" data-testid={`${testIdPrefix}-note`}>
        {t('security.changePassword.note')}
      </p>
      <form onSubmit={submit} onFocus={validation.preload} noValidate>
        <FormTextField
          control={form.control}
          name="oldpwd"
          label={t('security.changePassword.old')}
          placeholder={t('security.changePassword.oldPlaceholder')}
          type="password"
          autoComplete="current-password"
          maxLength={64}
          testId={`${testIdPrefix}-old`}
        />
        <FormTextField
          control={form.control}
          name="newpwd"
          label={t('security.changePassword.new')}
          placeholder={t('security.passwordRule')}
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId={`${testIdPrefix}-new`}
        />
        <FormTextField
          control={form.control}
          name="renewpwd"
          label={t('security.changePassword.confirm')}
          placeholder={t('auth.fields.password2Placeholder')}
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId={`${testIdPrefix}-confirm`}
        />
        <SubmitButton isBusy={isBusy} testId={`${testIdPrefix}-submit`} className="form-actions">
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </>
  );
}
