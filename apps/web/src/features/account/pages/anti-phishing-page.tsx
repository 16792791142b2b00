import '../components/account.css';
import { ANTI_PHISHING_RE } from '@bourse/shared/api';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useSecurity, useSetAntiPhishing } from '../api/account.ts';

/** `/Index/antiphishing`: the code shown in every e-mail Bourse sends and atop notifications. */
export default function AntiPhishingPage() {
  const { t } = useTranslation();
  const goBack = useBack();
  const security = useSecurity();
  const save = useSetAntiPhishing();
  const [code, setCode] = useState('');
  const current = security.data?.anti_phishing;
  useEffect(() => {
    if (current) setCode(current);
  }, [current]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ANTI_PHISHING_RE.test(code.trim())) return void showToast(t('antiPhishing.rule'));
    save.mutate(code.trim(), {
      onSuccess: (body) => {
        showToast(body.msg, 'success');
        goBack();
      },
    });
  }

  return (
    <Page title={t('antiPhishing.title')}>
      <form className="account-form" onSubmit={submit} noValidate>
        <p className="note">{t('antiPhishing.note')}</p>
        <TextField
          label={t('antiPhishing.code')}
          placeholder={t('antiPhishing.rule')}
          value={code}
          onChange={setCode}
          autoComplete="off"
          autoCapitalize="off"
          maxLength={20}
          testId="anti-phishing-code"
        />
        <SubmitButton isBusy={save.isPending} testId="anti-phishing-save" className="form-actions">
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </Page>
  );
}
