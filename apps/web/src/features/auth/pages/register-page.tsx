import '../components/auth.css';
import { RESULT_CODES } from '@bourse/shared';
import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../api/http.ts';
import { PATHS } from '../../../shared/paths.ts';
import { getInviteCode } from '../../../shared/storage.ts';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useLoginConfig } from '../api/get-login-config.ts';
import { useTermsVersion } from '../api/get-terms-version.ts';
import { register } from '../api/register.ts';
import { AuthShell } from '../components/auth-shell.tsx';
import { CaptchaField } from '../components/captcha-field.tsx';
import { useCaptchaState } from '../components/use-captcha-state.ts';
import { findRegisterProblem } from '../components/validate-register.ts';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useLoginConfig();
  const mode = config.data?.register_mode === 2 ? 2 : 1;
  const isCaptchaOn = config.data?.captcha === true;
  const captcha = useCaptchaState(isCaptchaOn);
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [inviteCode, setInviteCode] = useState(getInviteCode);
  const [isBusy, setIsBusy] = useState(false);
  // why: 0 while no terms are in force (no box to tick); the box sends the version it was shown.
  const terms = useTermsVersion();
  const termsVersion = terms.data ?? 0;
  const [isTermsAccepted, setIsTermsAccepted] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    const name = account.trim();
    const problem = findRegisterProblem({
      account: name,
      password,
      confirmation: password2,
      captcha: isCaptchaOn ? captcha.code : null,
      termsAccepted: termsVersion > 0 ? isTermsAccepted : null,
    });
    if (problem) return void showToast(t(problem));
    setIsBusy(true);
    try {
      const body = await register(mode, {
        account: name,
        lpwd: password,
        invit: inviteCode.trim(),
        vcode: captcha.payload?.code ?? '',
        key: captcha.payload?.key ?? '',
        terms_version: termsVersion > 0 ? termsVersion : undefined,
      });
      showToast(body.msg, 'success');
      setTimeout(() => navigate(PATHS.login, { replace: true }), NAVIGATE_DELAY_MS);
    } catch (error) {
      if (isCaptchaOn) captcha.refresh();
      // why: new terms came into force while the form was open: the box asks again, for them.
      if (error instanceof ApiError && error.code === RESULT_CODES.TERMS_VERSION_STALE.code) {
        setIsTermsAccepted(false);
        void terms.refetch();
      }
      setIsBusy(false);
    }
  }

  return (
    <AuthShell
      title={t('auth.register.title')}
      heading={t('auth.register.heading')}
      subtitle={t('auth.register.subtitle')}
    >
      <form className="auth-form" onSubmit={handleSubmit} noValidate>
        {mode === 2 ? (
          <TextField
            label={t('auth.fields.phone')}
            placeholder={t('auth.fields.phonePlaceholder')}
            type="tel"
            inputMode="tel"
            value={account}
            onChange={setAccount}
            autoComplete="tel"
            maxLength={16}
            testId="register-phone"
          />
        ) : (
          <TextField
            label={t('auth.fields.username')}
            placeholder={t('auth.fields.newUsernamePlaceholder')}
            value={account}
            onChange={setAccount}
            autoComplete="username"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            maxLength={64}
            hint={t('auth.fields.usernameHint')}
            testId="register-username"
          />
        )}
        <TextField
          label={t('auth.fields.password')}
          placeholder={t('auth.fields.newPasswordPlaceholder')}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          maxLength={32}
          hint={t('auth.fields.passwordHint')}
          testId="register-password"
        />
        <TextField
          label={t('auth.fields.password2')}
          placeholder={t('auth.fields.password2Placeholder')}
          type="password"
          value={password2}
          onChange={setPassword2}
          autoComplete="new-password"
          maxLength={32}
          testId="register-password2"
        />
        <TextField
          label={t('auth.fields.invite')}
          placeholder={t('auth.fields.invitePlaceholder')}
          value={inviteCode}
          onChange={setInviteCode}
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          maxLength={32}
          testId="register-invite"
        />
        {isCaptchaOn && <CaptchaField state={captcha} />}
        {termsVersion > 0 && (
          <label className="auth-terms" data-testid="register-terms">
            <input
              type="checkbox"
              checked={isTermsAccepted}
              onChange={(event) => setIsTermsAccepted(event.target.checked)}
              data-testid="register-terms-checkbox"
            />
            <span>
              {/* why: a new tab, so what was typed here stays while the texts are read. */}
              <Trans
                i18nKey="terms.agree"
                components={{
                  terms: (
                    // biome-ignore lint/a11y/useAnchorContent: Trans puts the link's text in
                    <a
                      href={`#${PATHS.terms}`}
                      target="_blank"
                      rel="noopener"
                      data-testid="register-terms-link"
                    />
                  ),
                  privacy: (
                    // biome-ignore lint/a11y/useAnchorContent: Trans puts the link's text in
                    <a
                      href={`#${PATHS.privacy}`}
                      target="_blank"
                      rel="noopener"
                      data-testid="register-privacy-link"
                    />
                  ),
                }}
              />
            </span>
          </label>
        )}
        <SubmitButton isBusy={isBusy} testId="register-submit">
          {t('auth.register.submit')}
        </SubmitButton>
      </form>
      <p className="auth-switch">
        <span>{t('auth.register.haveAccount')}</span>
        <Link to={PATHS.login} replace data-testid="to-login">
          {t('auth.register.toLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
