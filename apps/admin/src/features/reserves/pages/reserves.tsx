import { AddReserveBody, type AdminSnapshot, RESERVE_CHAINS } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { useSession } from '../../../shared/session.tsx';
import { addReserve } from '../api/add-reserve.ts';
import { listSnapshots } from '../api/list-snapshots.ts';
import { publishSnapshot } from '../api/publish-snapshot.ts';

const KEY = ['reserves', 'snapshots'];

/** An amount in atoms (decimal string) as a decimal for reading. */
function atoms(value: string): string {
  const n = BigInt(value);
  return trimDecimal(`${n / 100_000_000n}.${(n % 100_000_000n).toString().padStart(8, '0')}`);
}

/**
 * Proof of reserves: every snapshot (pending while reserve entries are attached, then published
 * with its signed header), the message each entry must sign, the entries with their checked
 * signatures, and the publication key's fingerprint. Adding an entry and publishing need
 * `reserves.manage`; the server checks every signature and audits every change.
 */
export function ReservesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canManage = useSession().can('reserves.manage');
  const snapshots = useQuery({
    queryKey: KEY,
    queryFn: listSnapshots,
  });
  const [adding, setAdding] = useState<AdminSnapshot | null>(null);
  const publish = useMutation({
    mutationFn: (id: number) => publishSnapshot(id),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: KEY });
      message.success(t('reserves.published', { count: result.published }));
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('reserves.title')}
      </Typography.Title>
      {snapshots.data && (
        <Typography.Paragraph type="secondary" data-testid="reserves-fingerprint">
          {t('reserves.fingerprint', { fingerprint: snapshots.data.fingerprint })}
        </Typography.Paragraph>
      )}
      {snapshots.isError && <Alert type="error" title={snapshots.error.message} />}
      <Table<AdminSnapshot>
        rowKey="id"
        loading={snapshots.isLoading}
        dataSource={snapshots.data?.list ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('common.empty') }}
        expandable={{
          expandedRowRender: (row) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Typography.Text code copyable>
                {row.message}
              </Typography.Text>
              <Table
                size="small"
                rowKey={(entry) => `${entry.chain}:${entry.address}:${entry.asset}`}
                dataSource={row.reserves}
                pagination={false}
                locale={{ emptyText: t('reserves.noEntries') }}
                columns={[
                  { title: t('reserves.asset'), dataIndex: 'asset' },
                  { title: t('reserves.chain'), dataIndex: 'chain' },
                  { title: t('reserves.address'), dataIndex: 'address' },
                  { title: t('reserves.balance'), render: (_, entry) => atoms(entry.balance) },
                  { title: t('reserves.height'), dataIndex: 'height' },
                  {
                    title: t('reserves.signature'),
                    render: (_, entry) => (
                      <Space>
                        <Tag color="green">{t('reserves.verified', { scheme: entry.scheme })}</Tag>
                        {entry.simulated && <Tag color="orange">{t('reserves.simulated')}</Tag>}
                      </Space>
                    ),
                  },
                ]}
              />
            </Space>
          ),
        }}
        columns={[
          { title: t('reserves.id'), dataIndex: 'id' },
          { title: t('reserves.takenAt'), render: (_, row) => formatTime(row.takenAt) },
          {
            title: t('reserves.status'),
            render: (_, row) => (
              <Space>
                <Tag color={row.status === 'published' ? 'green' : 'gold'}>
                  {t(`reserves.statuses.${row.status}`)}
                </Tag>
                {row.monthly && <Tag>{t('reserves.monthly')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('reserves.liabilities'),
            render: (_, row) => (
              <Descriptions
                size="small"
                column={1}
                items={row.assets.map((asset, i) => ({
                  key: asset,
                  label: asset,
                  children: atoms(row.rootSums[i] ?? '0'),
                }))}
              />
            ),
          },
          { title: t('reserves.entries'), render: (_, row) => row.reserves.length },
          {
            title: '',
            render: (_, row) =>
              canManage &&
              row.status === 'pending' && (
                <Space>
                  <Button size="small" onClick={() => setAdding(row)}>
                    {t('reserves.add')}
                  </Button>
                  <Button
                    size="small"
                    type="primary"
                    loading={publish.isPending}
                    onClick={() => publish.mutate(row.id)}
                  >
                    {t('reserves.publish')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {adding && <EntryForm snapshot={adding} onClose={() => setAdding(null)} />}
    </Space>
  );
}

/** Attaches a reserve entry; the server refuses a signature that does not verify over the message. */
function EntryForm({ snapshot, onClose }: { snapshot: AdminSnapshot; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const form = useSchemaForm(AddReserveBody, {
    defaultValues: {
      asset: snapshot.assets[0] ?? '',
      chain: 'bitcoin',
      address: '',
      balance: '',
      height: 0,
      blockHash: '',
      sig: '',
    },
  });
  const { control } = form;
  const save = useMutation({
    mutationFn: (values: z.output<typeof AddReserveBody>) => addReserve(snapshot.id, values),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: KEY });
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Drawer
      open
      size={520}
      title={t('reserves.addTitle', { id: snapshot.id })}
      onClose={onClose}
      footer={
        <Space>
          <Button type="primary" htmlType="submit" form={formId} loading={save.isPending}>
            {t('reserves.add')}
          </Button>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
        </Space>
      }
    >
      <Alert
        type="info"
        title={t('reserves.signThis')}
        description={snapshot.message}
        style={{ marginBottom: 16 }}
      />
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <FormField control={control} name="asset" label={t('reserves.asset')}>
          <Select options={snapshot.assets.map((asset) => ({ value: asset, label: asset }))} />
        </FormField>
        <FormField control={control} name="chain" label={t('reserves.chain')}>
          <Select options={RESERVE_CHAINS.map((chain) => ({ value: chain, label: chain }))} />
        </FormField>
        <FormField control={control} name="address" label={t('reserves.address')}>
          <Input />
        </FormField>
        <FormField control={control} name="balance" label={t('reserves.balance')}>
          <Input inputMode="decimal" />
        </FormField>
        <FormField control={control} name="height" label={t('reserves.height')}>
          <Input inputMode="numeric" />
        </FormField>
        <FormField control={control} name="blockHash" label={t('reserves.blockHash')}>
          <Input />
        </FormField>
        <FormField control={control} name="sig" label={t('reserves.signature')} extra={t('reserves.sigHelp')}>
          <Input.TextArea rows={3} />
        </FormField>
      </SchemaFormView>
    </Drawer>
  );
}
