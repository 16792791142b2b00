import { useSchemaForm } from '@bourse/forms';
import {
  fromAtoms,
  isAmountString,
  RESULT_CODES,
  toAtoms,
  trimDecimal,
  truncateDecimal,
} from '@bourse/shared';
import { WithdrawBody, type WithdrawPage as WithdrawPageData } from '@bourse/shared/api';
import { useMemo, useRef, useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../api/http.ts';
import { useFieldErrorText } from '../../../shared/form/field-error.ts';
import { FormAmountField, FormTextField } from '../../../shared/form/form-fields.tsx';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useRequestWithdrawal } from '../api/request-withdrawal.ts';
import { ConfirmSheet, preloadConfirmSheet } from '../components/confirm-sheet.tsx';
import { OptionPicker } from '../components/option-picker.tsx';
import { preloadTwoFactorSheet, TwoFactorSheet } from '../components/two-factor-sheet.tsx';

type Network = WithdrawPageData['networks'][number];
type WithdrawValues = { amount: string; paypassword: string; destination: string };

const TOTP_REQUIRED_CODE = RESULT_CODES.TOTP_REQUIRED.code;
const TOTP_WRONG_CODE = RESULT_CODES.TOTP_WRONG.code;

/** The sheets' code is fetched when the form is first touched, before it is submitted. */
function preloadSheets() {
  preloadConfirmSheet().catch(() => undefined);
  preloadTwoFactorSheet().catch(() => undefined);
}

