import '../components/auth.css';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { bindEmail } from '../api/bind-email.ts';
import { EmailCodeFields } from '../components/email-code-form.tsx';

/** `/Index/bindemail`: bind (or change) the account's e-mail with a code mailed to it. */
export default function BindEmailPage() {
  const { t } = useTranslation();
  const goBack = useBack();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    if (!code.trim()) return void showToast(t('emailCode.codeRequired'));
    setIsBusy(true);
    try {
      const body = await bindEmail({ email: email.trim(), code: code.trim() });
      showToast(body.msg, 'success');
      queryClient.invalidateQueries({ queryKey: ['account', 'security'] });
      queryClient.invalidateQueries({ queryKey: userInfoQueryKey });
      goBack();
    } catch {
      setIsBusy(false);
    }
  }

  return (
    <Page title={t('emailCode.bindTitle')}>
      <form className="auth-form account-bind" onSubmit={submit} noValidate>
        <p className="note">{t('emailCode.bindNote')}</p>
        <EmailCodeFields
          sendPath="/user/sendemailcode"
          email={email}
          onEmail={setEmail}
          code={code}
          onCode={setCode}
          testIdPrefix="bind-email"
        />
        <SubmitButton isBusy={isBusy} testId="bind-email-submit">
          {t('common.confirm')}
        </SubmitButton>
      </form>
    </Page>
  );
}
