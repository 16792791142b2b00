import { Alert, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSession } from '../../../shared/session.tsx';
import { AdlTab } from './adl.tsx';
import { FundingTab } from './funding.tsx';
import { HealthTab } from './health.tsx';
import { InsuranceTab } from './insurance.tsx';
import { LiquidationsTab } from './liquidations.tsx';
import { MarketsTab } from './markets.tsx';

const TABS = ['markets', 'insurance', 'liquidations', 'adl', 'funding', 'health'] as const;
type PerpTab = (typeof TABS)[number];

/**
 * Perpetual contracts: the markets with their live figures, the insurance funds' movements,
 * liquidations, auto-deleveraging, funding events and the invariant check. Each tab has its own
 * address (`/perp/health`), so a tab can be linked to. Changes need `perp.manage`; the server
 * audits them. Marks, funding rates and liquidations come from the index, the book and the rules:
 * no staff action sets them.
 */
export function PerpetualPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab } = useParams();
  const canManage = useSession().can('perp.manage');
  const active: PerpTab = TABS.find((key) => key === tab) ?? 'markets';
  const content: Record<PerpTab, ReactNode> = {
    markets: <MarketsTab canManage={canManage} />,
    insurance: <InsuranceTab />,
    liquidations: <LiquidationsTab />,
    adl: <AdlTab />,
    funding: <FundingTab />,
    health: <HealthTab />,
  };
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('perp.title')}
      </Typography.Title>
      <Alert type="info" showIcon title={t('perp.notSettable')} style={{ marginBottom: 8 }} />
      {!canManage && <Typography.Paragraph type="secondary">{t('perp.readOnly')}</Typography.Paragraph>}
      <Tabs
        destroyOnHidden
        activeKey={active}
        onChange={(key) => navigate(`/perp/${key}`)}
        items={TABS.map((key) => ({ key, label: t(`perp.tabs.${key}`), children: content[key] }))}
      />
    </>
  );
}
