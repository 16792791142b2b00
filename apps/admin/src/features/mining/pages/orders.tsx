import { useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { listOrders } from '../api/list-orders.ts';

export function OrdersTab() {
  const { t } = useTranslation();
  const orders = useQuery({
    queryKey: ['mining', 'orders'],
    queryFn: listOrders,
  });
  return (
    <Table
      rowKey="id"
      loading={orders.isLoading}
      dataSource={orders.data?.list ?? []}
      pagination={false}
      locale={{ emptyText: t('common.empty') }}
      columns={[
        { title: 'ID', dataIndex: 'id' },
        { title: t('mining.user'), render: (_, o) => `${o.username} (${o.user_id})` },
        { title: t('mining.name'), dataIndex: 'product' },
        { title: t('mining.share'), render: (_, o) => `${o.share_bp / 100}%` },
        { title: t('mining.price'), render: (_, o) => `${trimDecimal(o.price)} USDT` },
        {
          title: t('mining.period'),
          render: (_, o) => `${formatTime(o.start_at)} – ${formatTime(o.expire_at)}`,
        },
        { title: t('mining.stoppedDays'), dataIndex: 'stopped_days' },
        { title: t('mining.earned'), render: (_, o) => `${trimDecimal(o.earned)} ${o.coin}` },
        { title: t('mining.frozen'), render: (_, o) => `${trimDecimal(o.frozen)} ${o.coin}` },
      ]}
    />
  );
}
