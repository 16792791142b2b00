import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trimDecimal } from '../../../shared/format.ts';
import { fundPool } from '../api/fund-pool.ts';
import { listPools } from '../api/list-pools.ts';

export function PoolsTab({ canFund }: { canFund: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [funding, setFunding] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const pools = useQuery({
    queryKey: ['mining', 'pools'],
    queryFn: listPools,
  });
  const fund = useMutation({
    mutationFn: (a: { coin: string; amount: string }) => fundPool(a.coin, a.amount),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['mining'] });
      setFunding(null);
      setAmount('');
      message.success(t('mining.done'));
    },
    onError: (error) => message.error(error.message),
  });
  const low = (pools.data?.list ?? []).filter((p) => p.warning);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {low.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('mining.lowPools', { coins: low.map((p) => p.coin).join(', ') })}
        />
      )}
      <Table
        rowKey="coin"
        loading={pools.isLoading}
        dataSource={pools.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('mining.coin'), dataIndex: 'coin' },
          { title: t('mining.balance'), render: (_, p) => trimDecimal(p.balance) },
          { title: t('mining.dailyNeed'), render: (_, p) => trimDecimal(p.daily) },
          {
            title: t('mining.daysCovered'),
            render: (_, p) =>
              p.days_covered === null ? '—' : <Tag color={p.warning ? 'red' : 'green'}>{p.days_covered}</Tag>,
          },
          {
            title: t('mining.actions'),
            render: (_, p) =>
              canFund ? (
                <Button size="small" onClick={() => setFunding(p.coin)}>
                  {t('mining.fund')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        open={funding !== null}
        title={t('mining.fundTitle', { coin: funding ?? '' })}
        onCancel={() => setFunding(null)}
        onOk={() => funding && fund.mutate({ coin: funding, amount })}
        confirmLoading={fund.isPending}
      >
        <Typography.Paragraph type="secondary">{t('mining.fundNote')}</Typography.Paragraph>
        <Input value={amount} onChange={(e) => setAmount(e.target.value)} suffix={funding ?? ''} />
      </Modal>
    </Space>
  );
}
