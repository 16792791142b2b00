import {
  type AdminContractFilter,
  AdminContractListQuery,
  type AdminContractRecord,
  CONTRACT_STATUSES,
  type IndexConstituent,
} from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime } from '../../../shared/format.ts';
import { fetchContract } from '../api/fetch-contract.ts';
import { listContracts } from '../api/list-contracts.ts';
import { blankAsAbsent, Pager, SignedAmount } from './common.tsx';
import { productsQuery } from './products.tsx';

/** Each source's price in an index tick, used or why dropped: what the contract's price was made of. */
function Constituents({ list }: { list: readonly IndexConstituent[] | null }) {
  const { t } = useTranslation();
  if (!list || list.length === 0) return '—';
  return (
    <Space orientation="vertical" size={0}>
      {list.map((c) => (
        <span key={c.source}>
          {c.source}: {c.price ?? '—'} · {formatTime(c.at)} ·{' '}
          {c.used
            ? t('delivery.constituentUsed')
            : `${t('delivery.constituentDropped')} (${c.reason ?? '—'})`}
        </span>
      ))}
    </Space>
  );
}

const ContractFilterFields = AdminContractListQuery.pick({
  status: true,
  symbol: true,
  funding: true,
}).extend({
  userId: blankAsAbsent(AdminContractListQuery.shape.userId),
});
const FUNDINGS = ['real', 'trial'] as const;

/** Every contract, filtered and paged, with its settlement data; read only. */
export function ContractsTab() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<AdminContractFilter>({ page: 1 });
  const [openId, setOpenId] = useState<string | null>(null);
  const contracts = useQuery({
    queryKey: ['delivery', 'contracts', filter],
    queryFn: () => listContracts(filter),
  });
  const products = useQuery(productsQuery);
  const form = useSchemaForm(ContractFilterFields, { defaultValues: { userId: '' } });
  const { control } = form;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" title={t('delivery.notEditable')} />
      <SchemaFormView
        layout="inline"
        onSubmit={form.handleSubmit((values) => setFilter({ ...values, page: 1 }))}
      >
        <FormField control={control} name="status" label={t('delivery.status')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={CONTRACT_STATUSES.map((v) => ({ value: v, label: t(`delivery.contractStatuses.${v}`) }))}
          />
        </FormField>
        <FormField control={control} name="symbol" label={t('delivery.symbol')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={(products.data ?? []).map((p) => ({ value: p.symbol, label: p.symbol }))}
          />
        </FormField>
        <FormField control={control} name="userId" label={t('delivery.userId')}>
          <Input allowClear inputMode="numeric" style={{ width: 140 }} />
        </FormField>
        <FormField control={control} name="funding" label={t('delivery.funding')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={FUNDINGS.map((v) => ({ value: v, label: t(`delivery.fundings.${v}`) }))}
          />
        </FormField>
        <Button type="primary" htmlType="submit">
          {t('delivery.filter')}
        </Button>
      </SchemaFormView>
      {contracts.isError && <Alert type="error" title={contracts.error.message} />}
      <Table<AdminContractRecord>
        rowKey="id"
        loading={contracts.isLoading}
        dataSource={contracts.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        onRow={(row) => ({ onClick: () => setOpenId(row.id), style: { cursor: 'pointer' } })}
        columns={[
          { title: '#', dataIndex: 'id' },
          { title: t('delivery.user'), render: (_, row) => `${row.username} #${row.userId}` },
          { title: t('delivery.symbol'), dataIndex: 'symbol' },
          { title: t('delivery.direction'), render: (_, row) => <Direction value={row.direction} /> },
          {
            title: t('delivery.period'),
            render: (_, row) => t('delivery.secondsValue', { seconds: row.period }),
          },
          { title: t('delivery.amount'), dataIndex: 'amount' },
          { title: t('delivery.funding'), render: (_, row) => t(`delivery.fundings.${row.funding}`) },
          { title: t('delivery.ratio'), dataIndex: 'ratio' },
          { title: t('delivery.status'), render: (_, row) => t(`delivery.contractStatuses.${row.status}`) },
          {
            title: t('delivery.result'),
            render: (_, row) => (row.result ? t(`delivery.results.${row.result}`) : '—'),
          },
          { title: t('delivery.profit'), render: (_, row) => <SignedAmount value={row.profit} /> },
          { title: t('delivery.openAt'), render: (_, row) => formatTime(row.openAt) },
        ]}
      />
      <Pager
        page={contracts.data?.page ?? filter.page}
        hasMore={contracts.data?.hasMore ?? false}
        onChange={(page) => setFilter({ ...filter, page })}
      />
      {openId && <ContractDrawer id={openId} onClose={() => setOpenId(null)} />}
    </Space>
  );
}

function Direction({ value }: { value: AdminContractRecord['direction'] }) {
  const { t } = useTranslation();
  return <Tag color={value === 'up' ? 'green' : 'red'}>{t(`delivery.directions.${value}`)}</Tag>;
}

function ContractDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const contract = useQuery({
    queryKey: ['delivery', 'contract', id],
    queryFn: () => fetchContract(id),
  });
  const c = contract.data;
  const text = (value: string | null) => value ?? '—';
  return (
    <Drawer
      open
      size={640}
      title={t('delivery.contractTitle', { id })}
      onClose={onClose}
      loading={contract.isLoading}
    >
      {contract.isError && <Alert type="error" title={contract.error.message} />}
      {c && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="info" title={t('delivery.notEditable')} />
          <Descriptions
            bordered
            size="small"
            column={1}
            items={[
              { label: t('delivery.user'), children: `${c.username} #${c.userId}` },
              { label: t('delivery.symbol'), children: c.symbol },
              { label: t('delivery.direction'), children: <Direction value={c.direction} /> },
              { label: t('delivery.period'), children: t('delivery.secondsValue', { seconds: c.period }) },
              { label: t('delivery.amount'), children: c.amount },
              { label: t('delivery.funding'), children: t(`delivery.fundings.${c.funding}`) },
              { label: t('delivery.grantId'), children: text(c.grantId) },
              { label: t('delivery.ratio'), children: c.ratio },
              { label: t('delivery.status'), children: t(`delivery.contractStatuses.${c.status}`) },
              { label: t('delivery.openPrice'), children: text(c.openPrice) },
              { label: t('delivery.openPriceAt'), children: formatTime(c.openPriceAt) },
              { label: t('delivery.openSource'), children: text(c.openSource) },
              { label: t('delivery.openConstituents'), children: <Constituents list={c.openConstituents} /> },
              { label: t('delivery.openAt'), children: formatTime(c.openAt) },
              { label: t('delivery.expiresAt'), children: formatTime(c.expiresAt) },
              { label: t('delivery.closePrice'), children: text(c.closePrice) },
              { label: t('delivery.closeAt'), children: formatTime(c.closeAt) },
              { label: t('delivery.closeSource'), children: text(c.closeSource) },
              {
                label: t('delivery.closeConstituents'),
                children: <Constituents list={c.closeConstituents} />,
              },
              { label: t('delivery.result'), children: c.result ? t(`delivery.results.${c.result}`) : '—' },
              { label: t('delivery.payout'), children: text(c.payout) },
              { label: t('delivery.profit'), children: <SignedAmount value={c.profit} /> },
              { label: t('delivery.settledAt'), children: formatTime(c.settledAt) },
              { label: t('delivery.createdAt'), children: formatTime(c.createdAt) },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}
