import type { MiningProduct } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trimDecimal } from '../../../shared/format.ts';
import { listProducts } from '../api/list-products.ts';
import { setProductStatus } from '../api/set-product-status.ts';
import { ProductDrawer } from './product-drawer.tsx';

export function ProductsTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [isCreating, setCreating] = useState(false);
  const products = useQuery({
    queryKey: ['mining', 'products'],
    queryFn: listProducts,
  });
  const status = useMutation({
    mutationFn: (a: { id: string; status: 'normal' | 'paused' }) => setProductStatus(a.id, a.status),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['mining'] });
      message.success(t('mining.done'));
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" title={t('mining.integrity')} />
      {canManage && (
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('mining.newProduct')}
        </Button>
      )}
      <Table<MiningProduct>
        rowKey="id"
        loading={products.isLoading}
        dataSource={products.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          { title: t('mining.name'), render: (_, p) => `${p.name} · ${t(`mining.types.${p.type}`)}` },
          { title: t('mining.price'), render: (_, p) => `${trimDecimal(p.price)} USDT` },
          {
            title: t('mining.output'),
            render: (_, p) =>
              `${trimDecimal(p.daily_output)} ${p.coin} · ${t(`mining.incomes.${p.income_type}`)}`,
          },
          { title: t('mining.days'), dataIndex: 'days' },
          {
            title: t('mining.capacityLeft'),
            render: (_, p) => `${trimDecimal(p.capacity_left)} / ${p.capacity}`,
          },
          { title: t('mining.status'), render: (_, p) => <Tag>{t(`mining.statuses.${p.status}`)}</Tag> },
          {
            title: t('mining.actions'),
            render: (_, p) =>
              canManage ? (
                p.status === 'paused' ? (
                  <Button size="small" onClick={() => status.mutate({ id: p.id, status: 'normal' })}>
                    {t('mining.resume')}
                  </Button>
                ) : (
                  <Button size="small" onClick={() => status.mutate({ id: p.id, status: 'paused' })}>
                    {t('mining.pause')}
                  </Button>
                )
              ) : null,
          },
        ]}
      />
      {isCreating && <ProductDrawer onClose={() => setCreating(false)} />}
    </Space>
  );
}
