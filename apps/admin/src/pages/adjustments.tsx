import { AdjustBody, type AdjustResult, IdParams } from '@bourse/shared/api';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { FormField, SchemaFormView, useSchemaForm } from '../app/form.tsx';

// why: the user is chosen on the page, so the path's id is a field here.
const AdjustFields = AdjustBody.pick({ asset: true, amount: true, reason: true }).extend({
  userId: IdParams.shape.id,
});
const EMPTY = { userId: '', asset: '', amount: '', reason: '' };

function newKey(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** A manual adjustment: a double-entry ledger movement with a reason, visible in the user's bills. */
export function AdjustmentsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const form = useSchemaForm(AdjustFields, { defaultValues: EMPTY });
  // why: the key makes a double click or a retry post the adjustment once; a new one per success.
  const key = useRef(newKey());
  const adjust = useMutation({
    mutationFn: ({ userId, ...values }: { userId: string; asset: string; amount: string; reason: string }) =>
      api<AdjustResult>('POST', `/users/${userId}/adjust`, { ...values, key: key.current }),
    onSuccess: (result) => {
      key.current = newKey();
      form.reset(EMPTY);
      message.success(t('adjust.done', { balance: result.balance }));
    },
    onError: (error) => message.error(error.message),
  });
  const { control } = form;
  return (
    <Card title={t('adjust.title')} style={{ maxWidth: 560 }}>
      <Alert type="info" title={t('adjust.help')} style={{ marginBottom: 16 }} />
      <SchemaFormView onSubmit={form.handleSubmit((values) => adjust.mutate(values))}>
        <FormField
          control={control}
          name="userId"
          label={t('adjust.userId')}
          invalidText={t('adjust.userIdRule')}
        >
          <Input inputMode="numeric" />
        </FormField>
        <FormField
          control={control}
          name="asset"
          label={t('adjust.asset')}
          invalidText={t('adjust.assetRule')}
          normalize={(value) => value.toUpperCase()}
        >
          <Input placeholder="USDT" />
        </FormField>
        <FormField
          control={control}
          name="amount"
          label={t('adjust.amount')}
          invalidText={t('adjust.amountRule')}
        >
          <Input inputMode="decimal" />
        </FormField>
        <FormField
          control={control}
          name="reason"
          label={t('adjust.reason')}
          invalidText={t('users.reasonRule')}
        >
          <Input.TextArea rows={3} />
        </FormField>
        <Button type="primary" htmlType="submit" loading={adjust.isPending}>
          {t('adjust.submit')}
        </Button>
      </SchemaFormView>
    </Card>
  );
}
