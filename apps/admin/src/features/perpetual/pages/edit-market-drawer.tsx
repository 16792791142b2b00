import { type AdminPerpMarket, EditPerpMarketBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Input, Select, Space } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { trimDecimal } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { editMarket } from '../api/edit-market.ts';
import { PERP_MARKETS_KEY, PERP_QUERY_KEY } from '../api/query-keys.ts';
import { ratioPercent } from './common.tsx';

// why: the drawer holds the settings; the reason is asked for afterwards, in the shared dialog.
const EditFields = EditPerpMarketBody.omit({ reason: true });
type EditValues = z.output<typeof EditFields>;
const RATIOS = ['makerFee', 'takerFee', 'band'] as const;
const STATUSES = ['open', 'halted'] as const;

/**
 * Edits a market's maker and taker fees, price band and status. Only the fields that changed are
 * sent, with a reason the server writes into the audit record. Mark price, funding rate and
 * liquidations are not settings: nothing here can set them.
 */
export function EditMarketDrawer({ market, onClose }: { market: AdminPerpMarket; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const [changes, setChanges] = useState<EditValues | null>(null);
  const form = useSchemaForm(EditFields, {
    defaultValues: {
      makerFee: trimDecimal(market.makerFee),
      takerFee: trimDecimal(market.takerFee),
      band: trimDecimal(market.band),
      status: market.status,
    },
  });
  const { control } = form;
  const save = useMutation({
    mutationFn: (body: EditPerpMarketBody) => editMarket(market.symbol, body),
    onSuccess: (updated) => {
      client.setQueryData<AdminPerpMarket[]>(PERP_MARKETS_KEY, (old) =>
        old?.map((m) => (m.symbol === updated.symbol ? updated : m)),
      );
      void client.invalidateQueries({ queryKey: PERP_QUERY_KEY });
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const describe = (values: EditValues) =>
    [
      ...RATIOS.filter((name) => values[name] !== undefined).map(
        (name) =>
          `${t(`perp.${name}`)} ${ratioPercent(market[name])} → ${ratioPercent(values[name] ?? market[name])}`,
      ),
      values.status
        ? `${t('perp.status')} ${t(`perp.statuses.${market.status}`)} → ${t(`perp.statuses.${values.status}`)}`
        : '',
    ]
      .filter(Boolean)
      .join('; ');
  return (
    <Drawer
      open
      size={480}
      title={t('perp.editTitle', { symbol: market.symbol })}
      onClose={onClose}
      footer={
        <Space>
          <Button type="primary" htmlType="submit" form={formId} loading={save.isPending}>
            {t('perp.save')}
          </Button>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
        </Space>
      }
    >
      <Alert type="info" showIcon title={t('perp.notSettable')} style={{ marginBottom: 16 }} />
      <SchemaFormView
        id={formId}
        onSubmit={form.handleSubmit((values) => {
          const changed: EditValues = {
            makerFee: differs(values.makerFee, market.makerFee),
            takerFee: differs(values.takerFee, market.takerFee),
            band: differs(values.band, market.band),
            status: values.status !== market.status ? values.status : undefined,
          };
          if (Object.values(changed).every((v) => v === undefined)) message.info(t('perp.nothingChanged'));
          else setChanges(changed);
        })}
      >
        {RATIOS.map((name) => (
          <FormField
            key={name}
            control={control}
            name={name}
            label={t(`perp.${name}`)}
            extra={t(`perp.help.${name}`)}
            invalidText={t('perp.ratioRule')}
          >
            <Input inputMode="decimal" />
          </FormField>
        ))}
        <FormField control={control} name="status" label={t('perp.status')} extra={t('perp.help.status')}>
          <Select options={STATUSES.map((value) => ({ value, label: t(`perp.statuses.${value}`) }))} />
        </FormField>
      </SchemaFormView>
      <ReasonModal
        kind={changes ? 'reason' : null}
        title={changes ? t('perp.editReason', { symbol: market.symbol, changes: describe(changes) }) : ''}
        onCancel={() => setChanges(null)}
        onSubmit={async ({ reason }) => {
          // why: the shared dialog takes any non-empty reason; the contract wants 3 characters or more.
          const body = EditPerpMarketBody.safeParse({ ...changes, reason });
          if (!body.success) {
            message.error(t('perp.reasonRule'));
            throw body.error;
          }
          await save.mutateAsync(body.data);
        }}
      />
    </Drawer>
  );
}

/** The new ratio when it is a different number from the current one (`"0.0005"` is `"0.00050000"`). */
function differs(next: string | undefined, current: string): string | undefined {
  return next !== undefined && trimDecimal(next) !== trimDecimal(current) ? next : undefined;
}
