import '../components/auth.css';
import { PASSWORD_MAX } from '@bourse/shared/api';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { NAVIGATE_DELAY_MS, wait } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { resetPassword } from '../api/reset-password.ts';
import { AuthShell } from '../components/auth-shell.tsx';
import { EmailCodeFields } from '../components/email-code-form.tsx';

/**
 * `/Login/forgot` (public): reset a forgotten login password with a code mailed to the account's
 * e-mail after the graphic code. Every session ends and withdrawals wait 24 hours.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    if (!code.trim()) return void showToast(t('emailCode.codeRequired'));
    if (password.length < 6 || password.length > PASSWORD_MAX)
      return void showToast(t('security.validation.length'));
    if (password !== repeat) return void showToast(t('auth.validation.passwordsInconsistent'));
    setIsBusy(true);
    try {
      const body = await resetPassword({
        email: email.trim(),
        code: code.trim(),
        lpwd: password,
        relpwd: repeat,
      });
      showToast(body.msg, 'success');
      await wait(NAVIGATE_DELAY_MS);
      navigate(PATHS.login, { replace: true });
    } catch {
      setIsBusy(false);
    }
  }

  return (
    <AuthShell title={t('forgot.title')} heading={t('forgot.heading')} subtitle={t('forgot.subtitle')}>
      <form className="auth-form" onSubmit={submit} noValidate>
        <EmailCodeFields
          sendPath="/Login/sendresetcode"
          email={email}
          onEmail={setEmail}
          code={code}
          onCode={setCode}
          testIdPrefix="forgot"
        />
        <TextField
          label={t('forgot.newPassword')}
          placeholder={t('auth.fields.passwordHint')}
          value={password}
          onChange={setPassword}
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId="forgot-password"
        />
        <TextField
          label={t('auth.fields.password2')}
          placeholder={t('auth.fields.password2Placeholder')}
          value={repeat}
          onChange={setRepeat}
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          testId="forgot-password2"
        />
        <SubmitButton isBusy={isBusy} testId="forgot-submit">
          {t('forgot.submit')}
        </SubmitButton>
      </form>
      <p className="auth-switch">
        <Link to={PATHS.login} replace data-testid="forgot-to-login">
          {t('forgot.backToLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
