import { AdminMiningProductBody, type MiningProduct } from '@bourse/shared/api';
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
import { z } from 'zod';
import { useSession } from '../../../app/session.tsx';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { createProduct } from '../api/create-product.ts';
import { fundPool } from '../api/fund-pool.ts';
import { listOrders } from '../api/list-orders.ts';
import { listPools } from '../api/list-pools.ts';
import { listProducts } from '../api/list-products.ts';
import { setProductStatus } from '../api/set-product-status.ts';

/** An optional amount left blank means its default ('0'), as the server reads an absent one. */
const blankAsZero = (value: unknown) => (value === '' ? '0' : value);

/** The new-machine form: the request schema, with blank optional amounts read as zero. */
const ProductFields = AdminMiningProductBody.extend({
  dailyQ: z.preprocess(blankAsZero, AdminMiningProductBody.shape.dailyQ),
  dailyValue: z.preprocess(blankAsZero, AdminMiningProductBody.shape.dailyValue),
  minHold: z.preprocess(blankAsZero, AdminMiningProductBody.shape.minHold),
});

const EMPTY = {
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
} as const;

const upperCase = (value: string) => value.toUpperCase();

function ProductDrawer({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const form = useSchemaForm(ProductFields, { defaultValues: EMPTY });
  const { control } = form;
  const [type, incomeType, coin, minReferrals] = form.watch(['type', 'incomeType', 'coin', 'minReferrals']);
  const save = useMutation({
    mutationFn: async (values: z.output<typeof ProductFields>) => {
      const created = await createProduct(values);
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
  const submit = form.handleSubmit((values) => save.mutate(values));
  return (
    <Drawer
      open
      width={720}
      title={t('mining.newProduct')}
      onClose={onClose}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
          {t('mining.saveDraft')}
        </Button>
      }
    >
      <SchemaFormView onSubmit={submit}>
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          {Number(minReferrals) > 0 && <Alert type="warning" showIcon title={t('mining.referralWarning')} />}
          <div style={grid}>
            <FormField control={control} name="name" label={t('mining.name')} />
            <FormField control={control} name="type" label={t('mining.type')}>
              <Segmented
                options={[
                  { value: 'sole', label: t('mining.types.sole') },
                  { value: 'shared', label: t('mining.types.shared') },
                ]}
              />
            </FormField>
            <FormField control={control} name="feeHashrate" label={t('mining.feeHashrate')}>
              <Input suffix="USDT" />
            </FormField>
            <FormField control={control} name="feeElectricityDay" label={t('mining.feeElectricityDay')}>
              <Input suffix="USDT" />
            </FormField>
            <FormField control={control} name="feeManagement" label={t('mining.feeManagement')}>
              <Input suffix="USDT" />
            </FormField>
            <FormField control={control} name="coin" label={t('mining.coin')} normalize={upperCase} />
            <FormField control={control} name="incomeType" label={t('mining.income')}>
              <Segmented
                options={[
                  { value: 'constant', label: t('mining.incomes.constant') },
                  { value: 'value', label: t('mining.incomes.value') },
                ]}
              />
            </FormField>
            {incomeType === 'constant' ? (
              <FormField control={control} name="dailyQ" label={t('mining.dailyQ')}>
                <Input suffix={coin} />
              </FormField>
            ) : (
              <FormField control={control} name="dailyValue" label={t('mining.dailyValue')}>
                <Input suffix="USDT" />
              </FormField>
            )}
            <FormField control={control} name="days" label={t('mining.days')}>
              <InputNumber min={1} max={3650} />
            </FormField>
            <FormField control={control} name="capacity" label={t('mining.capacity')}>
              <InputNumber min={1} />
            </FormField>
            {type === 'shared' && (
              <>
                <FormField control={control} name="minShareBp" label={t('mining.minShare')}>
                  <InputNumber min={1} max={10000} suffix="bp" />
                </FormField>
                <FormField control={control} name="stepBp" label={t('mining.step')}>
                  <InputNumber min={1} max={10000} suffix="bp" />
                </FormField>
              </>
            )}
            <FormField control={control} name="holdCoin" label={t('mining.holdCoin')} normalize={upperCase} />
            <FormField control={control} name="minHold" label={t('mining.minHold')} />
            <FormField control={control} name="minReferrals" label={t('mining.minReferrals')}>
              <InputNumber min={0} max={1000} />
            </FormField>
            <FormField control={control} name="maxOrders" label={t('mining.maxOrders')}>
              <InputNumber min={1} max={1000} />
            </FormField>
            <FormField control={control} name="releaseDelayDays" label={t('mining.releaseDelay')}>
              <InputNumber min={0} max={365} />
            </FormField>
          </div>
        </Space>
      </SchemaFormView>
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
