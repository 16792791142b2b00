import { useSchemaForm } from '@bourse/forms';
import { fromAtoms, isAmountString, toAtoms } from '@bourse/shared';
import {
  type ContractDirection,
  type ContractRecord,
  type DeliveryMarket,
  type DeliveryPage,
  PlaceContractBody,
} from '@bourse/shared/api';
import Popup from 'antd-mobile/es/components/popup';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/http.ts';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { usePlaceContract } from '../api/place-contract.ts';
import {
  amountAtoms,
  breakEvenPercent,
  expectedPayout,
  expectedProfit,
  plainAmount,
  quickAmounts,
  ratioPercent,
} from './contract-math.ts';
import { DirectionTag, useFormatPeriod, usePercent, useSourceLabel } from './labels.tsx';
import { pairLabel } from './pair-label.ts';

/** The sheet's form over the shared request schema, bounded by the chosen period and balance. */
function contractFormSchema(market: DeliveryMarket, balance: DeliveryPage['balance']) {
  return PlaceContractBody.pick({ period: true, amount: true, trial: true }).superRefine(
    (values, context) => {
      const period = market.periods.find((each) => each.seconds === values.period);
      if (!period) {
        context.addIssue({ code: 'custom', path: ['period'], message: 'CONTRACT_PERIOD_INVALID' });
        return;
      }
      const amount = toAtoms(values.amount);
      const isTrial = values.trial === '1';
      const funds = toAtoms(isTrial ? balance.trial : balance.usdt);
      const problem =
        amount < toAtoms(period.min)
          ? 'AMOUNT_BELOW_MIN'
          : toAtoms(period.max) > 0n && amount > toAtoms(period.max)
            ? 'AMOUNT_ABOVE_MAX'
            : amount > funds
              ? isTrial
                ? 'delivery.errors.trialInsufficient'
                : 'delivery.errors.usdtInsufficient'
              : null;
      if (problem) context.addIssue({ code: 'custom', path: ['amount'], message: problem });
    },
  );
}

const SUBMIT_KEYS = { up: 'delivery.sheet.submitUp', down: 'delivery.sheet.submitDown' } as const;
const PROFIT_KEYS = { up: 'delivery.sheet.profitUp', down: 'delivery.sheet.profitDown' } as const;
const LOSS_KEYS = { up: 'delivery.sheet.lossUp', down: 'delivery.sheet.lossDown' } as const;

/**
 * The order sheet: the period (with its payout ratio), real or trial money, the amount with quick
 * amounts, and before anything is sent what the contract costs and can return — the expected
 * profit, the payout, the break-even win rate. The button spells out the amount.
 */
