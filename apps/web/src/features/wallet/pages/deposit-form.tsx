import { useSchemaForm } from '@bourse/forms';
import { isAmountString, toAtoms, trimDecimal } from '@bourse/shared';
import { DepositFields, type DepositPage as DepositPageData, VOUCHER_MAX_BYTES } from '@bourse/shared/api';
import { useMemo, useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useFieldErrorText } from '../../../shared/form/field-error.ts';
import { FormAmountField, FormTextField } from '../../../shared/form/form-fields.tsx';
import { PATHS } from '../../../shared/paths.ts';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useSubmitDeposit } from '../api/submit-deposit.ts';
import { VoucherField } from '../components/voucher-field.tsx';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** The deposit form over the shared request schema, plus the network's minimum and the voucher. */
function depositFormSchema(minimum: string) {
  const min = toAtoms(minimum);
  return DepositFields.pick({ hash: true }).extend({
    // why: checked on the field itself, so the message shows even while other fields are wrong.
    amount: DepositFields.shape.amount.refine((value) => !isAmountString(value) || toAtoms(value) >= min, {
      error: 'AMOUNT_BELOW_MIN',
    }),
    voucher: z
      .custom<File>((value) => value instanceof File, { error: 'VOUCHER_REQUIRED' })
      .refine((file) => IMAGE_TYPES.has(file.type), { error: 'UPLOAD_NOT_IMAGE' })
      .refine((file) => file.size <= VOUCHER_MAX_BYTES, { error: 'UPLOAD_TOO_LARGE' }),
  });
}

export default function DepositForm({
  page,
  network,
}: {
  page: DepositPageData;
  network: DepositPageData['networks'][number];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useFieldErrorText();
  const mutation = useSubmitDeposit();
  const [isDone, setIsDone] = useState(false);
  const schema = useMemo(() => depositFormSchema(network.min_deposit), [network.min_deposit]);
  const form = useSchemaForm(schema, { defaultValues: { amount: '', hash: '', voucher: undefined } });
  const voucher = useController({ control: form.control, name: 'voucher' });
  const isBusy = mutation.isPending || isDone;

  const onSubmit = form.handleSubmit((values) => {
    if (isBusy) return;
    mutation.mutate(
      {
        fields: { coin: page.coin, network: network.network, amount: values.amount, hash: values.hash },
        voucher: values.voucher,
      },
      {
        onSuccess: (body) => {
          setIsDone(true);
          showToast(body.msg, 'success');
          setTimeout(() => navigate(PATHS.depositList, { replace: true }), NAVIGATE_DELAY_MS);
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <FormAmountField
        control={form.control}
        name="amount"
        label={t('wallet.deposit.amount')}
        placeholder={t('wallet.deposit.amountPlaceholder', {
          min: trimDecimal(network.min_deposit),
        })}
        decimals={page.decimals}
        trailing={<span className="field-trailing">{page.coin}</span>}
        testId="deposit-amount"
      />
      <FormTextField
        control={form.control}
        name="hash"
        label={t('wallet.deposit.hash')}
        placeholder={t('wallet.deposit.hashPlaceholder')}
        autoComplete="off"
        spellCheck={false}
        maxLength={128}
        testId="deposit-hash"
      />
      <VoucherField
        value={voucher.field.value}
        onChange={voucher.field.onChange}
        onBlur={voucher.field.onBlur}
        error={errorText(voucher.fieldState.error?.message)}
        testId="deposit-voucher"
      />
      <SubmitButton isBusy={isBusy} testId="deposit-submit" className="form-actions">
        {t('wallet.deposit.submit')}
      </SubmitButton>
    </form>
  );
}
