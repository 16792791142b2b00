import { LazySchema, useSchemaForm } from '@bourse/forms';
import { truncateDecimal } from '@bourse/shared';
import {
  type OrderSide,
  type SpotMarket,
  type SpotOrderType,
  TRIGGER_ORDER_TYPES,
  type TriggerCondition,
  type TriggerOrderType,
} from '@bourse/shared/api';
import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/http.ts';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBalance } from '../api/get-balance.ts';
import { usePlaceOrder } from '../api/orders.ts';
import { useTriggerLevel } from './labels.tsx';
import {
  amountAtoms,
  decimalAtoms,
  estimateOrder,
  feePercent,
  hasLimitPrice,
  highestFee,
  isTriggerType,
  plainDecimal,
  sliderAmount,
  stepDecimals,
  triggerCondition,
} from './order-math.ts';
import type { OrderFormSchema } from './order-schema.ts';
import { PercentSlider } from './percent-slider.tsx';

/** The order form's validation (zod and the request schema): fetched once, on first need. */
function loadOrderSchema() {
  return import('./order-schema.ts');
}

/** Starts fetching the validation while the trader turns to the form. */
function warmOrderSchema() {
  loadOrderSchema().catch(() => undefined);
}

const SIDES: readonly OrderSide[] = ['buy', 'sell'];
/** The form's type tabs: a trigger order is one tab, with its own choice of the three kinds. */
type TypeTab = 'limit' | 'market' | 'trigger';
const TYPE_TABS: readonly TypeTab[] = ['limit', 'market', 'trigger'];
const TYPE_TAB_KEYS: Record<TypeTab, string> = {
  limit: 'spot.type.limit',
  market: 'spot.type.market',
  trigger: 'spot.type.trigger',
};
const TRIGGER_TYPE_KEYS: Record<TriggerOrderType, string> = {
  stop_limit: 'spot.type.stop_limit',
  stop_market: 'spot.type.stop_market',
  take_profit: 'spot.type.take_profit',
};

/**
 * Buy and sell; limit, market and trigger (stop-limit, stop-market, take-profit): the trigger
 * price with the last price beside it and the condition it waits for, the price (limit and
 * stop-limit), the quantity or (a buy at the market) the amount to spend, a slider for a share of
 * what is available, and before anything is sent the total and the most fee it can cost. A price
 * tapped in the book arrives through `picked`.
 *
 * Memoised: the desk renders again on every change of the book, the form only when its prices do.
 */
