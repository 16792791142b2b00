import {
  AuditOutlined,
  BankOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DollarOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  FundOutlined,
  IdcardOutlined,
  LineChartOutlined,
  MailOutlined,
  NodeIndexOutlined,
  NotificationOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, Button, ConfigProvider, Layout, Menu, Select, Space, Spin, Typography } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { createHashRouter, Navigate, Outlet, RouterProvider, useLocation, useNavigate } from 'react-router';
import { setApiLanguage } from '../api/client.ts';
import { LoginPage } from '../features/staff/pages/login.tsx';
import { ADMIN_LANGUAGES, type AdminLanguage, rememberLanguage } from '../i18n/index.ts';
import { SessionProvider, useSession } from '../shared/session.tsx';

// why: each page is loaded when first opened, so the sign-in page does not wait for every table
// and form of the back office.
const DashboardPage = lazy(() =>
  import('../features/staff/pages/dashboard.tsx').then((m) => ({ default: m.DashboardPage })),
);
const UsersPage = lazy(() =>
  import('../features/users/pages/users.tsx').then((m) => ({ default: m.UsersPage })),
);
const UserDetailPage = lazy(() =>
  import('../features/users/pages/user-detail.tsx').then((m) => ({ default: m.UserDetailPage })),
);
const DepositsPage = lazy(() =>
  import('../features/wallet/pages/deposits.tsx').then((m) => ({ default: m.DepositsPage })),
);
const WithdrawalsPage = lazy(() =>
  import('../features/wallet/pages/withdrawals.tsx').then((m) => ({ default: m.WithdrawalsPage })),
);
const AdjustmentsPage = lazy(() =>
  import('../features/staff/pages/adjustments.tsx').then((m) => ({ default: m.AdjustmentsPage })),
);
const ConfigPage = lazy(() =>
  import('../features/wallet/pages/config.tsx').then((m) => ({ default: m.ConfigPage })),
);
const StaffPage = lazy(() =>
  import('../features/staff/pages/staff.tsx').then((m) => ({ default: m.StaffPage })),
);
const AuditPage = lazy(() =>
  import('../features/staff/pages/audit.tsx').then((m) => ({ default: m.AuditPage })),
);
const DeliveryPage = lazy(() =>
  import('../features/delivery/pages/delivery.tsx').then((m) => ({ default: m.DeliveryPage })),
);
const SpotPage = lazy(() => import('../features/spot/pages/spot.tsx').then((m) => ({ default: m.SpotPage })));
const PerpetualPage = lazy(() =>
  import('../features/perpetual/pages/perpetual.tsx').then((m) => ({ default: m.PerpetualPage })),
);
const ReservesPage = lazy(() =>
  import('../features/reserves/pages/reserves.tsx').then((m) => ({ default: m.ReservesPage })),
);
const IdentityPage = lazy(() =>
  import('../features/users/pages/identity.tsx').then((m) => ({ default: m.IdentityPage })),
);
const ContentPage = lazy(() =>
  import('../features/content/pages/content.tsx').then((m) => ({ default: m.ContentPage })),
);
const IndexSourcesPage = lazy(() =>
  import('../features/markets/pages/index-sources.tsx').then((m) => ({ default: m.IndexSourcesPage })),
);
const MiningPage = lazy(() =>
  import('../features/mining/pages/mining.tsx').then((m) => ({ default: m.MiningPage })),
);
const LaunchpadPage = lazy(() =>
  import('../features/launchpad/pages/launchpad.tsx').then((m) => ({ default: m.LaunchpadPage })),
);
const BroadcastsPage = lazy(() =>
  import('../features/content/pages/broadcasts.tsx').then((m) => ({ default: m.BroadcastsPage })),
);
const OutboxPage = lazy(() =>
  import('../features/content/pages/outbox.tsx').then((m) => ({ default: m.OutboxPage })),
);
const SupportChatPage = lazy(() =>
  import('../features/support/pages/support-chat.tsx').then((m) => ({ default: m.SupportChatPage })),
);

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spin style={{ margin: 64 }} />}>{children}</Suspense>;
}

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

