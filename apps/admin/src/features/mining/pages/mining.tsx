import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session.tsx';
import { OrdersTab } from './orders.tsx';
import { PoolsTab } from './pools.tsx';
import { ProductsTab } from './products.tsx';

/**
 * The mining market: machines (a draft, then open, pause and resume), the output pools per coin
 * (warning under 7 days covered; finance funds them from the treasury with a ledger entry), and
 * orders with what each has earned. The server audits every write; nothing sets sold or earned.
 */
export function MiningPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('mining.title')}
      </Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'products',
            label: t('mining.tabs.products'),
            children: <ProductsTab canManage={session.can('mining.manage')} />,
          },
          {
            key: 'pools',
            label: t('mining.tabs.pools'),
            children: <PoolsTab canFund={session.can('mining.fund')} />,
          },
          { key: 'orders', label: t('mining.tabs.orders'), children: <OrdersTab /> },
        ]}
      />
    </>
  );
}
