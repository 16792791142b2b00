import '../components/user.css';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../api/get-user-info.ts';
import { PATHS } from '../../../shared/paths.ts';
import { IconKey, IconLock } from '../../../shared/ui/icons.tsx';
import { Menu, MenuItem } from '../../../shared/ui/menu.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { PasswordStatus } from '../components/password-status.tsx';

/** Security centre: both passwords with their status, and where the last login came from. */
export default function SecurityPage() {
  const { t, i18n } = useTranslation();
  const user = useUserInfo();
  const lastLogin = user.data?.last_login_time
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        user.data.last_login_time * 1000,
      )
    : null;

  return (
    <Page title={t('security.title')}>
      {user.isError ? (
        <ErrorState message={user.error.message} onRetry={() => user.refetch()} />
      ) : (
        <>
          <Menu>
            <MenuItem
              icon={IconLock}
              label={t('security.items.loginPassword')}
              value={<PasswordStatus isSet />}
              to={PATHS.changePassword}
              testId="security-login-password"
            />
            <MenuItem
              icon={IconKey}
              label={t('security.items.withdrawPassword')}
              value={user.data ? <PasswordStatus isSet={Boolean(user.data.paypassword)} /> : undefined}
              to={PATHS.withdrawPassword}
              testId="security-withdraw-password"
            />
          </Menu>
          {lastLogin && (
            <p className="page-footnote" data-testid="last-login">
              {t('security.lastLogin', { time: lastLogin, ip: user.data?.last_login_ip || '—' })}
            </p>
          )}
        </>
      )}
    </Page>
  );
}
