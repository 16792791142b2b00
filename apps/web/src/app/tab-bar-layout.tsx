import { type ComponentType, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { PATHS } from '../shared/paths.ts';
import { PageFallback } from '../shared/ui/lazy-fallback.tsx';
import { IconMarkets, IconTrade, IconUser } from '../shared/ui/shell-icons.tsx';

interface Tab {
  path: string;
  labelKey: string;
  testId: string;
  Icon: ComponentType<{ className?: string }>;
  /** Other tab-bar pages that belong to this tab (the assets page is reached from "Me"). */
  alsoActiveOn?: readonly string[];
}

const TABS: readonly Tab[] = [
  { path: PATHS.markets, labelKey: 'tabs.markets', testId: 'tab-markets', Icon: IconMarkets },
  {
    path: PATHS.trade,
    labelKey: 'tabs.trade',
    testId: 'tab-trade',
    Icon: IconTrade,
    alsoActiveOn: [PATHS.spotTrade],
  },
  {
    path: PATHS.user,
    labelKey: 'tabs.user',
    testId: 'tab-user',
    Icon: IconUser,
    alsoActiveOn: [PATHS.assets],
  },
];

/** Layout of the tab pages: content above, the three tabs fixed at the bottom. */
export function TabBarLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = pathname.toLowerCase();
  return (
    <div className="tab-layout">
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      <nav className="tab-bar" data-testid="tab-bar" aria-label={t('tabs.label')}>
        {TABS.map(({ path, labelKey, testId, Icon, alsoActiveOn = [] }) => {
          const isCurrent = current === path.toLowerCase();
          const isActive = isCurrent || alsoActiveOn.some((other) => current === other.toLowerCase());
          return (
            <Link
              key={path}
              to={path}
              replace={isCurrent}
              className={isActive ? 'tab-bar-item is-active' : 'tab-bar-item'}
              aria-current={isCurrent ? 'page' : undefined}
              data-testid={testId}
            >
              <Icon className="tab-bar-icon" />
              <span className="tab-bar-label">{t(labelKey)}</span>
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
