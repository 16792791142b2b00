import '../components/user.css';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { LoginPasswordForm } from '../components/login-password-form.tsx';

/**
 * `/Index/spwd`, the spec's "Set login password". Every account gets its login password at
 * registration, so setting one means replacing it: the same form as `/Index/respwd`.
 */
export default function SetPasswordPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('security.setPassword.title')}>
      <LoginPasswordForm testIdPrefix="spwd" />
    </Page>
  );
}
