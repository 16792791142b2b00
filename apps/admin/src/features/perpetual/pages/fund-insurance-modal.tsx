import { type AdminPerpMarket, FundInsuranceBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Input, Modal, Typography } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { fundInsurance } from '../api/fund-insurance.ts';
import { PERP_MARKETS_KEY, PERP_QUERY_KEY } from '../api/query-keys.ts';
import { decimalText } from './common.tsx';

/**
 * Tops up a market's insurance fund from the platform treasury: an amount and a reason, checked
 * by the contract's own schema, audited by the server.
 */
export function FundInsuranceModal({ market, onClose }: { market: AdminPerpMarket; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const form = useSchemaForm(FundInsuranceBody, { defaultValues: { amount: '', reason: '' } });
  const { control } = form;
  const fund = useMutation({
    mutationFn: (body: FundInsuranceBody) => fundInsurance(market.symbol, body),
    onSuccess: (updated) => {
      client.setQueryData<AdminPerpMarket[]>(PERP_MARKETS_KEY, (old) =>
        old?.map((m) => (m.symbol === updated.symbol ? updated : m)),
      );
      void client.invalidateQueries({ queryKey: PERP_QUERY_KEY });
      message.success(
        t('perp.funded', {
          symbol: updated.symbol,
          balance: decimalText(updated.insurance),
          quote: updated.quote,
        }),
      );
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Modal
      open
      title={t('perp.fundTitle', { symbol: market.symbol })}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: fund.isPending }}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        {t('perp.fundNote', { balance: decimalText(market.insurance), quote: market.quote })}
      </Typography.Paragraph>
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => fund.mutate(values))}>
        <FormField control={control} name="amount" label={t('perp.amount')}>
          <Input inputMode="decimal" suffix={market.quote} />
        </FormField>
        <FormField
          control={control}
          name="reason"
          label={t('perp.reason')}
          extra={t('perp.reasonRule')}
          invalidText={t('perp.reasonRule')}
        >
          <Input.TextArea rows={3} />
        </FormField>
      </SchemaFormView>
    </Modal>
  );
}
