import '../components/auth.css';
import { RESULT_CODES } from '@bourse/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { userInfoQueryOptions } from '../../../api/get-user-info.ts';
import { ApiError } from '../../../api/http.ts';
import { PATHS } from '../../../shared/paths.ts';
import { startSession } from '../../../shared/storage.ts';
import { NAVIGATE_DELAY_MS, wait } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useLoginConfig } from '../api/get-login-config.ts';
import { login } from '../api/login.ts';
import { AuthShell } from '../components/auth-shell.tsx';
import { CaptchaField } from '../components/captcha-field.tsx';
import { useCaptchaState } from '../components/use-captcha-state.ts';

const CAPTCHA_REQUIRED_CODE = RESULT_CODES.CAPTCHA_REQUIRED.code;
const TOTP_REQUIRED_CODE = RESULT_CODES.TOTP_REQUIRED.code;

export default function LoginPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useLoginConfig();
  // why: the server asks for the graphic code on an account under attack even when the operator
  // turned it off; the form then shows it from the next attempt on.
  const [isCaptchaDemanded, setIsCaptchaDemanded] = useState(false);
  const isCaptchaOn = config.data?.captcha === true || isCaptchaDemanded;
  const captcha = useCaptchaState(isCaptchaOn);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  // why: an account with two-factor codes answers TOTP_REQUIRED to the password; the form then
  // asks for the code and sends it with the next attempt.
  const [isTotpAsked, setIsTotpAsked] = useState(false);
  const [totpCode, setTotpCode] = useState('');

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    const name = username.trim();
    if (!name) return void showToast(t('auth.validation.usernameRequired'));
    if (!password) return void showToast(t('auth.validation.passwordRequired'));
    if (isCaptchaOn && !captcha.code.trim()) {
      return void showToast(t('auth.validation.captchaRequired'));
    }
    if (isTotpAsked && !totpCode.trim()) return void showToast(t('auth.validation.totpRequired'));
    setIsBusy(true);
    try {
      const body = await login({
        email: name,
        lpwd: password,
        vcode: captcha.payload?.code,
        key: captcha.payload?.key,
        gacode: isTotpAsked ? totpCode.trim() : undefined,
      });
      showToast(body.msg, 'success');
      // why: the spec loads the user info before entering the app; a failure here is not fatal.
      await Promise.all([
        queryClient.fetchQuery(userInfoQueryOptions(body.data.token)).catch(() => undefined),
        wait(NAVIGATE_DELAY_MS),
      ]);
      // why: storing the session is what enters the app: the route guard takes a signed-in
      // visitor from /login to the home page at once. Navigating here as well, after the wait,
      // pulled back to the home page a user who had tapped another tab in the meantime.
      startSession(body.data);
    } catch (error) {
      // The client already showed the server's message.
      if (error instanceof ApiError && error.code === CAPTCHA_REQUIRED_CODE) setIsCaptchaDemanded(true);
      else if (isCaptchaOn) captcha.refresh();
      if (error instanceof ApiError && error.code === TOTP_REQUIRED_CODE) setIsTotpAsked(true);
      setIsBusy(false);
    }
  }

  return (
    <AuthShell
      title={t('auth.login.title')}
      heading={t('auth.login.heading')}
      subtitle={t('auth.login.subtitle')}
    >
      <form className="auth-form" onSubmit={handleSubmit} noValidate>
        <TextField
          label={t('auth.fields.username')}
          placeholder={t('auth.fields.usernamePlaceholder')}
          value={username}
          onChange={setUsername}
          autoComplete="username"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={64}
          testId="login-username"
        />
        <TextField
          label={t('auth.fields.password')}
          placeholder={t('auth.fields.passwordPlaceholder')}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          maxLength={64}
          testId="login-password"
        />
        {isCaptchaOn && <CaptchaField state={captcha} />}
        {isTotpAsked && (
          <TextField
            label={t('auth.fields.totp')}
            placeholder={t('auth.fields.totpPlaceholder')}
            value={totpCode}
            onChange={setTotpCode}
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            maxLength={16}
            testId="login-totp"
          />
        )}
        <SubmitButton isBusy={isBusy} testId="login-submit">
          {t('auth.login.submit')}
        </SubmitButton>
      </form>
      <p className="auth-switch">
        <Link to={PATHS.forgotPassword} data-testid="to-forgot">
          {t('auth.login.forgot')}
        </Link>
      </p>
      <p className="auth-switch">
        <span>{t('auth.login.noAccount')}</span>
        <Link to={PATHS.register} replace data-testid="to-register">
          {t('auth.login.toRegister')}
        </Link>
      </p>
    </AuthShell>
  );
}
