import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session.tsx';
import { BookTab } from './book.tsx';
import { MakerTab } from './maker.tsx';
import { MarketsTab } from './markets.tsx';
import { OrdersTab } from './orders.tsx';

/**
 * Spot markets: their settings (create, edit, halt, resume), a market's live book and trades, a
 * user's orders, and the market maker's and demo traders' settings. Changes need `spot.manage`;
 * the server audits every change.
 */
export function SpotPage() {
  const { t } = useTranslation();
  const canManage = useSession().can('spot.manage');
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('spot.title')}
      </Typography.Title>
      {!canManage && <Typography.Paragraph type="secondary">{t('spot.readOnly')}</Typography.Paragraph>}
      <Tabs
        destroyOnHidden
        items={[
          { key: 'markets', label: t('spot.tabs.markets'), children: <MarketsTab canManage={canManage} /> },
          { key: 'book', label: t('spot.tabs.book'), children: <BookTab /> },
          { key: 'orders', label: t('spot.tabs.orders'), children: <OrdersTab /> },
          { key: 'maker', label: t('spot.tabs.maker'), children: <MakerTab canManage={canManage} /> },
        ]}
      />
    </>
  );
}
