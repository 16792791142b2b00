import '../components/wallet.css';
import { useSchemaForm } from '@bourse/forms';
import { isAmountString, toAtoms, trimDecimal } from '@bourse/shared';
import { DepositFields, type DepositPage as DepositPageData, VOUCHER_MAX_BYTES } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { QRCodeSVG } from 'qrcode.react';
import { useMemo, useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useFieldErrorText } from '../../../shared/form/field-error.ts';
import { FormAmountField, FormTextField } from '../../../shared/form/form-fields.tsx';
import { PATHS } from '../../../shared/paths.ts';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { CopyButton } from '../../../shared/ui/copy-button.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useDepositPage } from '../api/get-deposit-page.ts';
import { useSubmitDeposit } from '../api/submit-deposit.ts';
import { OptionPicker } from '../components/option-picker.tsx';
import { useQueryParam } from '../components/use-query-param.ts';
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

function DepositForm({
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

/**
 * `User/czpage?coin=…`: choose the network, send to the platform address (QR code, copy), then
 * report the transfer with its amount, optional hash and the voucher image. The minimum, below
 * which nothing is credited or returned, is stated before the form.
 */
export default function DepositPage() {
  const { t } = useTranslation();
  const coin = useQueryParam('coin').toUpperCase();
  const page = useDepositPage(coin);
  const [chosen, setChosen] = useState('');
  const networks = page.data?.networks ?? [];
  const network = networks.find((each) => each.network === chosen) ?? networks[0];

  return (
    <Page title={t('wallet.deposit.title', { coin })}>
      {page.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : page.isError ? (
        <ErrorState message={page.error.message} onRetry={() => page.refetch()} />
      ) : !network ? (
        <ErrorState message={t('wallet.deposit.noNetwork')} onRetry={() => page.refetch()} />
      ) : (
        <>
          <OptionPicker
            label={t('wallet.fields.network')}
            value={network.network}
            options={networks.map((each) => ({ value: each.network, label: each.network }))}
            onChange={setChosen}
            placeholder={t('wallet.fields.networkPlaceholder')}
            testId="deposit-network"
          />
          <p className="note" data-testid="deposit-minimum">
            {t('wallet.deposit.warning', {
              coin: page.data.coin,
              network: network.network,
              min: trimDecimal(network.min_deposit),
            })}
          </p>
          <section className="address-card" aria-label={t('wallet.deposit.address')}>
            <div className="address-qr">
              <QRCodeSVG
                value={network.address}
                size={168}
                marginSize={0}
                title={t('wallet.deposit.qrTitle')}
              />
            </div>
            <span className="address-label">{t('wallet.deposit.address')}</span>
            <div className="address-line">
              <span className="address-text num" data-testid="deposit-address">
                {network.address}
              </span>
              <CopyButton
                text={network.address}
                label={t('wallet.deposit.copyAddress')}
                testId="copy-address"
              />
            </div>
            <span className="address-label">
              {t('wallet.deposit.minimum')}{' '}
              <Amount value={network.min_deposit} decimals={page.data.decimals} unit={page.data.coin} />
            </span>
          </section>
          <DepositForm key={network.network} page={page.data} network={network} />
        </>
      )}
    </Page>
  );
}
