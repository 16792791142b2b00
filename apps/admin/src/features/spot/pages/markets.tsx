import { type AdminSpotMarket, CreateSpotMarketBody, EditSpotMarketBody } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { createMarket } from '../api/create-market.ts';
import { editMarket } from '../api/edit-market.ts';
import { haltMarket } from '../api/halt-market.ts';
import { listMarkets } from '../api/list-markets.ts';
import { resumeMarket } from '../api/resume-market.ts';

export const MARKETS_KEY = ['spot', 'markets'];
export const marketsQuery = {
  queryKey: MARKETS_KEY,
  queryFn: listMarkets,
};

/** A ratio as a percent for reading (`"0.001"` → `"0.1%"`), computed on the digits (exact). */
function percent(ratio: string): string {
  const [whole = '0', fraction = ''] = ratio.split('.');
  const padded = fraction.padEnd(2, '0');
  const integer = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = padded.slice(2).replace(/0+$/, '');
  return `${integer}${rest ? `.${rest}` : ''}%`;
}

/** Every spot market with its settings; owners create, edit, halt and resume them. */
export function MarketsTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const markets = useQuery(marketsQuery);
  const [editing, setEditing] = useState<AdminSpotMarket | 'new' | null>(null);
  const [switching, setSwitching] = useState<AdminSpotMarket | null>(null);
  const halting = switching?.status === 'open';
  const setStatus = useMutation({
    mutationFn: async ({ market, reason }: { market: AdminSpotMarket; reason: string }) => {
      return market.status === 'open'
        ? haltMarket(market.symbol, reason)
        : resumeMarket(market.symbol, reason);
    },
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: ['spot'] });
      message.success('revoked' in result ? t('spot.halted', { count: result.revoked }) : t('spot.resumed'));
      setSwitching(null);
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {canManage && (
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('spot.create')}
        </Button>
      )}
      {markets.isError && <Alert type="error" title={markets.error.message} />}
      <Table<AdminSpotMarket>
        rowKey="symbol"
        loading={markets.isLoading}
        dataSource={markets.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('spot.symbol'), dataIndex: 'symbol' },
          {
            title: t('spot.status'),
            render: (_, row) => (
              <Tag color={row.status === 'open' ? 'green' : 'red'}>{t(`spot.statuses.${row.status}`)}</Tag>
            ),
          },
          { title: t('spot.tickSize'), dataIndex: 'tickSize' },
          { title: t('spot.lotSize'), dataIndex: 'lotSize' },
          {
            title: t('spot.minNotional'),
            render: (_, row) => `${trimDecimal(row.minNotional)} ${row.quote}`,
          },
          { title: t('spot.makerFee'), render: (_, row) => percent(row.makerFee) },
          { title: t('spot.takerFee'), render: (_, row) => percent(row.takerFee) },
          { title: t('spot.band'), render: (_, row) => `±${percent(row.band)}` },
          { title: t('spot.openOrders'), dataIndex: 'openOrders' },
          {
            title: t('spot.owner'),
            render: (_, row) =>
              row.owner === null ? (
                <Tag color="orange">{t('spot.noOwner')}</Tag>
              ) : (
                <Space direction="vertical" size={0}>
                  <span style={{ whiteSpace: 'nowrap' }}>{row.owner}</span>
                  <Typography.Text type="secondary">{t('spot.epoch', { epoch: row.epoch })}</Typography.Text>
                </Space>
              ),
          },
          { title: t('spot.updatedAt'), render: (_, row) => formatTime(row.updatedAt) },
          {
            title: '',
            render: (_, row) =>
              canManage && (
                <Space>
                  <Button size="small" onClick={() => setEditing(row)}>
                    {t('spot.edit')}
                  </Button>
                  <Button size="small" danger={row.status === 'open'} onClick={() => setSwitching(row)}>
                    {row.status === 'open' ? t('spot.halt') : t('spot.resume')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {editing && <MarketForm market={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ReasonModal
        kind={switching ? 'note' : null}
        title={
          switching
            ? t(halting ? 'spot.haltConfirm' : 'spot.resumeConfirm', {
                symbol: switching.symbol,
                count: switching.openOrders,
              })
            : ''
        }
        onCancel={() => setSwitching(null)}
        onSubmit={async ({ reason }) => {
          if (switching) await setStatus.mutateAsync({ market: switching, reason: reason ?? '' });
        }}
      />
    </Space>
  );
}

const SETTINGS = ['tickSize', 'lotSize', 'minNotional', 'makerFee', 'takerFee', 'band'] as const;

/** Creates a market (`market` null) or edits one; the server refuses new steps while orders are open. */
function MarketForm({ market, onClose }: { market: AdminSpotMarket | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const schema = market ? EditSpotMarketBody : CreateSpotMarketBody;
  const form = useSchemaForm(schema as typeof CreateSpotMarketBody, {
    defaultValues: market
      ? {
          symbol: market.symbol,
          tickSize: market.tickSize,
          lotSize: market.lotSize,
          minNotional: trimDecimal(market.minNotional),
          makerFee: market.makerFee,
          takerFee: market.takerFee,
          band: market.band,
        }
      : {
          symbol: '',
          tickSize: '',
          lotSize: '',
          minNotional: '5',
          makerFee: '0.001',
          takerFee: '0.001',
          band: '0.1',
          status: 'open',
        },
  });
  const { control } = form;
  const save = useMutation({
    mutationFn: (values: z.output<typeof CreateSpotMarketBody>) => {
      if (!market) return createMarket(values);
      const { symbol: _symbol, status: _status, ...settings } = values;
      return editMarket(market.symbol, settings);
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['spot'] });
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Drawer
      open
      size={480}
      title={market ? t('spot.editTitle', { symbol: market.symbol }) : t('spot.createTitle')}
      onClose={onClose}
      footer={
        <Space>
          <Button type="primary" htmlType="submit" form={formId} loading={save.isPending}>
            {t('spot.save')}
          </Button>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
        </Space>
      }
    >
      {market && market.openOrders > 0 && (
        <Alert type="warning" title={t('spot.stepsNote')} style={{ marginBottom: 16 }} />
      )}
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        {!market && (
          <>
            <FormField
              control={control}
              name="symbol"
              label={t('spot.symbol')}
              extra={t('spot.symbolHelp')}
              normalize={(v) => v.toUpperCase()}
            >
              <Input />
            </FormField>
            <FormField control={control} name="status" label={t('spot.status')}>
              <Select
                options={(['open', 'halted'] as const).map((status) => ({
                  value: status,
                  label: t(`spot.statuses.${status}`),
                }))}
              />
            </FormField>
          </>
        )}
        {SETTINGS.map((name) => (
          <FormField
            key={name}
            control={control}
            name={name}
            label={t(`spot.${name}`)}
            extra={t(`spot.help.${name}`)}
            invalidText={t(`spot.rules.${name}`)}
          >
            <Input inputMode="decimal" />
          </FormField>
        ))}
      </SchemaFormView>
    </Drawer>
  );
}