const NAV = [
  { path: '/dashboard', key: 'dashboard', permission: 'dashboard.read', icon: <DashboardOutlined /> },
  { path: '/users', key: 'users', permission: 'users.read', icon: <UserOutlined /> },
  { path: '/deposits', key: 'deposits', permission: 'finance.read', icon: <BankOutlined /> },
  { path: '/withdrawals', key: 'withdrawals', permission: 'finance.read', icon: <SwapOutlined /> },
  { path: '/adjustments', key: 'adjustments', permission: 'finance.adjust', icon: <DollarOutlined /> },
  { path: '/delivery', key: 'delivery', permission: 'delivery.read', icon: <FieldTimeOutlined /> },
  { path: '/spot', key: 'spot', permission: 'spot.read', icon: <LineChartOutlined /> },
  { path: '/perp', key: 'perp', permission: 'perp.read', icon: <FundOutlined /> },
  { path: '/reserves', key: 'reserves', permission: 'reserves.read', icon: <SafetyCertificateOutlined /> },
  { path: '/identity', key: 'identity', permission: 'identity.read', icon: <IdcardOutlined /> },
  { path: '/content', key: 'content', permission: 'content.read', icon: <FileTextOutlined /> },
  { path: '/launchpad', key: 'launchpad', permission: 'launchpad.read', icon: <RocketOutlined /> },
  { path: '/mining', key: 'mining', permission: 'mining.read', icon: <ThunderboltOutlined /> },
  { path: '/broadcasts', key: 'broadcasts', permission: 'notices.broadcast', icon: <NotificationOutlined /> },
  { path: '/support', key: 'support', permission: 'support.chat', icon: <CustomerServiceOutlined /> },
  { path: '/outbox', key: 'outbox', permission: 'mail.read', icon: <MailOutlined /> },
  { path: '/index-sources', key: 'indexSources', permission: 'config.read', icon: <NodeIndexOutlined /> },
  { path: '/config', key: 'config', permission: 'config.read', icon: <SettingOutlined /> },
  { path: '/staff', key: 'staff', permission: 'staff.manage', icon: <TeamOutlined /> },
  { path: '/audit', key: 'audit', permission: 'audit.read', icon: <AuditOutlined /> },
] as const;

function Shell() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  if (!session.isSignedIn) return <Navigate to="/login" replace />;
  if (!session.me) return <Spin style={{ margin: 64 }} />;
  const items = NAV.filter((item) => session.can(item.permission)).map((item) => ({
    key: item.path,
    icon: item.icon,
    label: t(`menu.${item.key}`),
  }));
  const selected = NAV.find((item) => location.pathname.startsWith(item.path))?.path ?? '/dashboard';
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider theme="light" width={220} breakpoint="lg" collapsedWidth={56}>
        <Typography.Title level={5} style={{ padding: '16px 20px', margin: 0 }}>
          {t('app.title')}
        </Typography.Title>
        <Menu mode="inline" selectedKeys={[selected]} items={items} onClick={({ key }) => navigate(key)} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: '#fff',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            gap: 16,
          }}
        >
          <Space>
            <Typography.Text>
              {session.me.username} · {t(`staff.roles.${session.me.role}`)}
            </Typography.Text>
            <LanguageSelect value={i18n.language as AdminLanguage} />
            <Button onClick={() => void session.signOut()}>{t('app.logout')}</Button>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Loading>
            <Outlet />
          </Loading>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

function LanguageSelect({ value }: { value: AdminLanguage }) {
  const { i18n, t } = useTranslation();
  return (
    <Select
      aria-label={t('app.language')}
      value={value}
      style={{ width: 120 }}
      options={Object.entries(ADMIN_LANGUAGES).map(([code, label]) => ({ value: code, label }))}
      onChange={(lang: AdminLanguage) => {
        rememberLanguage(lang);
        setApiLanguage(lang);
        void i18n.changeLanguage(lang);
      }}
    />
  );
}

const router = createHashRouter([
  { path: '/login', element: <LoginPage /> },
  {
    path: '/',
    element: <Shell />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'users/:id', element: <UserDetailPage /> },
      { path: 'deposits', element: <DepositsPage /> },
      { path: 'withdrawals', element: <WithdrawalsPage /> },
      { path: 'adjustments', element: <AdjustmentsPage /> },
      { path: 'delivery', element: <DeliveryPage /> },
      { path: 'spot', element: <SpotPage /> },
      { path: 'perp/:tab?', element: <PerpetualPage /> },
      { path: 'reserves', element: <ReservesPage /> },
      { path: 'identity', element: <IdentityPage /> },
      { path: 'content', element: <ContentPage /> },
      { path: 'launchpad', element: <LaunchpadPage /> },
      { path: 'mining', element: <MiningPage /> },
      { path: 'broadcasts', element: <BroadcastsPage /> },
      { path: 'outbox', element: <OutboxPage /> },
      { path: 'support', element: <SupportChatPage /> },
      { path: 'index-sources', element: <IndexSourcesPage /> },
      { path: 'config', element: <ConfigPage /> },
      { path: 'staff', element: <StaffPage /> },
      { path: 'audit', element: <AuditPage /> },
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
]);

export function App() {
  const { i18n } = useTranslation();
  // why: useTranslation re-renders on a language change; the API client follows it.
  setApiLanguage(i18n.language);
  return (
    <ConfigProvider
      locale={i18n.language === 'zh-CN' ? zhCN : enUS}
      theme={{ token: { colorPrimary: '#1f6feb' } }}
    >
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <RouterProvider router={router} />
          </SessionProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
