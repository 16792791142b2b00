import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session.tsx';
import { ContractsTab } from './contracts.tsx';
import { ExposureTab } from './exposure.tsx';
import { PnlTab } from './pnl.tsx';
import { ProductsTab } from './products.tsx';
import { TrialTab } from './trial.tsx';

/**
 * Delivery contracts: products, periods and ratios, trial money, open exposure, the house's
 * profit and loss, and every contract (read only). Editing needs `delivery.manage`; the server
 * audits every change.
 */
export function DeliveryPage() {
  const { t } = useTranslation();
  const canManage = useSession().can('delivery.manage');
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('delivery.title')}
      </Typography.Title>
      {!canManage && <Typography.Paragraph type="secondary">{t('delivery.readOnly')}</Typography.Paragraph>}
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'products',
            label: t('delivery.tabs.products'),
            children: <ProductsTab canManage={canManage} />,
          },
          { key: 'trial', label: t('delivery.tabs.trial'), children: <TrialTab canManage={canManage} /> },
          { key: 'exposure', label: t('delivery.tabs.exposure'), children: <ExposureTab /> },
          { key: 'pnl', label: t('delivery.tabs.pnl'), children: <PnlTab /> },
          { key: 'contracts', label: t('delivery.tabs.contracts'), children: <ContractsTab /> },
        ]}
      />
    </>
  );
}
