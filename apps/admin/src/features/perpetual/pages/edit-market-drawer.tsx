import { fromAtoms, toAtoms } from '@bourse/shared';
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

/** The highest mark clamp the market's tiers allow: a quarter of tier 1's maintenance margin rate. */
function maxMarkClamp(market: AdminPerpMarket): string {
  const first = market.tiers[0];
  return fromAtoms(first ? toAtoms(first.mmr) / 4n : 0n);
}

/**
 * Edits a market's maker and taker fees, price band, mark clamp and status. Only the fields that
 * changed are sent, with a reason the server writes into the audit record. Mark price, funding
 * rate and liquidations are not settings: nothing here can set them (the clamp only bounds how
 * far the mark may stray from the index).
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
      markClamp: trimDecimal(market.markClamp),
      status: market.status,
    },
  });
  const maxClamp = maxMarkClamp(market);
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
      values.markClamp !== undefined
        ? `${t('perp.markClamp')} ±${ratioPercent(market.markClamp)} → ±${ratioPercent(values.markClamp)}`
        : '',
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
            markClamp: differs(values.markClamp, market.markClamp),
            status: values.status !== market.status ? values.status : undefined,
          };
          // why: the bound hangs on the market's tiers, which the schema does not know; the server
          // checks it too. The field shows its own rule (with the bound) for a code it has no text of.
          if (changed.markClamp !== undefined && !clampAllowed(changed.markClamp, maxClamp)) {
            form.setError('markClamp', { message: 'MARK_CLAMP_INVALID' });
            return;
          }
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
        <FormField
          control={control}
          name="markClamp"
          label={t('perp.markClamp')}
          extra={t('perp.help.markClamp', { max: trimDecimal(maxClamp), maxPercent: ratioPercent(maxClamp) })}
          invalidText={t('perp.markClampRule', { max: ratioPercent(maxClamp) })}
        >
          <Input inputMode="decimal" />
        </FormField>
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

/** A clamp above 0 and at most `max` (both ratios as decimal strings). */
function clampAllowed(clamp: string, max: string): boolean {
  const atoms = toAtoms(clamp);
  return atoms > 0n && atoms <= toAtoms(max);
}

/** The new ratio when it is a different number from the current one (`"0.0005"` is `"0.00050000"`). */
function differs(next: string | undefined, current: string): string | undefined {
  return next !== undefined && trimDecimal(next) !== trimDecimal(current) ? next : undefined;
}
