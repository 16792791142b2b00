import type { MiningProduct } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Drawer,
  Input,
  InputNumber,
  Modal,
  Segmented,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session.tsx';
import { Field } from '../../../shared/field.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { createProduct } from '../api/create-product.ts';
import { fundPool } from '../api/fund-pool.ts';
import { listOrders } from '../api/list-orders.ts';
import { listPools } from '../api/list-pools.ts';
import { listProducts } from '../api/list-products.ts';
import { setProductStatus } from '../api/set-product-status.ts';

interface Draft {
  name: string;
  type: 'sole' | 'shared';
  feeHashrate: string;
  feeElectricityDay: string;
  feeManagement: string;
  coin: string;
  incomeType: 'constant' | 'value';
  dailyQ: string;
  dailyValue: string;
  days: number;
  capacity: number;
  minShareBp: number;
  stepBp: number;
  holdCoin: string;
  minHold: string;
  minReferrals: number;
  maxOrders: number;
  releaseDelayDays: number;
}

const EMPTY: Draft = {
  name: '',
  type: 'sole',
  feeHashrate: '',
  feeElectricityDay: '',
  feeManagement: '',
  coin: 'BTC',
  incomeType: 'constant',
  dailyQ: '',
  dailyValue: '',
  days: 30,
  capacity: 10,
  minShareBp: 1000,
  stepBp: 500,
  holdCoin: 'USDT',
  minHold: '0',
  minReferrals: 0,
  maxOrders: 1,
  releaseDelayDays: 1,
};

function ProductDrawer({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [v, setV] = useState<Draft>(EMPTY);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setV((d) => ({ ...d, [key]: value }));
  const save = useMutation({
    mutationFn: async () => {
      const created = await createProduct({
        ...v,
        dailyQ: v.dailyQ || '0',
        dailyValue: v.dailyValue || '0',
        minHold: v.minHold || '0',
      });
      // why: capacity is fixed from here on; the machine goes on sale at once.
      await setProductStatus(created.id, 'normal');
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['mining'] });
      message.success(t('mining.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const grid = { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 } as const;
  return (
    <Drawer
      open
      width={720}
      title={t('mining.newProduct')}
      onClose={onClose}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => save.mutate()}>
          {t('mining.saveDraft')}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        {v.minReferrals > 0 && <Alert type="warning" showIcon title={t('mining.referralWarning')} />}
        <div style={grid}>
          <Field label={t('mining.name')}>
            <Input value={v.name} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <Field label={t('mining.type')}>
            <Segmented
              value={v.type}
              onChange={(x) => set('type', x as Draft['type'])}
              options={[
                { value: 'sole', label: t('mining.types.sole') },
                { value: 'shared', label: t('mining.types.shared') },
              ]}
            />
          </Field>
          <Field label={t('mining.feeHashrate')}>
            <Input value={v.feeHashrate} onChange={(e) => set('feeHashrate', e.target.value)} suffix="USDT" />
          </Field>
          <Field label={t('mining.feeElectricityDay')}>
            <Input
              value={v.feeElectricityDay}
              onChange={(e) => set('feeElectricityDay', e.target.value)}
              suffix="USDT"
            />
          </Field>
          <Field label={t('mining.feeManagement')}>
            <Input
              value={v.feeManagement}
              onChange={(e) => set('feeManagement', e.target.value)}
              suffix="USDT"
            />
          </Field>
          <Field label={t('mining.coin')}>
            <Input value={v.coin} onChange={(e) => set('coin', e.target.value.toUpperCase())} />
          </Field>
          <Field label={t('mining.income')}>
            <Segmented
              value={v.incomeType}
              onChange={(x) => set('incomeType', x as Draft['incomeType'])}
              options={[
                { value: 'constant', label: t('mining.incomes.constant') },
                { value: 'value', label: t('mining.incomes.value') },
              ]}
            />
          </Field>
          {v.incomeType === 'constant' ? (
            <Field label={t('mining.dailyQ')}>
              <Input value={v.dailyQ} onChange={(e) => set('dailyQ', e.target.value)} suffix={v.coin} />
            </Field>
          ) : (
            <Field label={t('mining.dailyValue')}>
              <Input value={v.dailyValue} onChange={(e) => set('dailyValue', e.target.value)} suffix="USDT" />
            </Field>
          )}
          <Field label={t('mining.days')}>
            <InputNumber min={1} max={3650} value={v.days} onChange={(n) => set('days', n ?? 1)} />
          </Field>
          <Field label={t('mining.capacity')}>
            <InputNumber min={1} value={v.capacity} onChange={(n) => set('capacity', n ?? 1)} />
          </Field>
          {v.type === 'shared' && (
            <>
              <Field label={t('mining.minShare')}>
                <InputNumber
                  min={1}
                  max={10000}
                  suffix="bp"
                  value={v.minShareBp}
                  onChange={(n) => set('minShareBp', n ?? 1)}
                />
              </Field>
              <Field label={t('mining.step')}>
                <InputNumber
                  min={1}
                  max={10000}
                  suffix="bp"
                  value={v.stepBp}
                  onChange={(n) => set('stepBp', n ?? 1)}
                />
              </Field>
            </>
          )}
          <Field label={t('mining.holdCoin')}>
            <Input value={v.holdCoin} onChange={(e) => set('holdCoin', e.target.value.toUpperCase())} />
          </Field>
          <Field label={t('mining.minHold')}>
            <Input value={v.minHold} onChange={(e) => set('minHold', e.target.value)} />
          </Field>
          <Field label={t('mining.minReferrals')}>
            <InputNumber
              min={0}
              max={1000}
              value={v.minReferrals}
              onChange={(n) => set('minReferrals', n ?? 0)}
            />
          </Field>
          <Field label={t('mining.maxOrders')}>
            <InputNumber min={1} max={1000} value={v.maxOrders} onChange={(n) => set('maxOrders', n ?? 1)} />
          </Field>
          <Field label={t('mining.releaseDelay')}>
            <InputNumber
              min={0}
              max={365}
              value={v.releaseDelayDays}
              onChange={(n) => set('releaseDelayDays', n ?? 0)}
            />
          </Field>
        </div>
      </Space>
    </Drawer>
  );
}

function ProductsTab({ canManage }: { canManage: boolean }) {
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

function PoolsTab({ canFund }: { canFund: boolean }) {
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

function OrdersTab() {
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
