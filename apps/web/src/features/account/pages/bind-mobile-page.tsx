import '../components/account.css';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useBindMobile, useSecurity } from '../api/account.ts';

/** `/Index/bindmobile`: bind a mobile number once (the login password confirms it). */
export default function BindMobilePage() {
  const { t } = useTranslation();
  const goBack = useBack();
  const security = useSecurity();
  const bind = useBindMobile();
  const [mobile, setMobile] = useState('');
  const [password, setPassword] = useState('');
  const bound = security.data?.phone;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\+?\d{6,15}$/.test(mobile.trim())) return void showToast(t('bindMobile.invalid'));
    if (!password) return void showToast(t('auth.validation.passwordRequired'));
    bind.mutate(
      { mobile: mobile.trim(), password },
      {
        onSuccess: (body) => {
          showToast(body.msg, 'success');
          goBack();
        },
      },
    );
  }

  return (
    <Page title={t('bindMobile.title')}>
      {bound ? (
        <p className="note account-form" data-testid="mobile-bound">
          {t('bindMobile.bound', { mobile: bound })}
        </p>
      ) : (
        <form className="account-form" onSubmit={submit} noValidate>
          <p className="note">{t('bindMobile.note')}</p>
          <TextField
            label={t('bindMobile.mobile')}
            placeholder={t('auth.fields.phonePlaceholder')}
            value={mobile}
            onChange={setMobile}
            type="tel"
            autoComplete="tel"
            maxLength={16}
            testId="bind-mobile"
          />
          <TextField
            label={t('auth.fields.password')}
            placeholder={t('auth.fields.passwordPlaceholder')}
            value={password}
            onChange={setPassword}
            type="password"
            autoComplete="current-password"
            maxLength={64}
            testId="bind-mobile-password"
          />
          <SubmitButton isBusy={bind.isPending} testId="bind-mobile-submit" className="form-actions">
            {t('common.confirm')}
          </SubmitButton>
        </form>
      )}
    </Page>
  );
}
