import type { QueryClient } from '@tanstack/react-query';
import '../components/user.css';
import { useTranslation } from 'react-i18next';
import { userInfoQueryOptions, useUserInfo } from '../../../api/get-user-info.ts';
import { PATHS } from '../../../shared/paths.ts';
import {
  IconDevices,
  IconHistory,
  IconKey,
  IconLock,
  IconMail,
  IconPhone,
  IconShield,
} from '../../../shared/ui/icons.tsx';
import { Menu, MenuItem } from '../../../shared/ui/menu.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { securityQueryOptions, useSecurityOverview } from '../api/get-security.ts';
import { PasswordStatus } from '../components/password-status.tsx';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(userInfoQueryOptions());
  void client.prefetchQuery(securityQueryOptions());
}

/**
 * Security centre: both passwords, two-factor codes, the anti-phishing code, the bound e-mail and
 * mobile, sessions and devices, the login log, and where the last login came from.
 */
export default function SecurityPage() {
  const { t, i18n } = useTranslation();
  const user = useUserInfo();
  const security = useSecurityOverview();
  const lastLogin = user.data?.last_login_time
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        user.data.last_login_time * 1000,
      )
    : null;
  const s = security.data;
  const onOff = (isOn: boolean) => (
    <span className={isOn ? 'status-tag is-on' : 'status-tag is-off'}>
      {isOn ? t('security.on') : t('security.off')}
    </span>
  );

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
            <MenuItem
              icon={IconShield}
              label={t('security.items.twoFactor')}
              value={s ? onOff(s.totp_enabled) : undefined}
              to={PATHS.twoFactor}
              testId="security-two-factor"
            />
            <MenuItem
              icon={IconShield}
              label={t('security.items.antiPhishing')}
              value={s ? onOff(s.anti_phishing !== '') : undefined}
              to={PATHS.antiPhishing}
              testId="security-anti-phishing"
            />
          </Menu>
          <Menu title={t('security.sections.contacts')}>
            <MenuItem
              icon={IconMail}
              label={t('security.items.email')}
              value={s ? s.email || t('common.notSet') : undefined}
              to={PATHS.bindEmail}
              testId="security-email"
            />
            <MenuItem
              icon={IconPhone}
              label={t('security.items.mobile')}
              value={s ? s.phone || t('common.notSet') : undefined}
              to={PATHS.bindMobile}
              testId="security-mobile"
            />
          </Menu>
          <Menu title={t('security.sections.activity')}>
            <MenuItem
              icon={IconDevices}
              label={t('security.items.sessions')}
              to={PATHS.sessions}
              testId="security-sessions"
            />
            <MenuItem
              icon={IconHistory}
              label={t('security.items.loginLog')}
              to={PATHS.loginLog}
              testId="security-login-log"
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