/** The withdrawal form over the shared request schema, bounded by the network's limits and the balance. */
function withdrawFormSchema(network: Network, available: string) {
  const min = toAtoms(network.min_withdraw);
  const max = toAtoms(network.max_withdraw);
  const fee = toAtoms(network.fee);
  const balance = toAtoms(available);
  return WithdrawBody.pick({ paypassword: true }).extend({
    // why: checked on the field itself, so the message shows even while other fields are wrong.
    amount: WithdrawBody.shape.amount.superRefine((value, context) => {
      if (!isAmountString(value)) return;
      const amount = toAtoms(value);
      const problem =
        amount < min
          ? 'AMOUNT_BELOW_MIN'
          : max > 0n && amount > max
            ? 'AMOUNT_ABOVE_MAX'
            : amount + fee > balance
              ? 'BALANCE_INSUFFICIENT'
              : null;
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
    destination: z.string().min(1, {
      error: network.type === 'bank' ? 'wallet.withdraw.chooseCard' : 'wallet.withdraw.chooseAddress',
    }),
  });
}

/** The most that can be withdrawn: the balance less the fee, within the maximum, at the coin's precision. */
function maxWithdrawable(network: Network, available: string, decimals: number): string {
  let most = toAtoms(available) - toAtoms(network.fee);
  const max = toAtoms(network.max_withdraw);
  if (max > 0n && most > max) most = max;
  if (most <= 0n) return '';
  return trimDecimal(truncateDecimal(fromAtoms(most), decimals));
}

export default function WithdrawForm({ page, network }: { page: WithdrawPageData; network: Network }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useFieldErrorText();
  const mutation = useRequestWithdrawal();
  const idempotencyKey = useRef(newIdempotencyKey());
  const [pending, setPending] = useState<WithdrawValues | null>(null);
  // why: an account with two-factor codes on needs one with the request; the page says so up
  // front, and a TOTP_REQUIRED answer (codes turned on meanwhile) asks for one all the same.
  const [asksCode, setAsksCode] = useState<WithdrawValues | null>(null);
  const [codeError, setCodeError] = useState<string | undefined>();
  const [isDone, setIsDone] = useState(false);
  const schema = useMemo(() => withdrawFormSchema(network, page.available), [network, page.available]);
  const isBank = network.type === 'bank';
  const isBlocked = page.withdraw_blocked === 1;
  const canSubmit = !isBlocked && page.paypassword === 1;

  const options = isBank
    ? page.bank_cards.map((card) => ({
        value: card.id,
        label: `${card.bank} ${card.number}`,
        description: card.name,
      }))
    : page.addresses
        .filter((address) => address.coin === page.coin && address.network === network.network)
        .map((address) => ({
          value: address.id,
          label: address.address,
          description: address.remark || undefined,
        }));
  // why: most users keep one address per network; it is chosen for them, and the sheet changes it.
  const form = useSchemaForm(schema, {
    defaultValues: { amount: '', paypassword: '', destination: options[0]?.value ?? '' },
  });
  const destination = useController({ control: form.control, name: 'destination' });
  const amount = useWatch({ control: form.control, name: 'amount' });
  const chosen = options.find((option) => option.value === destination.field.value);

  const amountAtoms = isAmountString(amount ?? '') ? toAtoms(amount ?? '') : 0n;
  const total = fromAtoms(amountAtoms + toAtoms(network.fee));
  const most = maxWithdrawable(network, page.available, page.decimals);

  const onSubmit = form.handleSubmit((values) => {
    if (!isDone) setPending(values);
  });

  function send(values: WithdrawValues, totpCode: string | undefined) {
    if (mutation.isPending || isDone) return;
    setCodeError(undefined);
    mutation.mutate(
      {
        coin: page.coin,
        type: network.type,
        address_id: isBank ? undefined : values.destination,
        bank_id: isBank ? values.destination : undefined,
        amount: values.amount,
        paypassword: values.paypassword,
        idempotency_key: idempotencyKey.current,
        gacode: totpCode,
      },
      {
        onSuccess: (body) => {
          setIsDone(true);
          setPending(null);
          setAsksCode(null);
          showToast(body.msg, 'success');
          setTimeout(() => navigate(PATHS.withdrawList, { replace: true }), NAVIGATE_DELAY_MS);
        },
        onError: (error) => {
          setPending(null);
          // why: a refused request took no effect, so the next try is a new submission; after a
          // network failure the outcome is unknown, and the same key makes a retry safe.
          if (!(error instanceof ApiError && error.code === -1)) idempotencyKey.current = newIdempotencyKey();
          const code = error instanceof ApiError ? error.code : undefined;
          if (code === TOTP_REQUIRED_CODE || code === TOTP_WRONG_CODE) {
            setAsksCode(values);
            if (code === TOTP_WRONG_CODE) setCodeError(error.message);
          } else {
            setAsksCode(null);
          }
        },
      },
    );
  }

  function confirm() {
    if (!pending || mutation.isPending) return;
    if (page.totp === 1) {
      setAsksCode(pending);
      setPending(null);
    } else {
      send(pending, undefined);
    }
  }

  const addPath = isBank
    ? PATHS.addBankCard
    : withQuery(PATHS.addAddress, { coin: page.coin, network: network.network });

  return (
    <form onSubmit={onSubmit} onFocus={preloadSheets} onPointerDown={preloadSheets} noValidate>
      {options.length > 0 ? (
        <OptionPicker
          label={isBank ? t('wallet.withdraw.card') : t('wallet.withdraw.address')}
          value={destination.field.value}
          options={options}
          onChange={(value) => {
            destination.field.onChange(value);
            destination.field.onBlur();
          }}
          placeholder={isBank ? t('wallet.withdraw.chooseCard') : t('wallet.withdraw.chooseAddress')}
          error={errorText(destination.fieldState.error?.message)}
          testId="withdraw-destination"
        />
      ) : (
        <p className="note note-info">
          {isBank
            ? t('wallet.withdraw.noCard')
            : t('wallet.withdraw.noAddress', { network: network.network })}
        </p>
      )}
      <p className="form-link">
        <Link to={addPath} className="text-button" data-testid="withdraw-add-destination">
          {isBank ? t('wallet.bankCards.add') : t('wallet.addresses.add')}
        </Link>
      </p>
      <FormAmountField
        control={form.control}
        name="amount"
        label={t('wallet.withdraw.amount')}
        placeholder={t('wallet.withdraw.amountPlaceholder', {
          min: trimDecimal(network.min_withdraw),
        })}
        decimals={page.decimals}
        testId="withdraw-amount"
        trailing={
          <span className="field-trailing">
            {page.coin}
            <button
              type="button"
              className="text-button"
              disabled={!most}
              onClick={() => form.setValue('amount', most, { shouldValidate: true, shouldTouch: true })}
              data-testid="withdraw-all"
            >
              {t('wallet.all')}
            </button>
          </span>
        }
      />
      <ul className="wallet-facts" data-testid="withdraw-facts">
        <li>
          {t('wallet.fields.available')}
          <Amount
            value={page.available}
            decimals={page.decimals}
            unit={page.coin}
            testId="withdraw-available"
          />
        </li>
        <li>
          {t('wallet.withdraw.limits')}
          <span className="num">
            <Amount value={network.min_withdraw} decimals={page.decimals} /> –{' '}
            <Amount value={network.max_withdraw} decimals={page.decimals} unit={page.coin} />
          </span>
        </li>
        <li>
          {t('wallet.fields.fee')}
          <Amount value={network.fee} decimals={page.decimals} unit={page.coin} testId="withdraw-fee" />
        </li>
        <li>
          {t('wallet.fields.arrival')}
          <Amount
            value={fromAtoms(amountAtoms)}
            decimals={page.decimals}
            unit={page.coin}
            testId="withdraw-arrival"
          />
        </li>
        <li className="is-strong">
          {t('wallet.withdraw.total')}
          <Amount value={total} decimals={page.decimals} unit={page.coin} testId="withdraw-total" />
        </li>
      </ul>
      <FormTextField
        control={form.control}
        name="paypassword"
        type="password"
        label={t('wallet.withdraw.password')}
        placeholder={t('wallet.withdraw.passwordPlaceholder')}
        autoComplete="off"
        maxLength={64}
        testId="withdraw-password"
      />
      {isBlocked && (
        <p className="note" role="status">
          {t('wallet.withdraw.blocked')}
        </p>
      )}
      <SubmitButton
        isBusy={mutation.isPending || isDone}
        isDisabled={!canSubmit}
        testId="withdraw-submit"
        className="form-actions"
      >
        {t('wallet.withdraw.submit')}
      </SubmitButton>
      <ConfirmSheet
        isOpen={pending !== null}
        title={t('wallet.withdraw.confirmTitle')}
        isBusy={mutation.isPending}
        onClose={() => setPending(null)}
        onConfirm={confirm}
        testId="withdraw-confirm"
        rows={
          pending
            ? [
                { label: t('wallet.fields.network'), value: network.network },
                {
                  label: isBank ? t('wallet.withdraw.card') : t('wallet.withdraw.address'),
                  value: chosen?.label ?? '',
                },
                {
                  label: t('wallet.fields.amount'),
                  value: <Amount value={pending.amount} decimals={page.decimals} unit={page.coin} />,
                },
                {
                  label: t('wallet.fields.fee'),
                  value: <Amount value={network.fee} decimals={page.decimals} unit={page.coin} />,
                },
                {
                  label: t('wallet.withdraw.total'),
                  value: <Amount value={total} decimals={page.decimals} unit={page.coin} />,
                },
              ]
            : []
        }
      />
      <TwoFactorSheet
        isOpen={asksCode !== null}
        isBusy={mutation.isPending || isDone}
        error={codeError}
        onSubmit={(code) => asksCode && send(asksCode, code)}
        onClose={() => {
          setAsksCode(null);
          setCodeError(undefined);
        }}
        testId="withdraw-totp"
      />
    </form>
  );
}