export function OrderSheet({
  page,
  market,
  direction,
  isOpen,
  onClose,
  onPlaced,
}: {
  page: DeliveryPage;
  market: DeliveryMarket;
  direction: ContractDirection;
  isOpen: boolean;
  onClose: () => void;
  onPlaced: (record: ContractRecord) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const formatPeriod = useFormatPeriod();
  const sourceLabel = useSourceLabel();
  const percent = usePercent();
  const mutation = usePlaceContract();
  const idempotencyKey = useRef(newIdempotencyKey());
  const schema = useMemo(() => contractFormSchema(market, page.balance), [market, page.balance]);
  const form = useSchemaForm(schema, {
    defaultValues: { period: market.periods[0]?.seconds ?? 0, amount: '', trial: '0' },
  });
  const periodField = useController({ control: form.control, name: 'period' });
  const trialField = useController({ control: form.control, name: 'trial' });
  const amount = useWatch({ control: form.control, name: 'amount' }) ?? '';
  const period = market.periods.find((each) => each.seconds === periodField.field.value) ?? market.periods[0];
  const isTrial = trialField.field.value === '1';
  const balance = isTrial ? page.balance.trial : page.balance.usdt;
  const hasTrial = toAtoms(page.balance.trial) > 0n;
  const ratio = period?.ratio ?? '0';
  const chips = period ? quickAmounts(period.min, period.max, balance) : [];
  const capLeft = page.trial_grants
    .filter((grant) => grant.status === 'active')
    .reduce((sum, grant) => {
      const left = toAtoms(grant.profit_cap) - toAtoms(grant.profit_paid);
      return left > 0n ? sum + left : sum;
    }, 0n);
  const isBlocked = market.status !== 'open' || market.stale || !period;

  // why: the bounds follow the period and the money chosen; a typed amount is checked again.
  const { trigger, getFieldState } = form;
  useEffect(() => {
    if (getFieldState('amount').isTouched) void trigger('amount');
  }, [trigger, getFieldState, periodField.field.value, trialField.field.value, page.balance]);

  const onSubmit = form.handleSubmit((values) => {
    if (mutation.isPending || isBlocked) return;
    mutation.mutate(
      {
        symbol: market.symbol,
        direction,
        period: Number(values.period),
        amount: values.amount,
        trial: values.trial === '1' ? '1' : '0',
        idempotency_key: idempotencyKey.current,
      },
      {
        onSuccess: (body) => {
          idempotencyKey.current = newIdempotencyKey();
          showToast(body.msg, 'success');
          onPlaced(body.data);
        },
        onError: (error) => {
          // why: a refused contract took no effect, so the next try is a new submission; after a
          // network failure the outcome is unknown, and the same key makes a retry safe.
          if (!(error instanceof ApiError && error.code === -1)) idempotencyKey.current = newIdempotencyKey();
        },
      },
    );
  });

  const amountText = isAmountString(amount) ? amount : '0';
  return (
    <Popup
      visible={isOpen}
      onMaskClick={mutation.isPending ? undefined : onClose}
      bodyClassName="order-sheet-body"
      destroyOnClose={false}
    >
      <form
        className="order-sheet"
        onSubmit={onSubmit}
        noValidate
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="order-sheet"
      >
        <header className="order-sheet-head">
          <h2 className="order-sheet-title" id={titleId}>
            {pairLabel(market.symbol, market.base, market.quote)}
            <DirectionTag direction={direction} testId="order-direction" />
          </h2>
          <button type="button" className="text-button" onClick={onClose} disabled={mutation.isPending}>
            {t('common.cancel')}
          </button>
        </header>
        {market.index && (
          <p className="order-sheet-index">
            {t('delivery.sheet.index')} <Amount value={market.index.price} decimals={market.price_decimals} />{' '}
            · {sourceLabel(market.index.source)}
          </p>
        )}

        <fieldset className="order-group">
          <legend className="field-label">{t('delivery.sheet.period')}</legend>
          <div className="period-chips">
            {market.periods.map((each) => {
              const isChosen = each.seconds === period?.seconds;
              return (
                <label
                  key={each.seconds}
                  className={isChosen ? 'period-chip is-active' : 'period-chip'}
                  data-testid={`period-${each.seconds}`}
                >
                  <input
                    type="radio"
                    className="visually-hidden"
                    name={`${titleId}-period`}
                    checked={isChosen}
                    onChange={() => periodField.field.onChange(each.seconds)}
                  />
                  <span className="period-chip-time">{formatPeriod(each.seconds)}</span>
                  <span className="period-chip-ratio num">{percent(ratioPercent(each.ratio), true)}</span>
                </label>
              );
            })}
          </div>
        </fieldset>

        <fieldset className="order-group">
          <legend className="field-label">{t('delivery.sheet.payWith')}</legend>
          <div className="funding-switch">
            {(['0', '1'] as const).map((value) => {
              const isChosen = trialField.field.value === value;
              const isDisabled = value === '1' && !hasTrial;
              const classes = [
                'funding-option',
                isChosen ? 'is-active' : '',
                isDisabled ? 'is-disabled' : '',
              ];
              return (
                <label
                  key={value}
                  className={classes.filter(Boolean).join(' ')}
                  data-testid={value === '1' ? 'funding-trial' : 'funding-real'}
                >
                  <input
                    type="radio"
                    className="visually-hidden"
                    name={`${titleId}-funding`}
                    checked={isChosen}
                    disabled={isDisabled}
                    onChange={() => trialField.field.onChange(value)}
                  />
                  <span className="funding-name">
                    {value === '1' ? t('delivery.funding.trialMoney') : t('delivery.funding.real')}
                  </span>
                  <Amount
                    value={value === '1' ? page.balance.trial : page.balance.usdt}
                    unit="USDT"
                    className="funding-balance"
                    testId={value === '1' ? 'balance-trial' : 'balance-usdt'}
                  />
                </label>
              );
            })}
          </div>
        </fieldset>

        <FormAmountField
          control={form.control}
          name="amount"
          label={t('delivery.sheet.amount')}
          placeholder={period ? t('delivery.sheet.amountPlaceholder', { min: plainAmount(period.min) }) : ''}
          decimals={8}
          testId="order-amount"
          trailing={<span className="order-unit">USDT</span>}
        />
        {chips.length > 0 && (
          <div className="quick-amounts">
            {chips.map((chip) => (
              <button
                key={`${chip.value}-${chip.isMax}`}
                type="button"
                className={chip.value === amount ? 'quick-amount is-active' : 'quick-amount'}
                onClick={() =>
                  form.setValue('amount', chip.value, { shouldValidate: true, shouldTouch: true })
                }
                data-testid={chip.isMax ? 'quick-max' : `quick-${chip.value}`}
              >
                {chip.isMax ? t('delivery.sheet.max') : <span className="num">{chip.value}</span>}
              </button>
            ))}
          </div>
        )}

        {period && (
          <ul className="order-facts" data-testid="order-facts">
            <li>
              <span>{t('delivery.sheet.ratio')}</span>
              <span className="num" data-testid="order-ratio">
                {percent(ratioPercent(ratio))}
              </span>
            </li>
            <li className="is-strong">
              <span>{t(PROFIT_KEYS[direction])}</span>
              <Amount value={expectedProfit(amountText, ratio)} unit="USDT" isSigned testId="order-profit" />
            </li>
            <li>
              <span>{t('delivery.sheet.payout')}</span>
              <Amount value={expectedPayout(amountText, ratio)} unit="USDT" testId="order-payout" />
            </li>
            <li>
              <span>{t('delivery.sheet.breakEven')}</span>
              <span className="num" data-testid="order-break-even">
                {percent(breakEvenPercent(ratio))}
              </span>
            </li>
            {isTrial && (
              <li>
                <span>{t('delivery.sheet.capLeft')}</span>
                <Amount value={fromAtoms(capLeft)} unit="USDT" testId="order-cap-left" />
              </li>
            )}
            {isTrial && toAtoms(page.balance.trial_profit) > 0n && (
              <li>
                <span>{t('delivery.sheet.lockedProfit')}</span>
                <Amount value={page.balance.trial_profit} unit="USDT" testId="order-locked-profit" />
              </li>
            )}
            {isTrial && toAtoms(page.balance.trial_profit) > 0n && (
              <li>
                <span>{t('delivery.sheet.turnoverLeft')}</span>
                <Amount value={page.trial_turnover_left} unit="USDT" testId="order-turnover-left" />
              </li>
            )}
            <li>
              <span>{t('delivery.sheet.limits')}</span>
              <span className="num">
                <Amount value={period.min} /> – <Amount value={period.max} unit="USDT" />
              </span>
            </li>
          </ul>
        )}
        <p className="page-footnote order-footnote">{t(LOSS_KEYS[direction])}</p>
        {isTrial && (
          <p className="note note-info order-trial-note" data-testid="order-trial-note">
            {t('delivery.sheet.trialNote')}
          </p>
        )}
        {isBlocked && (
          <p className="note" role="status" data-testid="order-blocked">
            {market.status !== 'open' ? t('delivery.marketClosed') : t('delivery.indexStale')}
          </p>
        )}
        <SubmitButton
          isBusy={mutation.isPending}
          isDisabled={isBlocked}
          testId="order-submit"
          className={`order-submit is-${direction}`}
        >
          {t(SUBMIT_KEYS[direction], { amount: amountAtoms(amount) > 0n ? amount : '0' })}
        </SubmitButton>
      </form>
    </Popup>
  );
}
