import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useChangeLoginPassword } from '../api/change-login-password.ts';
import { findNewPasswordProblem, PASSWORD_MAX } from './validate-password.ts';

/**
 * The login-password form: current, new and confirmation, then back to where the user came from.
 * `/Index/respwd` and `/Index/spwd` both show it; `testIdPrefix` tells their fields apart.
 */
export function LoginPasswordForm({ testIdPrefix }: { testIdPrefix: 'respwd' | 'spwd' }) {
  const { t } = useTranslation();
  const goBack = useBack();
  const mutation = useChangeLoginPassword();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [isDone, setIsDone] = useState(false);
  const isBusy = mutation.isPending || isDone;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    const problem = !oldPassword
      ? 'security.validation.oldRequired'
      : findNewPasswordProblem(newPassword, confirmPassword);
    if (problem) return void showToast(t(problem));
    mutation.mutate(
      { oldPassword, newPassword, confirmPassword },
      {
        onSuccess: (body) => {
          setIsDone(true);
          showToast(body.msg, 'success');
          setTimeout(goBack, NAVIGATE_DELAY_MS);
        },
      },
    );
  }

  return (
    <>
      <p className="note" data-testid={`${testIdPrefix}-note`}>
        {t('security.changePassword.note')}
      </p>
      <form onSubmit={handleSubmit} noValidate>
        <TextField
          label={t('security.changePassword.old')}
          placeholder={t('security.changePassword.oldPlaceholder')}
          type="password"
          value={oldPassword}
          onChange={setOldPassword}
          autoComplete="current-password"
          maxLength={64}
          testId={`${testIdPrefix}-old`}
        />
        <TextField
          label={t('security.changePassword.new')}
          placeholder={t('security.passwordRule')}
          type="password"
          value={newPassword}
          onChange={setNewPassword}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId={`${testIdPrefix}-new`}
        />
        <TextField
          label={t('security.changePassword.confirm')}
          placeholder={t('auth.fields.password2Placeholder')}
          type="password"
          value={confirmPassword}
          onChange={setConfirmPassword}
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