export const OrderForm = memo(function OrderForm({
  market,
  picked,
  referencePrice,
  lastPrice,
  bestAsk,
  bestBid,
}: {
  market: SpotMarket;
  /** A price tapped in the book; `at` changes on every tap, so the same price fills in again. */
  picked: { price: string; at: number } | null;
  /** The price a new limit order starts at (the last trade, else the index). */
  referencePrice: string | null;
  /** The market's last trade price (what triggers watch); null before the first trade. */
  lastPrice: string | null;
  bestAsk: string | null;
  bestBid: string | null;
}) {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const formId = useId();
  const [side, setSide] = useState<OrderSide>('buy');
  const [tab, setTab] = useState<TypeTab>('limit');
  const [triggerType, setTriggerType] = useState<TriggerOrderType>('stop_limit');
  const type: SpotOrderType = tab === 'trigger' ? triggerType : tab;
  const [percent, setPercent] = useState(0);
  const payCoin = side === 'buy' ? market.quote : market.base;
  const balance = useBalance(payCoin, true);
  const available = balance.data?.available ?? '0';
  const mutation = usePlaceOrder();
  const idempotencyKey = useRef(newIdempotencyKey());
  const schema = useMemo(
    // why: zod and the request schemas (about 26 KB gzipped) load when the form is first checked
    // (warmed on its first focus or touch), not with the trade page.
    () =>
      new LazySchema<OrderFormSchema>(() =>
        loadOrderSchema().then((m) => m.orderFormSchema({ market, side, type, available, lastPrice })),
      ),
    [market, side, type, available, lastPrice],
  );
  const priceDecimals = stepDecimals(market.tick_size);
  const qtyDecimals = stepDecimals(market.lot_size);
  const form = useSchemaForm(schema, {
    defaultValues: { price: '', qty: '', quote_amount: '', trigger_price: '' },
  });
  const [price = '', qty = '', quoteAmount = '', triggerPrice = ''] = useWatch({
    control: form.control,
    name: ['price', 'qty', 'quote_amount', 'trigger_price'],
  });
  const isLimit = hasLimitPrice(type);
  const isTrigger = isTriggerType(type);
  // why: a buy that enters at the market (market, stop-market, take-profit) is sized by what it spends.
  const isMarketBuy = side === 'buy' && !isLimit;
  const feeRatio = isLimit ? highestFee(market.maker_fee, market.taker_fee) : market.taker_fee;
  const estimate = estimateOrder({
    side,
    type,
    price,
    qty,
    quoteAmount,
    // why: a stop-market or take-profit enters when the last price reaches its trigger.
    referencePrice: isTrigger ? triggerPrice : side === 'buy' ? bestAsk : bestBid,
    feeRatio,
  });
  const isHalted = market.status !== 'open';

  const { setValue, getValues, clearErrors } = form;
  // why: a new limit order starts at the market's price, once it is known.
  useEffect(() => {
    if (referencePrice && getValues('price') === '')
      setValue('price', plainDecimal(truncateDecimal(referencePrice, priceDecimals)));
  }, [referencePrice, priceDecimals, getValues, setValue]);

  // why: a layout effect, so the tapped price is in the field within the tap's own update (the
  // same frame), not one task later.
  useLayoutEffect(() => {
    if (!picked) return;
    // why: a stop-limit keeps its kind and takes the tapped price as its limit price.
    if (tab !== 'trigger' || triggerType !== 'stop_limit') setTab('limit');
    setValue('price', plainDecimal(truncateDecimal(picked.price, priceDecimals)), { shouldValidate: true });
  }, [picked, priceDecimals, setValue]);

  function applyPercent(next: number) {
    setPercent(next);
    const fill = sliderAmount({
      percent: next,
      side,
      type,
      available,
      price: getValues('price'),
      lotSize: market.lot_size,
      feeRatio: highestFee(market.maker_fee, market.taker_fee),
    });
    setValue(fill.field, fill.value, { shouldValidate: fill.value !== '', shouldTouch: true });
  }

  function choose(next: { side?: OrderSide; tab?: TypeTab; triggerType?: TriggerOrderType }) {
    if (next.side) setSide(next.side);
    if (next.tab) setTab(next.tab);
    if (next.triggerType) setTriggerType(next.triggerType);
    setPercent(0);
    setValue('qty', '');
    setValue('quote_amount', '');
    clearErrors();
  }

  const onSubmit = form.handleSubmit((values) => {
    if (mutation.isPending || isHalted) return;
    mutation.mutate(
      {
        symbol: market.symbol,
        side,
        type,
        price: isLimit ? values.price : undefined,
        qty: isMarketBuy ? undefined : values.qty,
        quote_amount: isMarketBuy ? values.quote_amount : undefined,
        trigger_price: isTrigger ? values.trigger_price : undefined,
        idempotency_key: idempotencyKey.current,
      },
      {
        onSuccess: (body) => {
          idempotencyKey.current = newIdempotencyKey();
          showToast(body.msg, 'success');
          setPercent(0);
          form.reset({
            price: getValues('price'),
            qty: '',
            quote_amount: '',
            trigger_price: getValues('trigger_price'),
          });
        },
        onError: (error) => {
          // why: a refused order took no effect, so the next try is a new submission; after a
          // network failure the outcome is unknown, and the same key makes a retry safe.
          if (!(error instanceof ApiError && error.code === -1)) idempotencyKey.current = newIdempotencyKey();
        },
      },
    );
  });

  return (
    <form
      className="order-form"
      onSubmit={onSubmit}
      // why: the validation module is fetched while the trader starts on the form, not on the check.
      onFocus={warmOrderSchema}
      onPointerDown={warmOrderSchema}
      noValidate
      aria-labelledby={`${formId}-title`}
    >
      <h2 className="visually-hidden" id={`${formId}-title`}>
        {t('spot.form.title')}
      </h2>
      <div className="side-switch" role="tablist" aria-label={t('spot.form.side')}>
        {SIDES.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={side === each}
            className={side === each ? `side-option is-${each} is-active` : `side-option is-${each}`}
            onClick={() => choose({ side: each })}
            data-testid={`side-${each}`}
          >
            {t(`spot.side.${each}`)}
          </button>
        ))}
      </div>
      <fieldset className="type-switch">
        <legend className="visually-hidden">{t('spot.form.type')}</legend>
        {TYPE_TABS.map((each) => (
          <button
            key={each}
            type="button"
            aria-pressed={tab === each}
            className={tab === each ? 'type-option is-active' : 'type-option'}
            onClick={() => choose({ tab: each })}
            data-testid={`type-${each}`}
          >
            {t(TYPE_TAB_KEYS[each])}
          </button>
        ))}
      </fieldset>
      {isTrigger && (
        <>
          <fieldset className="type-switch trigger-switch">
            <legend className="visually-hidden">{t('spot.form.triggerType')}</legend>
            {TRIGGER_ORDER_TYPES.map((each) => (
              <button
                key={each}
                type="button"
                aria-pressed={triggerType === each}
                className={triggerType === each ? 'type-option is-active' : 'type-option'}
                onClick={() => choose({ triggerType: each })}
                data-testid={`trigger-type-${each}`}
              >
                {t(TRIGGER_TYPE_KEYS[each])}
              </button>
            ))}
          </fieldset>
          <FormAmountField
            control={form.control}
            name="trigger_price"
            label={t('spot.form.triggerPrice', { coin: market.quote })}
            decimals={priceDecimals}
            testId="order-trigger-price"
            hint={
              <TriggerHint
                market={market}
                lastPrice={lastPrice}
                condition={triggerCondition(type, side)}
                triggerPrice={triggerPrice}
              />
            }
          />
        </>
      )}
      {isLimit ? (
        <FormAmountField
          control={form.control}
          name="price"
          label={t('spot.form.price', { coin: market.quote })}
          decimals={priceDecimals}
          testId="order-price"
        />
      ) : (
        <div className="field">
          <span className="field-label">{t('spot.form.price', { coin: market.quote })}</span>
          <p className="market-price-note" data-testid="order-market-price">
            {t('spot.form.marketPrice')}
          </p>
        </div>
      )}
      {isMarketBuy ? (
        <FormAmountField
          control={form.control}
          name="quote_amount"
          label={t('spot.form.amount', { coin: market.quote })}
          decimals={8}
          testId="order-amount"
        />
      ) : (
        <FormAmountField
          control={form.control}
          name="qty"
          label={t('spot.form.qty', { coin: market.base })}
          decimals={qtyDecimals}
          testId="order-qty"
        />
      )}
      <PercentSlider
        value={percent}
        onChange={applyPercent}
        isDisabled={isHalted || decimalAtoms(available) === 0n}
      />
      <dl className="order-figures">
        <div>
          <dt>{t('spot.form.available')}</dt>
          <dd data-testid="order-available">
            {balance.isPending ? '…' : <Amount value={available} decimals={8} unit={payCoin} />}
          </dd>
        </div>
        <div>
          <dt>{!isLimit && !isMarketBuy ? t('spot.form.totalAbout') : t('spot.form.total')}</dt>
          <dd data-testid="order-total">
            <Amount value={estimate.total} decimals={8} unit={market.quote} />
          </dd>
        </div>
        {isMarketBuy && (
          <div>
            <dt>{t('spot.form.qtyAbout')}</dt>
            <dd data-testid="order-qty-estimate">
              <Amount value={estimate.qty} decimals={market.qty_decimals} unit={market.base} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('spot.form.fee', { ratio: formatPercent.percent(feePercent(feeRatio)) })}</dt>
          <dd data-testid="order-fee">
            <Amount value={estimate.fee} decimals={8} unit={side === 'buy' ? market.base : market.quote} />
          </dd>
        </div>
      </dl>
      {isHalted && (
        <p className="note" role="status" data-testid="order-halted">
          {t('spot.halted')}
        </p>
      )}
      <SubmitButton
        isBusy={mutation.isPending}
        isDisabled={isHalted}
        testId="order-submit"
        className={`order-submit is-${side}`}
      >
        {t(side === 'buy' ? 'spot.form.submitBuy' : 'spot.form.submitSell', { coin: market.base })}
      </SubmitButton>
    </form>
  );
});

/**
 * Under the trigger price: the last price it is measured against, and the condition in words with
 * the price typed ("Triggers when the last price ≥ 95,000.00").
 */
function TriggerHint({
  market,
  lastPrice,
  condition,
  triggerPrice,
}: {
  market: SpotMarket;
  lastPrice: string | null;
  condition: TriggerCondition;
  triggerPrice: string;
}) {
  const { t } = useTranslation();
  const triggerLevel = useTriggerLevel();
  return (
    <span className="trigger-hint">
      <span data-testid="order-last-price">
        {t('spot.trigger.last')}{' '}
        {lastPrice ? <Amount value={lastPrice} decimals={market.price_decimals} /> : '—'}
      </span>
      <span data-testid="order-trigger-condition" data-condition={condition}>
        {amountAtoms(triggerPrice) > 0n
          ? t('spot.trigger.when', { level: triggerLevel(condition, triggerPrice, market.price_decimals) })
          : t(condition === 'gte' ? 'spot.trigger.whenRises' : 'spot.trigger.whenFalls')}
      </span>
    </span>
  );
}
