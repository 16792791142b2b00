import type { QueryClient } from '@tanstack/react-query';
import '../components/user.css';
import { LOCALE_NAMES } from '@bourse/i18n';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { userInfoQueryOptions, useUserInfo } from '../../../api/get-user-info.ts';
import { useChatUnread } from '../../../api/unread-chat.ts';
import { useLiveUnread } from '../../../api/unread-notices.ts';
import { getCurrentLocale } from '../../../shared/i18n/i18n.ts';
import { PATHS } from '../../../shared/paths.ts';
import { setUpDownMode, type UpDownMode, useUpDownMode } from '../../../shared/preferences/up-down.ts';
import {
  IconBell,
  IconBill,
  IconCertificate,
  IconCpu,
  IconDownload,
  IconGlobe,
  IconHeadset,
  IconHelp,
  IconIdCard,
  IconInfo,
  IconKey,
  IconLock,
  IconLogout,
  IconMegaphone,
  IconPalette,
  IconRocket,
  IconScale,
  IconShield,
  IconUser,
  IconWallet,
} from '../../../shared/ui/icons.tsx';
import { Menu, MenuItem } from '../../../shared/ui/menu.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useOpenOnlineSupport } from '../api/get-online-support-url.ts';
import { useLogout } from '../api/logout.ts';
import { PasswordStatus } from '../components/password-status.tsx';
import { ProfileHeader, ProfileHeaderSkeleton } from '../components/profile-header.tsx';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(userInfoQueryOptions());
}

const UP_DOWN_LABELS: Record<UpDownMode, string> = {
  'green-up': 'user.upDown.greenUp',
  'red-up': 'user.upDown.redUp',
};

export default function UserPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const upDown = useUpDownMode();
  const support = useOpenOnlineSupport();
  const logout = useLogout();
  const unread = useLiveUnread();
  const chatUnread = useChatUnread();

  // why: the sheet (with antd-mobile's popup, gesture and animation code) opens only on a tap;
  // loaded then, it stays out of the code the Me tab needs before its first paint.
  function chooseUpDown() {
    void import('antd-mobile/es/components/action-sheet').then(({ default: ActionSheet }) => {
      const handler = ActionSheet.show({
        extra: t('user.upDown.title'),
        cancelText: t('common.cancel'),
        actions: (Object.keys(UP_DOWN_LABELS) as UpDownMode[]).map((mode) => ({
          key: mode,
          text: t(UP_DOWN_LABELS[mode]),
          bold: mode === upDown,
          onClick: () => {
            setUpDownMode(mode);
            handler.close();
          },
        })),
      });
    });
  }

  return (
    <Page title={t('user.title')} hasBack={false}>
      {user.isPending ? (
        <ProfileHeaderSkeleton />
      ) : user.isError ? (
        <ErrorState message={user.error.message} onRetry={() => user.refetch()} />
      ) : (
        <ProfileHeader user={user.data} />
      )}

      <Menu title={t('user.sections.wallet')}>
        <MenuItem icon={IconWallet} label={t('user.menu.assets')} to={PATHS.assets} testId="menu-assets" />
        <MenuItem
          icon={IconScale}
          label={t('user.menu.reserves')}
          to={PATHS.reserves}
          testId="menu-reserves"
        />
        <MenuItem icon={IconUser} label={t('user.menu.invite')} to={PATHS.invite} testId="menu-invite" />
        <MenuItem
          icon={IconRocket}
          label={t('user.menu.launchpad')}
          to={PATHS.issueList}
          testId="menu-launchpad"
        />
        <MenuItem icon={IconCpu} label={t('user.menu.mining')} to={PATHS.mining} testId="menu-mining" />
      </Menu>

      <Menu title={t('user.sections.security')}>
        <MenuItem
          icon={IconBell}
          label={t('user.menu.notices')}
          value={
            unread > 0 ? (
              <span className="menu-badge" data-testid="notices-badge">
                {unread > 99 ? '99+' : unread}
              </span>
            ) : undefined
          }
          to={PATHS.notices}
          testId="menu-notices"
        />
        <MenuItem
          icon={IconIdCard}
          label={t('user.menu.identity')}
          value={user.data ? t(`user.realname.${user.data.realname_status}`) : undefined}
          to={PATHS.identity}
          testId="menu-identity"
        />
        <MenuItem
          icon={IconShield}
          label={t('user.menu.security')}
          to={PATHS.security}
          testId="menu-security"
        />
        <MenuItem
          icon={IconLock}
          label={t('user.menu.loginPassword')}
          to={PATHS.changePassword}
          testId="menu-login-password"
        />
        <MenuItem
          icon={IconKey}
          label={t('user.menu.withdrawPassword')}
          value={user.data ? <PasswordStatus isSet={Boolean(user.data.paypassword)} /> : undefined}
          to={PATHS.withdrawPassword}
          testId="menu-withdraw-password"
        />
      </Menu>

      <Menu title={t('user.sections.preferences')}>
        <MenuItem
          icon={IconGlobe}
          label={t('user.menu.language')}
          value={LOCALE_NAMES[getCurrentLocale()]}
          to={PATHS.language}
          testId="menu-language"
        />
        <MenuItem
          icon={IconPalette}
          label={t('user.upDown.title')}
          value={t(UP_DOWN_LABELS[upDown])}
          onClick={chooseUpDown}
          testId="menu-updown"
        />
      </Menu>

      <Menu title={t('user.sections.help')}>
        <MenuItem
          icon={IconHeadset}
          label={t('user.menu.support')}
          value={
            support.isPending ? (
              t('common.loading')
            ) : chatUnread > 0 ? (
              <span className="menu-badge" data-testid="chat-badge">
                {chatUnread > 99 ? '99+' : chatUnread}
              </span>
            ) : undefined
          }
          onClick={() => {
            if (!support.isPending) support.mutate();
          }}
          testId="menu-support"
        />
        <MenuItem
          icon={IconMegaphone}
          label={t('user.menu.announcements')}
          to={PATHS.announcements}
          testId="menu-announcements"
        />
        <MenuItem icon={IconHelp} label={t('user.menu.help')} to={PATHS.help} testId="menu-help" />
        <MenuItem icon={IconInfo} label={t('user.menu.aboutUs')} to={PATHS.aboutUs} testId="menu-about" />
        <MenuItem icon={IconCertificate} label={t('user.menu.msb')} to={PATHS.msb} testId="menu-msb" />
        <MenuItem
          icon={IconDownload}
          label={t('user.menu.download')}
          to={PATHS.appDownload}
          testId="menu-download"
        />
        <MenuItem icon={IconScale} label={t('terms.terms')} to={PATHS.terms} testId="menu-terms" />
        <MenuItem icon={IconShield} label={t('terms.privacy')} to={PATHS.privacy} testId="menu-privacy" />
        <MenuItem
          icon={IconBill}
          label={t('terms.whitepaper')}
          to={PATHS.whitepaper}
          testId="menu-whitepaper"
        />
      </Menu>

      <Button
        block
        size="large"
        fill="outline"
        color="danger"
        className="logout-button"
        loading={logout.isPending}
        disabled={logout.isPending}
        onClick={() => logout.mutate()}
        data-testid="logout"
      >
        <IconLogout /> {t('user.logout')}
      </Button>
    </Page>
  );
}
