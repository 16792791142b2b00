import { LazySchema, useSchemaForm } from '@bourse/forms';
import { isAmountString, trimDecimal, truncateDecimal } from '@bourse/shared';
import type { ConvertPage as ConvertPageData } from '@bourse/shared/api';
import { useMemo, useRef, useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/http.ts';
import { useFieldErrorText } from '../../../shared/form/field-error.ts';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { useFormatPlainDecimal } from '../../../shared/format/format-decimal.ts';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';
import { PATHS } from '../../../shared/paths.ts';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { IconSwap } from '../../../shared/ui/icons.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useConvertAsset } from '../api/convert-asset.ts';
import { useConvertPage } from '../api/get-convert-page.ts';
import { ConfirmSheet, preloadConfirmSheet } from '../components/confirm-sheet.tsx';
import { OptionPicker } from '../components/option-picker.tsx';
import { useDebounced } from '../components/use-debounced.ts';

/**
 * The confirmation sheet's code and the form's validation are fetched when the form is first
 * touched, before it is submitted.
 */
function preloadSheet() {
  preloadConfirmSheet().catch(() => undefined);
  import('./convert-schema.ts').catch(() => undefined);
}

type ConvertFormSchema = ReturnType<typeof import('./convert-schema.ts').convertFormSchema>;

export default function ConvertForm({ data, initialFrom }: { data: ConvertPageData; initialFrom: string }) {
  const { t } = useTranslation();
  const plainNumber = useFormatPlainDecimal();
  const navigate = useNavigate();
  const errorText = useFieldErrorText();
  const mutation = useConvertAsset();
  const idempotencyKey = useRef(newIdempotencyKey());
  const [isConfirming, setIsConfirming] = useState(false);
  const [isDone, setIsDone] = useState(false);
  const coins = data.coins;
  // why: zod and the request schema load at the form's first check (warmed on its first touch),
  // not before the form can paint.
  const schema = useMemo(
    () =>
      new LazySchema<ConvertFormSchema>(() =>
        import('./convert-schema.ts').then((m) => m.convertFormSchema(coins)),
      ),
    [coins],
  );
  const first =
    coins.find((coin) => coin.coin === initialFrom) ?? coins.find((coin) => coin.coin !== 'USDT') ?? coins[0];
  const second = coins.find((coin) => coin.coin !== first?.coin);
  const form = useSchemaForm(schema, {
    defaultValues: { from: first?.coin ?? '', to: second?.coin ?? '', amount: '' },
  });
  const fromField = useController({ control: form.control, name: 'from' });
  const toField = useController({ control: form.control, name: 'to' });
  const [from, to, amount] = useWatch({ control: form.control, name: ['from', 'to', 'amount'] });
  const fromCoin = coins.find((coin) => coin.coin === from);
  const toCoin = coins.find((coin) => coin.coin === to);

  const settled = useDebounced({ from: from ?? '', to: to ?? '', amount: amount ?? '' }, 400);
  const canQuote =
    settled.from !== '' &&
    settled.to !== '' &&
    settled.from !== settled.to &&
    isAmountString(settled.amount) &&
    /[1-9]/.test(settled.amount);
  const quote = useConvertPage(canQuote ? settled : null);
  const figures = canQuote ? quote.data?.quote : null;

  const options = coins.map((coin) => ({ value: coin.coin, label: coin.coin, description: coin.name }));

  function swap() {
    form.setValue('from', to ?? '');
    form.setValue('to', from ?? '');
    form.setValue('amount', '');
  }

  const onSubmit = form.handleSubmit(() => {
    if (!isDone) setIsConfirming(true);
  });

  function confirm() {
    const values = form.getValues();
    mutation.mutate(
      { from: values.from, to: values.to, amount: values.amount, idempotency_key: idempotencyKey.current },
      {
        onSuccess: (body) => {
          setIsDone(true);
          setIsConfirming(false);
          showToast(body.msg, 'success');
          setTimeout(() => navigate(PATHS.assets, { replace: true }), NAVIGATE_DELAY_MS);
        },
        onError: (error) => {
          setIsConfirming(false);
          if (!(error instanceof ApiError && error.code === -1)) idempotencyKey.current = newIdempotencyKey();
        },
      },
    );
  }

  const most = fromCoin ? trimDecimal(truncateDecimal(fromCoin.available, fromCoin.decimals)) : '';

  return (
    <form onSubmit={onSubmit} onFocus={preloadSheet} onPointerDown={preloadSheet} noValidate>
      <OptionPicker
        label={t('wallet.convert.from')}
        value={fromField.field.value ?? ''}
        options={options}
        onChange={(value) => {
          fromField.field.onChange(value);
          form.setValue('amount', '');
        }}
        placeholder={t('wallet.fields.coinPlaceholder')}
        error={errorText(fromField.fieldState.error?.message)}
        testId="convert-from"
      />
      <div className="convert-swap">
        <button type="button" className="icon-button" aria-label={t('wallet.convert.swap')} onClick={swap}>
          <IconSwap />
        </button>
      </div>
      <OptionPicker
        label={t('wallet.convert.to')}
        value={toField.field.value ?? ''}
        options={options}
        onChange={(value) => toField.field.onChange(value)}
        placeholder={t('wallet.fields.coinPlaceholder')}
        error={errorText(toField.fieldState.error?.message)}
        testId="convert-to"
      />
      <FormAmountField
        control={form.control}
        name="amount"
        label={t('wallet.convert.amount')}
        placeholder={t('wallet.convert.amountPlaceholder')}
        decimals={fromCoin?.decimals ?? 8}
        testId="convert-amount"
        trailing={
          <span className="field-trailing">
            {from}
            <button
              type="button"
              className="text-button"
              disabled={!most || most === '0'}
              onClick={() => form.setValue('amount', most, { shouldValidate: true, shouldTouch: true })}
              data-testid="convert-all"
            >
              {t('wallet.all')}
            </button>
          </span>
        }
      />
      <ul className="wallet-facts" data-testid="convert-facts" aria-live="polite">
        <li>
          {t('wallet.fields.available')}
          <Amount value={fromCoin?.available ?? '0'} decimals={fromCoin?.decimals} unit={from} />
        </li>
        <li>
          {t('wallet.convert.rate')}
          <span className="num">
            {figures ? (
              <>
                1 {from} ≈ <Amount value={figures.rate} decimals={toCoin?.decimals} /> {to}
              </>
            ) : (
              '—'
            )}
          </span>
        </li>
        <li>
          {t('wallet.convert.fee', { percent: plainNumber(data.fee_percent) })}
          {figures ? (
            <Amount value={figures.fee} decimals={toCoin?.decimals} unit={to} />
          ) : (
            <span className="num">—</span>
          )}
        </li>
        <li className="is-strong">
          {t('wallet.convert.receive')}
          {figures ? (
            <Amount value={figures.received} decimals={toCoin?.decimals} unit={to} testId="convert-receive" />
          ) : (
            <span className="num">—</span>
          )}
        </li>
      </ul>
      <SubmitButton isBusy={mutation.isPending || isDone} testId="convert-submit" className="form-actions">
        {t('wallet.convert.submit')}
      </SubmitButton>
      <ConfirmSheet
        isOpen={isConfirming}
        title={t('wallet.convert.confirmTitle')}
        isBusy={mutation.isPending}
        onClose={() => setIsConfirming(false)}
        onConfirm={confirm}
        testId="convert-confirm"
        rows={[
          {
            label: t('wallet.convert.from'),
            value: <Amount value={amount ?? '0'} decimals={fromCoin?.decimals} unit={from} />,
          },
          {
            label: t('wallet.convert.fee', { percent: plainNumber(data.fee_percent) }),
            value: figures ? <Amount value={figures.fee} decimals={toCoin?.decimals} unit={to} /> : '—',
          },
          {
            label: t('wallet.convert.receive'),
            value: figures ? <Amount value={figures.received} decimals={toCoin?.decimals} unit={to} /> : '—',
          },
        ]}
      />
      <p className="page-footnote">{t('wallet.convert.note')}</p>
    </form>
  );
}
