import { type AdminDeliveryProduct, DeliveryProductBody } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { listProducts } from '../api/list-products.ts';
import { saveProduct } from '../api/save-product.ts';

export const PRODUCTS_KEY = ['delivery', 'products'];
export const productsQuery = {
  queryKey: PRODUCTS_KEY,
  queryFn: listProducts,
};

/** Every market with its product: status, exposure cap and periods; owners edit them. */
export function ProductsTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const products = useQuery(productsQuery);
  const [editing, setEditing] = useState<AdminDeliveryProduct | null>(null);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" title={t('delivery.ratioNote')} />
      {products.isError && <Alert type="error" title={products.error.message} />}
      <Table<AdminDeliveryProduct>
        rowKey="symbol"
        loading={products.isLoading}
        dataSource={products.data ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('delivery.symbol'), dataIndex: 'symbol' },
          {
            title: t('delivery.configured'),
            render: (_, row) =>
              row.configured ? t('delivery.yes') : <Tag>{t('delivery.notConfigured')}</Tag>,
          },
          {
            title: t('delivery.status'),
            render: (_, row) => (
              <Tag color={row.status === 'open' ? 'green' : 'default'}>
                {t(`delivery.productStatuses.${row.status}`)}
              </Tag>
            ),
          },
          { title: t('delivery.maxExposure'), dataIndex: 'maxExposure' },
          {
            title: t('delivery.periods'),
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                {row.periods.map((p) => (
                  <span key={p.seconds}>
                    {t('delivery.periodLine', {
                      seconds: p.seconds,
                      ratio: p.ratio,
                      min: trimDecimal(p.min),
                      max: trimDecimal(p.max),
                    })}
                  </span>
                ))}
              </Space>
            ),
          },
          { title: t('delivery.updatedAt'), render: (_, row) => formatTime(row.updatedAt) },
          {
            title: '',
            render: (_, row) =>
              canManage && (
                <Button size="small" onClick={() => setEditing(row)}>
                  {t('delivery.edit')}
                </Button>
              ),
          },
        ]}
      />
      {editing && <ProductForm product={editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}

function ProductForm({ product, onClose }: { product: AdminDeliveryProduct; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const form = useSchemaForm(DeliveryProductBody, {
    defaultValues: {
      status: product.status,
      maxExposure: product.configured ? trimDecimal(product.maxExposure) : '',
      periods: product.periods.length
        ? product.periods.map((p) => ({
            seconds: p.seconds,
            ratio: p.ratio,
            min: trimDecimal(p.min),
            max: trimDecimal(p.max),
          }))
        : [{ seconds: 60, ratio: '', min: '', max: '' }],
    },
  });
  const { control } = form;
  const periods = useFieldArray({ control, name: 'periods' });
  const save = useMutation({
    mutationFn: (values: z.output<typeof DeliveryProductBody>) => saveProduct(product.symbol, values),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['delivery'] });
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  // why: a rule over the whole list (a period twice, none at all) is reported on the list itself.
  const listError = form.formState.errors.periods;
  const listProblem = listError?.root?.message ?? listError?.message;
  const amountRule = t('form.errors.CONFIG_AMOUNT_INVALID');
  return (
    <Drawer
      open
      size={720}
      title={t('delivery.editTitle', { symbol: product.symbol })}
      onClose={onClose}
      footer={
        <Space>
          <Button type="primary" htmlType="submit" form={formId} loading={save.isPending}>
            {t('delivery.save')}
          </Button>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
        </Space>
      }
    >
      <Alert type="warning" title={t('delivery.ratioNote')} style={{ marginBottom: 16 }} />
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <FormField control={control} name="status" label={t('delivery.status')}>
          <Select
            options={(['open', 'closed'] as const).map((status) => ({
              value: status,
              label: t(`delivery.productStatuses.${status}`),
            }))}
          />
        </FormField>
        <FormField
          control={control}
          name="maxExposure"
          label={t('delivery.maxExposure')}
          extra={t('delivery.maxExposureHelp')}
          invalidText={amountRule}
        >
          <Input inputMode="decimal" />
        </FormField>
        <Typography.Title level={5}>{t('delivery.periods')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('delivery.periodsHelp')}</Typography.Paragraph>
        {periods.fields.map((field, index) => (
          <Space key={field.id} align="start" wrap>
            <FormField
              control={control}
              name={`periods.${index}.seconds`}
              label={t('delivery.seconds')}
              invalidText={t('delivery.secondsRule')}
            >
              <InputNumber min={10} precision={0} style={{ width: 110 }} />
            </FormField>
            <FormField
              control={control}
              name={`periods.${index}.ratio`}
              label={t('delivery.ratio')}
              invalidText={t('delivery.ratioRule')}
            >
              <Input inputMode="decimal" style={{ width: 100 }} />
            </FormField>
            <FormField
              control={control}
              name={`periods.${index}.min`}
              label={t('delivery.min')}
              invalidText={amountRule}
            >
              <Input inputMode="decimal" style={{ width: 140 }} />
            </FormField>
            <FormField
              control={control}
              name={`periods.${index}.max`}
              label={t('delivery.max')}
              invalidText={amountRule}
            >
              <Input inputMode="decimal" style={{ width: 140 }} />
            </FormField>
            <Button
              style={{ marginTop: 30 }}
              disabled={periods.fields.length <= 1}
              aria-label={t('delivery.removePeriod', { index: index + 1 })}
              onClick={() => periods.remove(index)}
            >
              {t('delivery.remove')}
            </Button>
          </Space>
        ))}
        {listProblem && (
          <Alert type="error" title={t(`form.errors.${listProblem}`)} style={{ marginBottom: 16 }} />
        )}
        <Button
          disabled={periods.fields.length >= 20}
          onClick={() => periods.append({ seconds: undefined, ratio: '', min: '', max: '' })}
        >
          {t('delivery.addPeriod')}
        </Button>
      </SchemaFormView>
    </Drawer>
  );
}
