import '../components/user.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../api/get-user-info.ts';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useOpenOnlineSupport } from '../api/get-online-support-url.ts';
import { useSetWithdrawPassword } from '../api/set-withdraw-password.ts';
import { findNewPasswordProblem, PASSWORD_MAX } from '../components/validate-password.ts';

function WithdrawPasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const goBack = useBack();
  const mutation = useSetWithdrawPassword();
  const support = useOpenOnlineSupport();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [isDone, setIsDone] = useState(false);
  const isBusy = mutation.isPending || isDone;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    const problem =
      hasPassword && !oldPassword
        ? 'security.validation.oldWithdrawRequired'
        : findNewPasswordProblem(password, confirmPassword);
    if (problem) return void showToast(t(problem));
    mutation.mutate(
      { password, confirmPassword, oldPassword: hasPassword ? oldPassword : undefined },
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
    <form onSubmit={handleSubmit} noValidate>
      <p className="note note-info">{t('security.withdrawPassword.note')}</p>
      {hasPassword && (
        <TextField
          label={t('security.withdrawPassword.old')}
          placeholder={t('security.withdrawPassword.oldPlaceholder')}
          type="password"
          value={oldPassword}
          onChange={setOldPassword}
          autoComplete="off"
          maxLength={64}
          testId="withdrawpwd-old"
        />
      )}
      <TextField
        label={t('security.withdrawPassword.new')}
        placeholder={t('security.passwordRule')}
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX}
        testId="withdrawpwd-new"
      />
      <TextField
        label={t('security.withdrawPassword.confirm')}
        placeholder={t('auth.fields.password2Placeholder')}
        type="password"
        value={confirmPassword}
        onChange={setConfirmPassword}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX}
        testId="withdrawpwd-confirm"
      />
      <SubmitButton isBusy={isBusy} testId="withdrawpwd-submit" className="form-actions">
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

/** Set the withdrawal password, or change it (asking for the old one) when one is set. */
export default function WithdrawPasswordPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const hasPassword = Boolean(user.data?.paypassword);
  const title =
    user.data && hasPassword
      ? t('security.withdrawPassword.changeTitle')
      : t('security.withdrawPassword.setTitle');
  return (
    <Page title={title}>
      {user.isPending ? (
        <Skeleton.Paragraph lineCount={5} animated />
      ) : user.isError ? (
        <ErrorState message={user.error.message} onRetry={() => user.refetch()} />
      ) : (
        <WithdrawPasswordForm key={String(hasPassword)} hasPassword={hasPassword} />
      )}
    </Page>
  );
}
