import { type AdminMakerSettings, MakerSettingsBody } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Input, InputNumber, Space, Switch, Table, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { trimDecimal } from '../../../shared/format.ts';
import { fetchMakerOverview } from '../api/fetch-maker-overview.ts';
import { saveMakerSettings } from '../api/save-maker-settings.ts';
import { setDemoTraders } from '../api/set-demo-traders.ts';

const MAKER_KEY = ['spot', 'market-maker'];

/** The market maker's settings per market and the demo traders' switch; owners change them. */
export function MakerTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const overview = useQuery({
    queryKey: MAKER_KEY,
    queryFn: fetchMakerOverview,
  });
  const [editing, setEditing] = useState<AdminMakerSettings | null>(null);
  const demoTraders = useMutation({
    mutationFn: (on: boolean) => setDemoTraders(on),
    onSuccess: (data) => {
      client.setQueryData(MAKER_KEY, data);
      message.success(t('common.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" title={t('spot.maker.note')} />
      {overview.isError && <Alert type="error" title={overview.error.message} />}
      <Space>
        <Typography.Text id="demo-traders-label">{t('spot.maker.demoTraders')}</Typography.Text>
        <Switch
          aria-labelledby="demo-traders-label"
          checked={overview.data?.demoTraders ?? false}
          disabled={!canManage || overview.data === undefined}
          loading={demoTraders.isPending}
          onChange={(on) => demoTraders.mutate(on)}
        />
        <Typography.Text type="secondary">{t('spot.maker.demoTradersHelp')}</Typography.Text>
      </Space>
      <Table<AdminMakerSettings>
        rowKey="symbol"
        loading={overview.isLoading}
        dataSource={overview.data?.markets ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('spot.symbol'), dataIndex: 'symbol' },
          {
            title: t('spot.status'),
            render: (_, row) => (
              <Tag color={row.enabled ? 'green' : 'default'}>
                {row.enabled ? t('spot.maker.on') : t('spot.maker.off')}
              </Tag>
            ),
          },
          { title: t('spot.maker.levels'), dataIndex: 'levels' },
          { title: t('spot.maker.spread'), dataIndex: 'spread' },
          { title: t('spot.maker.step'), dataIndex: 'step' },
          { title: t('spot.maker.levelQty'), render: (_, row) => trimDecimal(row.levelQty) },
          { title: t('spot.maker.inventoryTarget'), render: (_, row) => trimDecimal(row.inventoryTarget) },
          {
            title: t('spot.maker.maxInventoryDeviation'),
            render: (_, row) => trimDecimal(row.maxInventoryDeviation),
          },
          {
            title: '',
            render: (_, row) =>
              canManage && (
                <Button size="small" onClick={() => setEditing(row)}>
                  {t('spot.edit')}
                </Button>
              ),
          },
        ]}
      />
      {editing && <MakerForm settings={editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}

const DECIMALS = ['spread', 'step', 'levelQty', 'inventoryTarget', 'maxInventoryDeviation'] as const;

function MakerForm({ settings, onClose }: { settings: AdminMakerSettings; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const form = useSchemaForm(MakerSettingsBody, {
    defaultValues: {
      enabled: settings.enabled,
      levels: settings.levels,
      spread: settings.spread,
      step: settings.step,
      levelQty: trimDecimal(settings.levelQty),
      inventoryTarget: trimDecimal(settings.inventoryTarget),
      maxInventoryDeviation: trimDecimal(settings.maxInventoryDeviation),
    },
  });
  const { control } = form;
  const save = useMutation({
    mutationFn: (values: z.output<typeof MakerSettingsBody>) => saveMakerSettings(settings.symbol, values),
    onSuccess: (data) => {
      client.setQueryData(MAKER_KEY, data);
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Drawer
      open
      size={480}
      title={t('spot.maker.editTitle', { symbol: settings.symbol })}
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
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <FormField control={control} name="enabled" label={t('spot.maker.enabled')} valueProp="checked">
          <Switch />
        </FormField>
        <FormField
          control={control}
          name="levels"
          label={t('spot.maker.levels')}
          invalidText={t('spot.maker.rules.levels')}
        >
          <InputNumber min={1} max={50} precision={0} style={{ width: 120 }} />
        </FormField>
        {DECIMALS.map((name) => (
          <FormField
            key={name}
            control={control}
            name={name}
            label={t(`spot.maker.${name}`)}
            extra={t(`spot.maker.help.${name}`)}
            invalidText={t(`spot.maker.rules.${name}`)}
          >
            <Input inputMode="decimal" />
          </FormField>
        ))}
      </SchemaFormView>
    </Drawer>
  );
}
