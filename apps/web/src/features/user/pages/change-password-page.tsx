import '../components/user.css';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { LoginPasswordForm } from '../components/login-password-form.tsx';

/** `/Index/respwd`: change the login password (current, new, confirmation). */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('security.changePassword.title')}>
      <LoginPasswordForm testIdPrefix="respwd" />
    </Page>
  );
}
