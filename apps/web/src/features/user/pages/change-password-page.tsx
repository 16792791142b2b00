import '../components/user.css';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useChangeLoginPassword } from '../api/change-login-password.ts';
import { findNewPasswordProblem, PASSWORD_MAX } from '../components/validate-password.ts';

/** Change the login password: old, new, confirmation. */
export default function ChangePasswordPage() {
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
    <Page title={t('security.changePassword.title')}>
      <p className="note" data-testid="respwd-note">
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
          testId="respwd-old"
        />
        <TextField
          label={t('security.changePassword.new')}
          placeholder={t('security.passwordRule')}
          type="password"
          value={newPassword}
          onChange={setNewPassword}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId="respwd-new"
        />
        <TextField
          label={t('security.changePassword.confirm')}
          placeholder={t('auth.fields.password2Placeholder')}
          type="password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId="respwd-confirm"
        />
        <SubmitButton isBusy={isBusy} testId="respwd-submit" className="form-actions">
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </Page>
  );
}
