import {
  type AdminSpotOrder,
  type AdminSpotOrderFilter,
  AdminSpotOrderQuery,
  ORDER_STATUSES,
} from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { listOrders } from '../api/list-orders.ts';
import { marketsQuery } from './markets.tsx';

// why: an empty select means "any"; the schema checks anything else.
const blank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema);
const OrderFilterFields = AdminSpotOrderQuery.pick({ userId: true }).extend({
  symbol: blank(AdminSpotOrderQuery.shape.symbol),
  status: blank(AdminSpotOrderQuery.shape.status),
});

const STATUS_COLORS = { entrusted: 'blue', completed: 'green', revoked: 'default' } as const;

/** One user's spot orders, newest first, with what each still holds. */
export function OrdersTab() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<AdminSpotOrderFilter | null>(null);
  const markets = useQuery(marketsQuery);
  const orders = useQuery({
    queryKey: ['spot', 'orders', filter],
    queryFn: () => listOrders(filter ?? undefined),
    enabled: filter !== null,
  });
  const form = useSchemaForm(OrderFilterFields, { defaultValues: { userId: '' } });
  const { control } = form;
  const value = (v: string | null) => (v === null ? '—' : trimDecimal(v));
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <SchemaFormView
        layout="inline"
        onSubmit={form.handleSubmit((values) => setFilter({ ...values, page: 1 }))}
      >
        <FormField
          control={control}
          name="userId"
          label={t('spot.userId')}
          invalidText={t('spot.userIdRule')}
        >
          <Input allowClear inputMode="numeric" style={{ width: 140 }} />
        </FormField>
        <FormField control={control} name="symbol" label={t('spot.symbol')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={(markets.data ?? []).map((m) => ({ value: m.symbol, label: m.symbol }))}
          />
        </FormField>
        <FormField control={control} name="status" label={t('spot.status')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={ORDER_STATUSES.map((v) => ({ value: v, label: t(`spot.orderStatuses.${v}`) }))}
          />
        </FormField>
        <Button type="primary" htmlType="submit">
          {t('spot.search')}
        </Button>
      </SchemaFormView>
      {orders.isError && <Alert type="error" title={orders.error.message} />}
      {filter && (
        <>
          <Table<AdminSpotOrder>
            rowKey="id"
            loading={orders.isLoading}
            dataSource={orders.data?.list ?? []}
            pagination={false}
            scroll={{ x: true }}
            locale={{ emptyText: t('common.empty') }}
            columns={[
              { title: t('spot.orderId'), dataIndex: 'id' },
              { title: t('spot.symbol'), dataIndex: 'symbol' },
              {
                title: t('spot.side'),
                render: (_, row) => (
                  <Typography.Text type={row.side === 'buy' ? 'success' : 'danger'}>
                    {t(`spot.sides.${row.side}`)}
                  </Typography.Text>
                ),
              },
              { title: t('spot.type'), render: (_, row) => `${t(`spot.types.${row.type}`)} · ${row.tif}` },
              { title: t('spot.price'), render: (_, row) => value(row.price) },
              { title: t('spot.qty'), render: (_, row) => value(row.qty ?? row.quoteAmount) },
              { title: t('spot.filled'), render: (_, row) => value(row.filledQty) },
              { title: t('spot.turnover'), render: (_, row) => value(row.turnover) },
              { title: t('spot.fee'), render: (_, row) => `${value(row.fee)} ${row.feeCoin}` },
              { title: t('spot.held'), render: (_, row) => `${value(row.held)} ${row.holdCoin}` },
              {
                title: t('spot.status'),
                render: (_, row) => (
                  <Space size={4}>
                    <Tag color={STATUS_COLORS[row.status]}>{t(`spot.orderStatuses.${row.status}`)}</Tag>
                    {row.revokeReason && (
                      <Typography.Text type="secondary">{row.revokeReason}</Typography.Text>
                    )}
                  </Space>
                ),
              },
              { title: t('spot.createdAt'), render: (_, row) => formatTime(row.createdAt) },
            ]}
          />
          <Space>
            <Button
              disabled={filter.page <= 1}
              onClick={() => setFilter({ ...filter, page: filter.page - 1 })}
            >
              {t('spot.previous')}
            </Button>
            <Typography.Text>{t('spot.page', { page: filter.page })}</Typography.Text>
            <Button
              disabled={!orders.data?.hasMore}
              onClick={() => setFilter({ ...filter, page: filter.page + 1 })}
            >
              {t('spot.next')}
            </Button>
          </Space>
        </>
      )}
    </Space>
  );
}
